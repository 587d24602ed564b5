import { describe, expect, it } from 'vitest'
import { ValidationError } from '../../src/errors.js'
import { bucketStarts } from '../../src/query/dates/buckets.js'
import type { Interval, WeekStartDay } from '../../src/query/dates/interval.js'
import { resolveDateRange, type DateRangeContext, type DateRangeInput } from '../../src/query/dates/resolve-date-range.js'
import { parseTimestamp } from '../../src/time/timestamp.js'

const micros = (text: string) => parseTimestamp(text)!
const context = (now: string, timezone = 'UTC', weekStartDay: WeekStartDay = 0): DateRangeContext => ({
  timezone,
  weekStartDay,
  now: new Date(now),
})

/** [fromMicros, toMicros] as ISO strings with six decimals, to read failures easily. */
async function resolve(input: DateRangeInput, ctx: DateRangeContext) {
  const r = await resolveDateRange(input, ctx)
  return [show(r.fromMicros), show(r.toMicros)]
}
const show = (m: number) => new Date(Math.floor(m / 1000)).toISOString().replace('Z', `${String(m % 1000).padStart(3, '0')}Z`)
const at = (text: string) => show(micros(text))

async function starts(input: DateRangeInput, ctx: DateRangeContext, interval: Interval) {
  const r = await resolveDateRange({ ...input, interval }, ctx)
  return bucketStarts(r, interval, ctx.timezone, ctx.weekStartDay).map((d) => d.toISOString().slice(0, 16))
}

// The cases of PostHog's posthog/hogql_queries/utils/test/test_query_date_range.py
// (team timezone UTC, Sunday weeks unless stated).
describe('resolveDateRange: PostHog QueryDateRange cases', () => {
  const now = context('2021-08-25T00:00:00Z')

  it('-48h with a day interval is truncated to the hour, and date_to ends the day', async () => {
    expect(await resolve({ dateFrom: '-48h', interval: 'day' }, now)).toEqual([at('2021-08-23T00:00:00Z'), at('2021-08-25T23:59:59.999999Z')])
  })

  it('-48h with an hour interval ends date_to at the end of the current hour', async () => {
    expect(await resolve({ dateFrom: '-48h', interval: 'hour' }, now)).toEqual([at('2021-08-23T00:00:00Z'), at('2021-08-25T00:59:59.999999Z')])
  })

  it('absolute times with an hour interval are used as given', async () => {
    const input = { dateFrom: '2021-08-23 05:00:00', dateTo: '2021-08-26 07:00:00', interval: 'hour' as const }
    expect(await resolve(input, now)).toEqual([at('2021-08-23T05:00:00Z'), at('2021-08-26T07:00:00Z')])
  })

  it('-7d with a week interval starts at the day, not the week', async () => {
    expect(await resolve({ dateFrom: '-7d', interval: 'week' }, now)).toEqual([at('2021-08-18T00:00:00Z'), at('2021-08-25T23:59:59.999999Z')])
  })

  it('lists the buckets as all_values() does', async () => {
    expect(await starts({ dateFrom: '-20h' }, now, 'day')).toEqual(['2021-08-24T00:00', '2021-08-25T00:00'])
    expect(await starts({ dateFrom: '-20d' }, now, 'week')).toEqual(['2021-08-01T00:00', '2021-08-08T00:00', '2021-08-15T00:00', '2021-08-22T00:00'])
    expect(await starts({ dateFrom: '-20d' }, context('2021-08-25T00:00:00Z', 'UTC', 1), 'week')).toEqual([
      '2021-08-02T00:00',
      '2021-08-09T00:00',
      '2021-08-16T00:00',
      '2021-08-23T00:00',
    ])
    expect(await starts({ dateFrom: '-50d' }, now, 'month')).toEqual(['2021-07-01T00:00', '2021-08-01T00:00'])
    expect(await starts({ dateFrom: '-3h' }, now, 'hour')).toEqual(['2021-08-24T21:00', '2021-08-24T22:00', '2021-08-24T23:00', '2021-08-25T00:00'])
  })

  it('explicitDate uses both dates verbatim', async () => {
    const input = { dateFrom: '2021-02-25T12:25:23.000Z', dateTo: '2021-04-25T10:59:23.000Z', explicitDate: true }
    expect(await resolve(input, now)).toEqual([at('2021-02-25T12:25:23Z'), at('2021-04-25T10:59:23Z')])
  })

  it('-1dStart .. -1dEnd is yesterday for hour and day intervals', async () => {
    for (const interval of ['hour', 'day'] as const) {
      expect(await resolve({ dateFrom: '-1dStart', dateTo: '-1dEnd', interval }, now)).toEqual([
        at('2021-08-24T00:00:00Z'),
        at('2021-08-24T23:59:59.999999Z'),
      ])
    }
  })

  it('minutes: -2M .. -1M with a minute interval', async () => {
    expect(await resolve({ dateFrom: '-2M', dateTo: '-1M', interval: 'minute' }, now)).toEqual([
      at('2021-08-24T23:58:00Z'),
      at('2021-08-24T23:59:59.999999Z'),
    ])
  })

  it('weeks relative to the week start day', async () => {
    // 2025-10-08 is a Wednesday. Monday weeks: this week began Mon 10-06, the
    // previous one ran Mon 09-29 .. Sun 10-05.
    const monday = context('2025-10-08T00:00:00Z', 'UTC', 1)
    expect(await resolve({ dateFrom: '-1wStart', dateTo: '-1wEnd' }, monday)).toEqual([at('2025-09-29T00:00:00Z'), at('2025-10-05T23:59:59.999999Z')])
    expect(await resolve({ dateFrom: '-2wStart', dateTo: '-2wEnd' }, monday)).toEqual([at('2025-09-22T00:00:00Z'), at('2025-09-28T23:59:59.999999Z')])
    // Sunday weeks: this week began Sun 10-05, the previous one ran Sun 09-28 .. Sat 10-04.
    const sunday = context('2025-10-08T00:00:00Z', 'UTC', 0)
    expect(await resolve({ dateFrom: '-1wStart', dateTo: '-1wEnd' }, sunday)).toEqual([at('2025-09-28T00:00:00Z'), at('2025-10-04T23:59:59.999999Z')])
    expect(await resolve({ dateFrom: '-2wStart', dateTo: '-2wEnd' }, sunday)).toEqual([at('2025-09-21T00:00:00Z'), at('2025-09-27T23:59:59.999999Z')])
  })

  it('explicitDate (exact_timerange in the trends and funnels runners) keeps relative dates exact', async () => {
    const ctx = context('2021-08-25T14:30:45.123Z')
    expect(await resolve({ dateFrom: '-48h', explicitDate: true }, ctx)).toEqual([at('2021-08-23T14:30:45.123Z'), at('2021-08-25T14:30:45.123Z')])
    expect(await resolve({ dateFrom: '-48h' }, ctx)).toEqual([at('2021-08-23T14:00:00Z'), at('2021-08-25T23:59:59.999999Z')])
  })

  it('a missing date_to is rounded up to the end of the interval', async () => {
    const ctx = context('2021-08-25T14:30:45.123Z')
    expect((await resolve({ dateFrom: '-7d', interval: 'day' }, ctx))[1]).toBe(at('2021-08-25T23:59:59.999999Z'))
    expect((await resolve({ dateFrom: '-7d', interval: 'hour' }, ctx))[1]).toBe(at('2021-08-25T14:59:59.999999Z'))
    expect((await resolve({ dateFrom: '-7d', interval: 'minute' }, ctx))[1]).toBe(at('2021-08-25T14:30:59.999999Z'))
  })

  it('all starts at the earliest event', async () => {
    const earliestEvent = async () => new Date('2020-01-01T00:00:00Z')
    for (const interval of ['day', 'hour'] as const) {
      const r = await resolveDateRange({ dateFrom: 'all', interval }, { ...now, earliestEvent })
      expect(r.from.toISOString()).toBe('2020-01-01T00:00:00.000Z')
    }
  })
})

describe('resolveDateRange: defaults and rounding', () => {
  it('defaults to -7d .. end of today in the project zone', async () => {
    // now = 2026-03-30T10:00Z = Mon 12:00 CEST (UTC+2) in Berlin. Today began
    // at 00:00 CEST = 03-29T22:00Z. Seven calendar days earlier is 03-23
    // 00:00, before the 03-29 change, so CET (UTC+1): 03-22T23:00Z. Today
    // ends at 23:59:59.999999 CEST = 21:59:59.999999Z.
    const r = await resolveDateRange({}, context('2026-03-30T10:00:00Z', 'Europe/Berlin'))
    expect([show(r.fromMicros), show(r.toMicros)]).toEqual([at('2026-03-22T23:00:00Z'), at('2026-03-30T21:59:59.999999Z')])
    expect(r.interval).toBe('day')
    // Eight local days, one of them (03-29) 23 hours long: 191 hours.
    expect(r.toMicros + 1 - r.fromMicros).toBe((8 * 24 - 1) * 3600 * 1e6)
  })

  it('treats a blank date_from like a missing one', async () => {
    const ctx = context('2021-08-25T10:00:00Z')
    expect(await resolve({ dateFrom: '  ' }, ctx)).toEqual(await resolve({}, ctx))
  })

  it('-1d is calendar arithmetic in the zone, and so is -24h', async () => {
    // now = 2026-03-29T12:00Z = 14:00 CEST, the day Berlin moved from UTC+1
    // to UTC+2 at 01:00Z. Python's aware datetime minus timedelta(days=1) or
    // timedelta(hours=24) moves the wall clock: 2026-03-28 14:00 CET =
    // 13:00Z, only 23 real hours before now. With a minute interval nothing
    // is truncated.
    const ctx = context('2026-03-29T12:00:00Z', 'Europe/Berlin')
    for (const dateFrom of ['-1d', '-24h']) {
      const r = await resolveDateRange({ dateFrom, interval: 'minute' }, ctx)
      expect(r.from.toISOString()).toBe('2026-03-28T13:00:00.000Z')
    }
    // With a day interval -1d is cut to the start of 03-28 (00:00 CET = 03-27T23:00Z);
    // -24h only to the hour, and a daily series does not round it further.
    expect((await resolveDateRange({ dateFrom: '-1d' }, ctx)).from.toISOString()).toBe('2026-03-27T23:00:00.000Z')
    expect((await resolveDateRange({ dateFrom: '-24h' }, ctx)).from.toISOString()).toBe('2026-03-28T13:00:00.000Z')
  })

  it('ends the current hour at the right reading of a repeated hour', async () => {
    // New York repeats 01:00-02:00 on 2026-11-01 (06:00Z: EDT -> EST).
    // 05:30Z is 01:30 EDT, whose hour ends at 05:59:59.999999Z; 06:30Z is
    // 01:30 EST, whose hour ends at 06:59:59.999999Z (Python keeps fold=1).
    expect((await resolve({ interval: 'hour' }, context('2026-11-01T05:30:00Z', 'America/New_York')))[1]).toBe(at('2026-11-01T05:59:59.999999Z'))
    expect((await resolve({ interval: 'hour' }, context('2026-11-01T06:30:00Z', 'America/New_York')))[1]).toBe(at('2026-11-01T06:59:59.999999Z'))
  })

  it('reads naive dates as wall-clock time in the project zone', async () => {
    // New York is UTC-5 in January: 2021-01-05 00:00 EST = 05:00Z.
    const ny = context('2021-08-25T00:00:00Z', 'America/New_York')
    expect(await resolve({ dateFrom: '2021-01-05', dateTo: '2021-01-05' }, ny)).toEqual([
      at('2021-01-05T05:00:00Z'),
      at('2021-01-06T04:59:59.999999Z'),
    ])
    // strptime's unpadded form and dateutil's basic form are the same date.
    expect(await resolve({ dateFrom: '2021-1-5', dateTo: '20210105' }, ny)).toEqual(await resolve({ dateFrom: '2021-01-05', dateTo: '2021-01-05' }, ny))
    // An hour interval takes an absolute date_to as given: 00:00 that day.
    expect((await resolve({ dateFrom: '2021-01-04', dateTo: '2021-01-05', interval: 'hour' }, ny))[1]).toBe(at('2021-01-05T05:00:00Z'))
  })

  it('converts dates with an offset, then rounds them in the project zone', async () => {
    // 2021-01-05T02:00+02:00 = 2021-01-05T00:00Z = 2021-01-04 19:00 EST, so a
    // daily range starts at 2021-01-04 00:00 EST = 05:00Z.
    const r = await resolveDateRange({ dateFrom: '2021-01-05T02:00:00+02:00' }, context('2021-08-25T00:00:00Z', 'America/New_York'))
    expect(r.from.toISOString()).toBe('2021-01-04T05:00:00.000Z')
    expect(r.dateFrom.toISOString()).toBe('2021-01-05T00:00:00.000Z')
  })

  it('keeps microseconds of explicit dates', async () => {
    const r = await resolveDateRange({ dateFrom: '2021-01-05T10:00:00.123456Z', explicitDate: true }, context('2021-08-25T00:00:00Z'))
    expect(r.fromMicros).toBe(micros('2021-01-05T10:00:00.123456Z'))
    expect(r.from.toISOString()).toBe('2021-01-05T10:00:00.123Z')
  })

  it('moves months on the calendar and clamps the day', async () => {
    // now = 2021-03-31: one month back is Feb 31, clamped to Feb 28.
    const ctx = context('2021-03-31T12:00:00Z')
    expect((await resolve({ dateFrom: '-1m' }, ctx))[0]).toBe(at('2021-02-28T00:00:00Z'))
    expect(await resolve({ dateFrom: '-1mStart', dateTo: '-1mEnd' }, ctx)).toEqual([at('2021-02-01T00:00:00Z'), at('2021-02-28T23:59:59.999999Z')])
    expect((await resolve({ dateFrom: 'mStart' }, ctx))[0]).toBe(at('2021-03-01T00:00:00Z'))
    // -1q is 13 weeks = 91 days: 03-31 - 31 = 02-28, - 28 = 01-31, - 31 = 12-31, - 1 = 12-30.
    expect((await resolve({ dateFrom: '-1q' }, ctx))[0]).toBe(at('2020-12-30T00:00:00Z'))
    expect(await resolve({ dateFrom: '-1yStart', dateTo: '-1yEnd' }, ctx)).toEqual([at('2020-01-01T00:00:00Z'), at('2020-12-31T23:59:59.999999Z')])
    expect((await resolve({ dateFrom: 'yStart' }, ctx))[0]).toBe(at('2021-01-01T00:00:00Z'))
    // The leading minus is optional in PostHog's pattern.
    expect(await resolve({ dateFrom: '7d' }, ctx)).toEqual(await resolve({ dateFrom: '-7d' }, ctx))
  })

  it('all without events falls back to a week before now', async () => {
    // posthog/queries/util.py get_earliest_timestamp: now - DEFAULT_EARLIEST_TIME_DELTA (1 week),
    // then rounded like any date_from: 2021-08-18T10:00Z -> 2021-08-18T00:00Z.
    const r = await resolveDateRange({ dateFrom: 'all' }, { ...context('2021-08-25T10:00:00Z'), earliestEvent: async () => null })
    expect(r.from.toISOString()).toBe('2021-08-18T00:00:00.000Z')
    expect(r.dateFrom.toISOString()).toBe('2021-08-18T10:00:00.000Z')
  })

  it('rounds an absolute date_from down to its interval unless explicit', async () => {
    const ctx = context('2021-08-25T00:00:00Z')
    expect((await resolveDateRange({ dateFrom: '2021-08-20T10:20:00Z', interval: 'month' }, ctx)).from.toISOString()).toBe('2021-08-01T00:00:00.000Z')
    // Week intervals round only to the day (date_from_with_adjusted_start_of_interval).
    expect((await resolveDateRange({ dateFrom: '2021-08-20T10:20:00Z', interval: 'week' }, ctx)).from.toISOString()).toBe('2021-08-20T00:00:00.000Z')
    expect((await resolveDateRange({ dateFrom: '2021-08-20T10:20:00Z', explicitDate: true }, ctx)).from.toISOString()).toBe('2021-08-20T10:20:00.000Z')
  })
})

describe('resolveDateRange: invalid input', () => {
  const ctx = context('2021-08-25T00:00:00Z')
  const failure = async (input: DateRangeInput, c: DateRangeContext = ctx) => {
    const error = await resolveDateRange(input, c).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ValidationError)
    return (error as ValidationError).attr
  }

  it('names date_from', async () => {
    for (const dateFrom of ['yesterday', '-3D', '7 days ago', '2021-02-30', '2021-13-01', '2021-01-01T25:00', '-99999999y', 'all']) {
      expect(await failure({ dateFrom })).toBe('date_from')
    }
  })

  it('names date_to', async () => {
    for (const dateTo of ['all', 'soon', '2021-02-29', '-7x']) expect(await failure({ dateTo })).toBe('date_to')
  })

  it('names the interval', async () => {
    expect(await failure({ interval: 'decade' as Interval })).toBe('interval')
  })
})
