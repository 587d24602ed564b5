import { floorTo, DAY, HOUR, MINUTE } from '../query/dates/civil.js'
import type { BucketLimit } from '../query/dates/buckets.js'
import type { Interval, WeekStartDay } from '../query/dates/interval.js'
import { resolveDateRange, type DateRangeInput } from '../query/dates/resolve-date-range.js'
import { startOfWall, toWall } from '../query/dates/wall-clock.js'
import { trendPeriods, type PeriodsInput } from '../query/dates/periods.js'
import { parseTimestamp } from '../time/timestamp.js'

/** The date settings of one analysis, as its request decoder read them (`compare`: trends and stickiness read the previous period too). */
export type RangeInput = PeriodsInput

export interface RangeContext {
  readonly timezone: string
  readonly weekStartDay: WeekStartDay
  /** The project's earliest event, read only for `date_from: "all"`. */
  readonly earliestEvent: () => Promise<Date | null>
  /** The most buckets a period may have (`QueryLimits.maxBucketsPerSeries`). */
  readonly bucketLimit: BucketLimit
}

/** The instants an analysis reads: its current period, and all its periods together. */
export interface ResolvedRanges {
  /** The current period (PostHog's `date_from()` and `date_to()`), epoch ms. */
  readonly currentFromMs: number
  readonly currentToMs: number
  /** From the earliest period's start to the latest period's end, epoch microseconds. */
  readonly fromMicros: number
  readonly toMicros: number
}

/** The ranges the analysis resolves at `now`: the same periods `requestPeriods` computes. */
export async function resolveRanges(input: RangeInput, context: RangeContext, now: Date): Promise<ResolvedRanges> {
  const periods = await trendPeriods(input, { ...context, now })
  const current = periods[0]!
  return {
    currentFromMs: Math.floor(current.fromMicros / 1000),
    currentToMs: Math.floor(current.toMicros / 1000),
    fromMicros: Math.min(...periods.map((p) => p.fromMicros)),
    toMicros: Math.max(...periods.map((p) => p.toMicros)),
  }
}

/** The first instant after `nowMs` whose local wall clock (in `timeZone`) starts a new `unit`. */
export function nextBoundaryMs(timeZone: string, nowMs: number, unit: number): number {
  let wall = floorTo(toWall(timeZone, nowMs), unit) + unit
  for (;;) {
    const instant = startOfWall(timeZone, wall)
    if (instant > nowMs) return instant
    wall += unit
  }
}

/**
 * The first instant after `now` at which the range would resolve differently,
 * or null when it never will (absolute dates on both ends). Ranges only move
 * at local minute, hour and day boundaries (weeks, months and years start
 * at midnights), so the next minute and hour are tried, then midnights
 * for up to a year; a range that slides with
 * the clock itself (explicit ranges ending now, minute intervals) changes at
 * the next minute. The earliest event of `date_from: "all"` is held fixed:
 * new events invalidate such entries instead.
 */
export async function nextRangeChangeMs(input: RangeInput, context: RangeContext, now: Date): Promise<number | null> {
  const earliest = await context.earliestEvent()
  const range: DateRangeInput = { dateFrom: input.dateFrom, dateTo: input.dateTo, explicitDate: input.explicitDate, interval: input.interval }
  const at = async (ms: number) => {
    const r = await resolveDateRange(range, { timezone: context.timezone, weekStartDay: context.weekStartDay, now: new Date(ms), earliestEvent: async () => earliest })
    return `${r.fromMicros}/${r.toMicros}/${r.dateFrom.getTime()}`
  }
  if (isAbsoluteDate(input.dateFrom) && isAbsoluteDate(input.dateTo)) return null
  return nextResolutionChangeMs(context.timezone, now, at)
}

/** An absolute date (or `all`): it resolves the same whatever the clock says. */
export const isAbsoluteDate = (text: string | null): boolean => text !== null && (text === 'all' || parseTimestamp(text) !== null)

/**
 * The first local minute, hour or midnight (for up to a year) after `now` at
 * which `at` answers differently than at `now`, or null. `at` describes what
 * an analysis resolves at an instant (its range, its periods) as text.
 */
export async function nextResolutionChangeMs(timeZone: string, now: Date, at: (ms: number) => Promise<string>): Promise<number | null> {
  const base = await at(now.getTime())
  for (const unit of [MINUTE, HOUR]) {
    const boundary = nextBoundaryMs(timeZone, now.getTime(), unit)
    if ((await at(boundary)) !== base) return boundary
  }
  // Day-truncated ranges move at the next midnight; week, month and year starts at a later one.
  let midnight = now.getTime()
  for (let day = 0; day < MAX_DAYS; day++) {
    midnight = nextBoundaryMs(timeZone, midnight, DAY)
    if ((await at(midnight)) !== base) return midnight
  }
  return null
}

/** Longer than any relative period's step (a year, a leap day included). */
const MAX_DAYS = 367
