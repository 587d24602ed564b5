import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { dstSegments } from '../../src/query/dates/dst-segments.js'
import { localClock } from './local-clock.js'

const segments = (from: string, to: string, timeZone: string) =>
  dstSegments({ from: new Date(from), to: new Date(to) }, timeZone).map((s) => [s.from.toISOString(), s.to.toISOString(), s.offsetMinutes])

describe('dstSegments', () => {
  it('cuts March 2026 in New York at 2026-03-08T07:00Z (02:00 EST -> 03:00 EDT)', () => {
    expect(segments('2026-03-01T05:00:00Z', '2026-04-01T03:59:59.999Z', 'America/New_York')).toEqual([
      ['2026-03-01T05:00:00.000Z', '2026-03-08T07:00:00.000Z', -300],
      ['2026-03-08T07:00:00.000Z', '2026-04-01T03:59:59.999Z', -240],
    ])
  })

  it('finds both changes of a year in Lord Howe (30-minute DST) and Chatham', () => {
    // Lord Howe 2026: +11 until 04-04T15:00Z, +10:30 until 10-03T15:30Z, then +11.
    expect(segments('2026-01-01T00:00:00Z', '2026-12-31T00:00:00Z', 'Australia/Lord_Howe')).toEqual([
      ['2026-01-01T00:00:00.000Z', '2026-04-04T15:00:00.000Z', 660],
      ['2026-04-04T15:00:00.000Z', '2026-10-03T15:30:00.000Z', 630],
      ['2026-10-03T15:30:00.000Z', '2026-12-31T00:00:00.000Z', 660],
    ])
    // Chatham 2026: +13:45 until 04-04T14:00Z (03:45 local), +12:45 until the
    // last Sunday of September, 09-27 02:45 +12:45 = 09-26T14:00Z.
    expect(segments('2026-01-01T00:00:00Z', '2026-12-31T00:00:00Z', 'Pacific/Chatham').map((s) => s[2])).toEqual([825, 765, 825])
    expect(segments('2026-01-01T00:00:00Z', '2026-12-31T00:00:00Z', 'Pacific/Chatham')[1]!.slice(0, 2)).toEqual([
      '2026-04-04T14:00:00.000Z',
      '2026-09-26T14:00:00.000Z',
    ])
  })

  it('is one segment for zones without changes', () => {
    expect(segments('2020-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 'Asia/Kolkata')).toEqual([
      ['2020-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 330],
    ])
    expect(segments('2020-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 'UTC')).toHaveLength(1)
  })

  it('opens a last one-instant segment when the range ends on a change', () => {
    expect(segments('2026-03-08T00:00:00Z', '2026-03-08T07:00:00Z', 'America/New_York')).toEqual([
      ['2026-03-08T00:00:00.000Z', '2026-03-08T07:00:00.000Z', -300],
      ['2026-03-08T07:00:00.000Z', '2026-03-08T07:00:00.000Z', -240],
    ])
  })
})

describe('dstSegments for integer bucketing', () => {
  const ZONES = ['America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham', 'UTC'] as const
  const DAY = 86_400_000

  it('gives the local date as floor((epoch + offset) / day) within every segment', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2035, 0, 1) }),
        fc.integer({ min: 0, max: 400 * DAY }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 20 }),
        (zone, from, length, probes) => {
          const list = dstSegments({ from: new Date(from), to: new Date(from + length) }, zone)
          expect(list[0]!.from.getTime()).toBe(from)
          expect(list.at(-1)!.to.getTime()).toBe(from + length)
          list.forEach((s, i) => {
            if (i > 0) {
              expect(s.from.getTime()).toBe(list[i - 1]!.to.getTime())
              expect(s.offsetMinutes).not.toBe(list[i - 1]!.offsetMinutes)
            }
          })
          for (const p of probes) {
            const t = from + Math.floor(p * length)
            const segment = list.findLast((s) => s.from.getTime() <= t)!
            const day = Math.floor((t + segment.offsetMinutes * 60_000) / DAY)
            expect(new Date(day * DAY).toISOString().slice(0, 10)).toBe(localClock(t, zone).date)
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})
