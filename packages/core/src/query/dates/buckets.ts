import { ValidationError } from '../../errors.js'
import { DAY, HOUR, MINUTE } from './civil.js'
import { clockBucketOf, clockBucketStarts } from './clock-buckets.js'
import type { Interval, WeekStartDay } from './interval.js'
import { startOfWall, startOfWallIn, toWall, WINDOW } from './wall-clock.js'
import { zoneSegments } from './zone-transitions.js'
import { nextWall, truncateWall } from './wall-interval.js'

/**
 * Buckets are local time units in the project's zone, as in PostHog. Minute
 * and hour buckets follow the clock in real time (clock-buckets.ts). Day,
 * week and month buckets are calendar units (`toStartOfDay`/`toStartOfWeek`/
 * `toStartOfMonth` in the team timezone): a day bucket is 23 hours long on a
 * spring-forward day and 25 on a fall-back day, and starts at the first
 * instant its wall clock reaches the day's 00:00 (at the change itself where
 * midnight is skipped; at its first reading where midnight is repeated).
 */

/** The start of the bucket holding an instant. */
export function bucketOf(instant: Date, interval: Interval, timeZone: string, weekStartDay: WeekStartDay): Date {
  return new Date(bucketOfMs(instant.getTime(), interval, timeZone, weekStartDay))
}

export function bucketOfMs(ms: number, interval: Interval, timeZone: string, weekStartDay: WeekStartDay): number {
  if (interval === 'minute') return clockBucketOf(ms, MINUTE, timeZone)
  if (interval === 'hour') return clockBucketOf(ms, HOUR, timeZone)
  let key = truncateWall(toWall(timeZone, ms), interval, weekStartDay)
  let start = startOfWall(timeZone, key)
  // A clock set back across midnight (e.g. 00:30 -> 23:30, which no current
  // zone does) shows the older date again; those instants stay in the newer
  // bucket so that buckets never overlap.
  for (;;) {
    const next = nextWall(key, interval)
    const nextStart = startOfWall(timeZone, next)
    if (nextStart > ms) return start
    key = next
    start = nextStart
  }
}

/**
 * Every bucket start from the bucket holding `range.from` to the one holding
 * `range.to` (both inclusive), strictly increasing; empty when `from > to`.
 * Like PostHog's `all_values()`, the first start can precede `range.from`.
 * Bucket i covers `[starts[i], starts[i + 1])`.
 *
 * `limit` bounds the work before it is done: past `limit` buckets the walk
 * stops and a ValidationError names `limit.attr` (the parameter that grew
 * the range, `interval` by default).
 */
export function bucketStarts(
  range: { readonly from: Date; readonly to: Date },
  interval: Interval,
  timeZone: string,
  weekStartDay: WeekStartDay,
  limit?: BucketLimit,
): Date[] {
  const from = range.from.getTime()
  const to = range.to.getTime()
  if (!(from <= to)) return []
  const max = limit?.max ?? Number.POSITIVE_INFINITY
  const first = bucketOfMs(from, interval, timeZone, weekStartDay)
  if (interval === 'minute' || interval === 'hour') {
    const starts = clockBucketStarts(first, to, interval === 'minute' ? MINUTE : HOUR, timeZone, max)
    if (starts.length > max) throw tooManyBuckets(interval, limit!)
    return starts.map((ms) => new Date(ms))
  }
  const out = [new Date(first)]
  // One look at the zone's offsets for the whole range (and the month after
  // it, where the loop finds the first start past `to`), walked in order.
  const segments = zoneSegments(timeZone, first - WINDOW, to + WINDOW + 32 * DAY)
  let index = 0
  let last = first
  let key = truncateWall(toWall(timeZone, from), interval, weekStartDay)
  for (;;) {
    key = nextWall(key, interval)
    const next = startOfWallIn(segments, key, index)
    if (next.instant > to) return out
    index = next.index
    // Wall times skipped by a change map to one instant: keep it once.
    if (next.instant > last) {
      if (out.length >= max) throw tooManyBuckets(interval, limit!)
      out.push(new Date(next.instant))
      last = next.instant
    }
  }
}

/** The most buckets a walk may produce, and how its error names the cause. */
export interface BucketLimit {
  readonly max: number
  /** The parameter the error names. Default `interval`. */
  readonly attr?: string
  /** Where the limit is set, for the error's words, e.g. "queries.limits.maxBucketsPerSeries". */
  readonly option?: string
}

function tooManyBuckets(interval: Interval, limit: BucketLimit): ValidationError {
  const option = limit.option ? ` (option ${limit.option})` : ''
  return new ValidationError(
    [{ path: [limit.attr ?? 'interval'], message: `the date range holds more than ${limit.max} ${interval} intervals, the most one series may have${option}: choose a longer interval or a shorter date range` }],
    { context: 'query over its budget' },
  )
}
