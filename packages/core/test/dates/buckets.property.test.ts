import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bucketOf, bucketStarts } from '../../src/query/dates/buckets.js'
import { dstSegments } from '../../src/query/dates/dst-segments.js'
import type { Interval, WeekStartDay } from '../../src/query/dates/interval.js'
import { addDays, localClock } from './local-clock.js'

const ZONES = ['America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham', 'UTC'] as const
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const MAX_LENGTH: Record<Interval, number> = { minute: 6 * HOUR, hour: 5 * DAY, day: 400 * DAY, week: 3 * 365 * DAY, month: 8 * 365 * DAY }
const START = Date.UTC(2000, 0, 1)
const END = Date.UTC(2035, 0, 1)

const zone = fc.constantFrom(...ZONES)
const weekStartDay = fc.constantFrom<WeekStartDay>(0, 1)

/**
 * A range in [2000, 2035): either anywhere, or (half of the time) around one
 * of the zone's clock changes, so that short minute and hour ranges meet them.
 */
const rangeFor = (z: string, i: Interval) =>
  fc
    .tuple(fc.integer({ min: START, max: END }), fc.integer({ min: 0, max: MAX_LENGTH[i] }), fc.boolean(), fc.integer({ min: -DAY, max: DAY }))
    .map(([at, length, nearChange, shift]) => {
      let from = at
      if (nearChange) {
        const year = new Date(at).getUTCFullYear()
        const changes = dstSegments({ from: new Date(Date.UTC(year, 0, 1)), to: new Date(Date.UTC(year + 1, 0, 1)) }, z).slice(1)
        const change = changes[Math.abs(shift) % Math.max(changes.length, 1)]
        if (change) from = change.from.getTime() + shift - Math.floor(length / 2)
      }
      return { from: new Date(from), to: new Date(from + length) }
    })

const casesFor = (intervals: ReadonlyArray<Interval>) =>
  fc
  .tuple(zone, fc.constantFrom(...intervals), weekStartDay)
  .chain(([z, i, w]) => fc.record({ zone: fc.constant(z), interval: fc.constant(i), weekStartDay: fc.constant(w), range: rangeFor(z, i), probes: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 20 }) }))

const runs = { numRuns: 200 }

describe('bucket properties', () => {
  it('buckets are strictly increasing, contiguous, and cover the range', () => {
    fc.assert(
      fc.property(casesFor(['minute', 'hour', 'day', 'week', 'month']), ({ zone: z, interval: i, weekStartDay: w, range, probes }) => {
        const list = bucketStarts(range, i, z, w).map((d) => d.getTime())
        const from = range.from.getTime()
        const to = range.to.getTime()
        const of = (ms: number) => bucketOf(new Date(ms), i, z, w).getTime()
        expect(list.length).toBeGreaterThan(0)
        expect(list[0]).toBeLessThanOrEqual(from)
        expect(of(from)).toBe(list[0])
        expect(of(to)).toBe(list.at(-1))
        list.forEach((start, k) => {
          expect(of(start)).toBe(start)
          if (k > 0) {
            expect(start).toBeGreaterThan(list[k - 1]!)
            // The instant before a start belongs to the previous bucket: no gaps.
            expect(of(start - 1)).toBe(list[k - 1])
          }
        })
        for (const p of probes) {
          const t = from + Math.floor(p * (to - from))
          const b = of(t)
          // The bucket of t is the latest start at or before it.
          expect(b).toBe(list.findLast((s) => s <= t))
        }
      }),
      runs,
    )
  })

  it('day, week and month buckets start at local midnight, one calendar unit apart', () => {
    fc.assert(
      fc.property(
        casesFor(['day', 'week', 'month']),
        ({ zone: z, interval: i, weekStartDay: w, range }) => {
          const list = bucketStarts(range, i, z, w).map((d) => d.getTime())
          list.forEach((start, k) => {
            const clock = localClock(start, z)
            // None of these zones skips midnight, so every local day starts at 00:00:00.
            expect(clock.time).toBe('00:00:00')
            if (i === 'week') expect(clock.weekday).toBe(w)
            if (i === 'month') expect(clock.date.slice(8)).toBe('01')
            // The instant before the next start is still the same local day, week or month.
            const lastInstant = localClock((list[k + 1] ?? start + 40 * DAY) - 1, z).date
            if (k + 1 < list.length) {
              if (i === 'day') expect(lastInstant).toBe(clock.date)
              if (i === 'week') expect(lastInstant).toBe(addDays(clock.date, 6))
              if (i === 'month') expect(lastInstant.slice(0, 7)).toBe(clock.date.slice(0, 7))
            }
          })
        },
      ),
      runs,
    )
  })

  it('minute and hour buckets start where the local clock shows a whole minute or hour, or jumps over one', () => {
    fc.assert(
      fc.property(
        casesFor(['minute', 'hour']),
        ({ zone: z, interval: i, weekStartDay: w, range }) => {
          const list = bucketStarts(range, i, z, w).map((d) => d.getTime())
          const whole = (ms: number) => {
            const time = localClock(ms, z).time
            return i === 'minute' ? time.endsWith(':00') : time.endsWith(':00:00')
          }
          list.forEach((start, k) => {
            // A clock change shows as a wall clock that does not advance by one second in one second.
            const jumps = wallSeconds(start, z) - wallSeconds(start - 1000, z) !== 1
            expect(whole(start) || jumps).toBe(true)
            if (i === 'minute' && k > 0) expect(start - list[k - 1]!).toBe(MINUTE)
            // Offsets are whole quarter hours, so whole local hours fall on UTC quarter hours:
            // none of those strictly inside a bucket shows a whole hour.
            const next = list[k + 1]
            // Changes also happen on UTC quarter hours: none inside a bucket jumps over a whole hour.
            if (i === 'hour' && next !== undefined) {
              for (let q = Math.ceil((start + 1) / (15 * MINUTE)) * 15 * MINUTE; q < next; q += 15 * MINUTE) {
                expect(whole(q)).toBe(false)
                const before = wallSeconds(q - 1000, z) + 1
                const after = wallSeconds(q, z)
                expect(Math.ceil(before / 3600) * 3600 < after).toBe(false)
              }
            }
          })
        },
      ),
      runs,
    )
  })
})

/** The local wall clock as seconds on a UTC-like scale (reference, from the Intl clock). */
function wallSeconds(ms: number, z: string): number {
  const c = localClock(ms, z)
  return Date.parse(`${c.date}T${c.time}Z`) / 1000
}
