import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Interval, WeekStartDay } from '../../src/query/dates/interval.js'
import { resolveDateRange } from '../../src/query/dates/resolve-date-range.js'
import { addDays, localClock, startOfLocalDate } from './local-clock.js'

const ZONES = ['America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham', 'UTC'] as const

const now = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2035-01-01T00:00:00Z'), noInvalidDate: true })
const zone = fc.constantFrom(...ZONES)
// With these intervals date_from is truncated to the day (minute intervals keep the time of day).
const interval = fc.constantFrom<Interval>('hour', 'day', 'week', 'month')
const weekStartDay = fc.constantFrom<WeekStartDay>(0, 1)

/**
 * The reference: read today's local date off the zone's clock, step the
 * calendar, and find the first instant showing the resulting date.
 */
describe('relative dates agree with a calendar reference at random nows', () => {
  it('-Nd is the start of the local day N calendar days before today', async () => {
    await fc.assert(
      fc.asyncProperty(now, zone, fc.integer({ min: 0, max: 400 }), weekStartDay, async (at, z, n, w) => {
        const r = await resolveDateRange({ dateFrom: `-${n}d`, interval: 'day' }, { timezone: z, weekStartDay: w, now: at })
        const today = localClock(at.getTime(), z).date
        expect(r.from.getTime()).toBe(startOfLocalDate(addDays(today, -n), z))
      }),
      { numRuns: 300 },
    )
  })

  it('mStart is the start of the 1st of the current local month, whatever the interval rounds', async () => {
    await fc.assert(
      fc.asyncProperty(now, zone, interval, weekStartDay, async (at, z, i, w) => {
        const r = await resolveDateRange({ dateFrom: 'mStart', interval: i }, { timezone: z, weekStartDay: w, now: at })
        const firstOfMonth = `${localClock(at.getTime(), z).date.slice(0, 8)}01`
        expect(r.dateFrom.getTime()).toBe(startOfLocalDate(firstOfMonth, z))
        // Rounding to a day or a month leaves it; a week interval also rounds only to the day.
        if (i !== 'hour') expect(r.from.getTime()).toBe(r.dateFrom.getTime())
      }),
      { numRuns: 300 },
    )
  })

  it('the default range ends at the end of the local day of now', async () => {
    await fc.assert(
      fc.asyncProperty(now, zone, weekStartDay, async (at, z, w) => {
        const r = await resolveDateRange({}, { timezone: z, weekStartDay: w, now: at })
        const today = localClock(at.getTime(), z).date
        expect(r.toMicros + 1).toBe(startOfLocalDate(addDays(today, 1), z) * 1000)
        expect(r.from.getTime()).toBe(startOfLocalDate(addDays(today, -7), z))
      }),
      { numRuns: 200 },
    )
  })
})
