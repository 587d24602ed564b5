import { bucketStarts } from '../dates/buckets.js'
import { DAY } from '../dates/civil.js'
import { startOfWall, toWall } from '../dates/wall-clock.js'
import type { ActiveWindow } from './active-users-sql.js'
import { activeWindowDays, isFirstSeenCumulative, type MathName } from './maths.js'
import { bucketIndexOf, type Period } from '../dates/periods.js'
import type { TrendRequest, TrendSeries } from './trend-request.js'

/** An inclusive range of event timestamps, in epoch microseconds. */
export interface Range {
  readonly fromMicros: number
  readonly toMicros: number
}

/**
 * How one series is computed over one period, as plain data (compiled by
 * series-values.ts). `range` is what the scope reads; `math` is the math the
 * SQL applies (WAU on a total-value display is distinct persons over its window).
 */
export type SeriesPlan =
  /** One value per bucket (or one over the range when `buckets` is null). */
  | { readonly kind: 'per-bucket'; readonly math: MathName; readonly range: Range; readonly buckets: BucketGrid | null }
  /** Cumulative actors: new actors per bucket, accumulated afterwards. */
  | { readonly kind: 'first-seen'; readonly range: Range; readonly buckets: BucketGrid }
  /** `first_time_for_user`: the scope reads all time, the range selects the first events counted. */
  | { readonly kind: 'first-time'; readonly range: Range; readonly buckets: BucketGrid | null }
  /** Day-aligned active-users windows: day indexes over `days`, window of bucket i ends on day `lastDay[i]`. */
  | { readonly kind: 'active-days'; readonly windowDays: number; readonly range: Range; readonly days: BucketGrid; readonly lastDay: ReadonlyArray<number> }
  /** Active-users windows that are not whole days (hour and minute buckets). */
  | { readonly kind: 'active-windows'; readonly range: Range; readonly windows: ReadonlyArray<ActiveWindow> }

/** Bucket starts (ms) and where the last one ends: what bucketIndexSql needs. */
export interface BucketGrid {
  readonly starts: ReadonlyArray<number>
  readonly end: number
}

/** The buckets of a period as a grid. */
export const periodGrid = (period: Period): BucketGrid => ({ starts: period.starts, end: period.ends[period.ends.length - 1] ?? period.toMicros / 1000 + 1 })

/** The first instant (ms) of the N local days that end where `endMs` is (reference §5: the window "ending with the bucket"). */
const windowStart = (period: Period, endMs: number, days: number) => startOfWall(period.timeZone, toWall(period.timeZone, endMs) - days * DAY)

/**
 * Chooses the computation of a series over a period (reference §5, §6):
 * total-value displays take one value over the range, and active-users maths
 * there count distinct persons in the N days ending at `date_to`; in a time
 * series, `weekly_active` becomes `dau` for week and month buckets and
 * `monthly_active` for month buckets, and otherwise each bucket counts the
 * persons of the N days ending where it ends, reading events from before
 * `date_from` for the first buckets.
 */
export function planSeries(request: TrendRequest, series: TrendSeries, period: Period): SeriesPlan {
  const range: Range = { fromMicros: period.fromMicros, toMicros: period.toMicros }
  const days = activeWindowDays(series.math)
  if (request.totalValue) {
    if (series.math === 'first_time_for_user') return { kind: 'first-time', range, buckets: null }
    if (days !== null) {
      const toMs = Math.floor(period.toMicros / 1000)
      // Strictly after date_to - N days: the N days ending at date_to.
      const lower = windowStart(period, toMs, days) * 1000 + (period.toMicros - toMs * 1000) + 1
      return { kind: 'per-bucket', math: 'dau', range: { fromMicros: lower, toMicros: period.toMicros }, buckets: null }
    }
    return { kind: 'per-bucket', math: series.math, range, buckets: null }
  }
  const grid = periodGrid(period)
  if (series.math === 'first_time_for_user') return { kind: 'first-time', range, buckets: grid }
  const windowed = days !== null && !(period.interval === 'month' || (days === 7 && period.interval === 'week'))
  if (days !== null && !windowed) return planPerBucket(request, 'dau', range, grid)
  if (days !== null && period.starts.length > 0) {
    const lookback = windowStart(period, period.ends[0]!, days)
    const wideRange: Range = { fromMicros: Math.min(range.fromMicros, lookback * 1000), toMicros: range.toMicros }
    if (period.interval === 'day' || period.interval === 'week') {
      const lastEnd = period.ends[period.ends.length - 1]!
      const dayStarts = bucketStarts({ from: new Date(lookback), to: new Date(lastEnd - 1) }, 'day', period.timeZone, period.weekStartDay).map((d) => d.getTime())
      const lastDay = period.ends.map((end) => bucketIndexOf(dayStarts, end - 1))
      return { kind: 'active-days', windowDays: days, range: wideRange, days: { starts: dayStarts, end: lastEnd }, lastDay }
    }
    const windows = period.ends.map((end, index) => ({ index, loMicros: windowStart(period, end, days) * 1000, hiMicros: end * 1000 }))
    return { kind: 'active-windows', range: wideRange, windows }
  }
  return planPerBucket(request, series.math, range, grid)
}

function planPerBucket(request: TrendRequest, math: MathName, range: Range, grid: BucketGrid): SeriesPlan {
  if (request.display === 'ActionsLineGraphCumulative' && isFirstSeenCumulative(math)) return { kind: 'first-seen', range, buckets: grid }
  return { kind: 'per-bucket', math, range, buckets: grid }
}

/** Whether the Other row of a plan is the sum of the folded rows' values (so needs no query of its own). */
export function isAdditive(plan: SeriesPlan): boolean {
  if (plan.kind === 'first-time') return true
  return plan.kind === 'per-bucket' && (plan.math === 'total' || plan.math === 'sum')
}
