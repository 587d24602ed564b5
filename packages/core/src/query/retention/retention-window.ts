import { ValidationError } from '../../errors.js'
import { bucketOfMs, bucketStarts } from '../dates/buckets.js'
import type { WeekStartDay } from '../dates/interval.js'
import { resolveDateRange } from '../dates/resolve-date-range.js'
import { nextBucketStart } from '../dates/periods.js'
import type { RetentionPeriod } from './retention-request.js'

/** The periods of a retention result: row i is the cohort of period i; periods are the project's local units. */
export interface RetentionWindow {
  readonly period: RetentionPeriod
  readonly timeZone: string
  readonly weekStartDay: WeekStartDay
  /** Period i is `[starts[i], starts[i + 1])` (the last ends at `end`), epoch ms. */
  readonly starts: ReadonlyArray<number>
  /** Exclusive: the start of the period after the one holding `date_to`. */
  readonly end: number
  /** Values per row (total_intervals): period i + k for k < lookahead. */
  readonly lookahead: number
}

export interface WindowContext {
  readonly timeZone: string
  readonly weekStartDay: WeekStartDay
  readonly now: Date
  /** The project's earliest event, read only for `date_from: "all"`. */
  readonly earliestEvent: () => Promise<Date | null>
}

/** More rows than any table shows; bounds `date_from: "all"` with hourly periods. */
export const MAX_ROWS = 5000

/**
 * PostHog's `QueryDateRangeWithIntervals` (reference §13.2): the window ends
 * at the start of the period after the one holding `date_to` (default now,
 * read as trends read it: a bare date is its whole day, except for hours);
 * it starts `total_intervals` periods earlier, or, when `date_from` is given
 * (the newer API's date range), at the start of `date_from`'s period. Throws
 * ValidationError for unreadable dates or a window of more than MAX_ROWS periods.
 */
export async function retentionWindow(
  request: { readonly period: RetentionPeriod; readonly totalIntervals: number; readonly dateFrom: string | null; readonly dateTo: string | null },
  context: WindowContext,
): Promise<RetentionWindow> {
  const { period, totalIntervals } = request
  const { timeZone, weekStartDay } = context
  const range = await resolveDateRange(
    { dateFrom: request.dateFrom, dateTo: request.dateTo, interval: period },
    { timezone: timeZone, weekStartDay, now: context.now, earliestEvent: context.earliestEvent },
  )
  const lastStart = bucketOfMs(Math.floor(range.toMicros / 1000), period, timeZone, weekStartDay)
  const end = nextBucketStart(lastStart, period, timeZone, weekStartDay)
  let first: number
  if (request.dateFrom !== null) first = bucketOfMs(range.dateFrom.getTime(), period, timeZone, weekStartDay)
  else {
    // Walking back period by period keeps every period a local calendar unit across DST changes.
    first = end
    for (let i = 0; i < totalIntervals; i++) first = bucketOfMs(first - 1, period, timeZone, weekStartDay)
  }
  // The walk stops past MAX_ROWS periods with a ValidationError naming date_from.
  const limit = { max: MAX_ROWS, attr: 'date_from' }
  const starts = first < end ? bucketStarts({ from: new Date(first), to: new Date(end - 1) }, period, timeZone, weekStartDay, limit).map((d) => d.getTime()) : []
  return { period, timeZone, weekStartDay, starts, end, lookahead: totalIntervals }
}
