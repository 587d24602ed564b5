import { bucketStarts, type BucketLimit } from './buckets.js'
import { DAY, HOUR } from './civil.js'
import type { Interval, WeekStartDay } from './interval.js'
import { resolveDateRange } from './resolve-date-range.js'
import { previousPeriodBounds } from './previous-period.js'

/** One period of a trend: its bounds and its buckets. */
export interface Period {
  readonly interval: Interval
  readonly timeZone: string
  readonly weekStartDay: WeekStartDay
  /** Events count when `fromMicros <= timestamp <= toMicros`. */
  readonly fromMicros: number
  readonly toMicros: number
  /** PostHog's `date_from` before rounding to its interval: week labels are clipped to it. */
  readonly dateFromMs: number
  /** Bucket i covers `[starts[i], ends[i])`, in epoch milliseconds; the first can start before `fromMicros`. */
  readonly starts: ReadonlyArray<number>
  readonly ends: ReadonlyArray<number>
  readonly compareLabel: 'current' | 'previous' | null
}

export interface PeriodsInput {
  readonly interval: Interval
  readonly dateFrom: string | null
  readonly dateTo: string | null
  /** Use the bounds as given (PostHog's explicit date and BoldNumber's exact range). */
  readonly explicitDate: boolean
  readonly compare: boolean
  readonly compareTo: string | null
}

export interface PeriodsContext {
  readonly timezone: string
  readonly weekStartDay: WeekStartDay
  readonly now: Date
  /** The earliest relevant event, read only for `date_from: "all"`. */
  readonly earliestEvent: () => Promise<Date | null>
  /** The most buckets a period may have (`QueryLimits.maxBucketsPerSeries`); more is a ValidationError naming `interval`. */
  readonly bucketLimit: BucketLimit
}

/**
 * The current period (core's `resolveDateRange`) and, when comparing, the
 * previous one (reference §9), each with its buckets. Throws ValidationError
 * for unreadable dates.
 */
export async function trendPeriods(input: PeriodsInput, context: PeriodsContext): Promise<Period[]> {
  const r = await resolveDateRange(
    { dateFrom: input.dateFrom, dateTo: input.dateTo, explicitDate: input.explicitDate, interval: input.interval },
    { timezone: context.timezone, weekStartDay: context.weekStartDay, now: context.now, earliestEvent: context.earliestEvent },
  )
  const make = (fromMicros: number, toMicros: number, dateFromMs: number, label: Period['compareLabel']) =>
    periodOf(input.interval, context.timezone, context.weekStartDay, fromMicros, toMicros, dateFromMs, label, context.bucketLimit)
  const current = make(r.fromMicros, r.toMicros, r.dateFrom.getTime(), input.compare ? 'current' : null)
  if (!input.compare) return [current]
  const previous = previousPeriodBounds(
    { fromMicros: r.fromMicros, toMicros: r.toMicros, interval: input.interval, dateFrom: input.dateFrom, dateTo: input.dateTo, compareTo: input.compareTo },
    context.timezone,
    context.weekStartDay,
  )
  return [current, make(previous.fromMicros, previous.toMicros, Math.floor(previous.fromMicros / 1000), 'previous')]
}

/** A period's buckets over `[fromMicros, toMicros]`. */
export function periodOf(
  interval: Interval,
  timeZone: string,
  weekStartDay: WeekStartDay,
  fromMicros: number,
  toMicros: number,
  dateFromMs: number,
  compareLabel: Period['compareLabel'],
  limit?: BucketLimit,
): Period {
  const from = new Date(Math.floor(fromMicros / 1000))
  const to = new Date(Math.floor(toMicros / 1000))
  const starts = bucketStarts({ from, to }, interval, timeZone, weekStartDay, limit).map((d) => d.getTime())
  const ends = starts.map((start, i) => starts[i + 1] ?? nextBucketStart(start, interval, timeZone, weekStartDay))
  return { interval, timeZone, weekStartDay, fromMicros, toMicros, dateFromMs, starts, ends, compareLabel }
}

// Longer than one bucket of each interval, daylight-saving changes included.
const SPAN: Record<Interval, number> = { minute: 3 * HOUR, hour: 3 * HOUR, day: 3 * DAY, week: 9 * DAY, month: 33 * DAY }

/** The start of the bucket after the one starting at `start`. */
export function nextBucketStart(start: number, interval: Interval, timeZone: string, weekStartDay: WeekStartDay): number {
  return bucketStarts({ from: new Date(start), to: new Date(start + SPAN[interval]) }, interval, timeZone, weekStartDay)[1]!.getTime()
}

/** The index of the bucket holding `ms`, or -1 before the first (bucket i is `[starts[i], starts[i + 1])`). */
export function bucketIndexOf(starts: ReadonlyArray<number>, ms: number): number {
  let lo = 0
  let hi = starts.length - 1
  let found = -1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (starts[mid]! <= ms) {
      found = mid
      lo = mid + 1
    } else hi = mid - 1
  }
  return found
}
