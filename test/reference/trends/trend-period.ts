/**
 * The time side of a trend: the current range (ref-dates.ts), the
 * previous one for `compare` (reference §9), and the buckets of each.
 */
import { bucketOfMs, bucketStarts, DAY, floorTo, HOUR, instantOf, type Interval, toWall, type WeekStartDay, zonedFromInstant } from '../shared/ref-time.js'
import { applyRelativeDate, parseRelativeDate } from '../shared/ref-dates.js'
import { resolveDateRange } from '../shared/ref-dates.js'
import type { RefDataset } from '../shared/ref-dataset.js'
import type { TrendQuery } from './trend-query.js'

export interface Period {
  readonly interval: Interval
  readonly timeZone: string
  readonly weekStartDay: WeekStartDay
  /** Events count when fromMicros <= timestamp <= toMicros. */
  readonly fromMicros: number
  readonly toMicros: number
  /** PostHog's date_from before rounding: week labels are clipped to it. */
  readonly dateFromMs: number
  /** Bucket i is [starts[i], ends[i]) in ms. */
  readonly starts: ReadonlyArray<number>
  readonly ends: ReadonlyArray<number>
  readonly compareLabel: 'current' | 'previous' | null
}

export interface PeriodContext {
  readonly timeZone: string
  readonly weekStartDay: WeekStartDay
  readonly now: Date
  readonly earliest: Date | null
}

export const contextOf = (data: RefDataset, earliest: Date | null): PeriodContext => ({
  timeZone: data.project.timezone,
  weekStartDay: data.project.weekStartDay,
  now: data.now,
  earliest,
})

/** The current period, and the previous one when the query compares. */
export async function periodsOf(query: TrendQuery, ctx: PeriodContext, exact: boolean): Promise<Period[]> {
  const r = await resolveDateRange(
    { dateFrom: query.dateFrom, dateTo: query.dateTo, explicitDate: query.explicitDate || exact, interval: query.interval },
    { timezone: ctx.timeZone, weekStartDay: ctx.weekStartDay, now: ctx.now, earliestEvent: async () => ctx.earliest },
  )
  const current = period(query.interval, ctx, r.fromMicros, r.toMicros, r.dateFrom.getTime(), query.compare ? 'current' : null)
  if (!query.compare) return [current]
  const [from, to] = previousBounds(query, ctx, r.fromMicros, r.toMicros)
  return [current, period(query.interval, ctx, from, to, Math.floor(from / 1000), 'previous')]
}

function period(interval: Interval, ctx: PeriodContext, fromMicros: number, toMicros: number, dateFromMs: number, compareLabel: Period['compareLabel']): Period {
  const from = new Date(Math.floor(fromMicros / 1000))
  const to = new Date(Math.floor(toMicros / 1000))
  const starts = bucketStarts({ from, to }, interval, ctx.timeZone, ctx.weekStartDay).map((d) => d.getTime())
  const ends = starts.map((_, i) => starts[i + 1] ?? nextBucketStart(starts[i]!, interval, ctx.timeZone, ctx.weekStartDay))
  return { interval, timeZone: ctx.timeZone, weekStartDay: ctx.weekStartDay, fromMicros, toMicros, dateFromMs, starts, ends, compareLabel }
}

// Longer than one bucket of each interval, daylight-saving changes included.
const SPAN: Record<Interval, number> = { minute: 3 * HOUR, hour: 3 * HOUR, day: 3 * DAY, week: 9 * DAY, month: 33 * DAY }

export function nextBucketStart(start: number, interval: Interval, timeZone: string, weekStartDay: WeekStartDay): number {
  return bucketStarts({ from: new Date(start), to: new Date(start + SPAN[interval]) }, interval, timeZone, weekStartDay)[1]!.getTime()
}

export const previousBucketStart = (start: number, interval: Interval, timeZone: string, weekStartDay: WeekStartDay): number =>
  bucketOfMs(start - 1, interval, timeZone, weekStartDay)

/** Index of the bucket holding `ms`, or -1 before the first. */
export function bucketIndex(starts: ReadonlyArray<number>, ms: number): number {
  let lo = 0
  let hi = starts.length - 1
  let found = -1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (starts[mid]! <= ms) [found, lo] = [mid, mid + 1]
    else hi = mid - 1
  }
  return found
}

/**
 * §9: wall-clock arithmetic as Python's aware datetimes do it. D = T - F;
 * F' = F - D on F's time of day (+1 day for the -Nd kludge); T' = F' + D on
 * T's time of day. `compare_to` instead moves F by that relative date.
 */
function previousBounds(query: TrendQuery, ctx: PeriodContext, fromMicros: number, toMicros: number): [number, number] {
  const tz = ctx.timeZone
  const wallMicros = (micros: number) => toWall(tz, Math.floor(micros / 1000)) * 1000 + (micros % 1000)
  const F = wallMicros(fromMicros)
  const T = wallMicros(toMicros)
  const D = T - F
  const dayMicros = DAY * 1000
  const timeOfDay = (w: number) => w - floorTo(w, dayMicros)
  let from: number
  let to: number
  if (query.compareTo) {
    const rel = parseRelativeDate(query.compareTo)
    if (!rel) throw new Error(`reference: unreadable compare_to ${JSON.stringify(query.compareTo)}`)
    const moved = applyRelativeDate(rel, zonedFromInstant(tz, Math.floor(fromMicros / 1000), fromMicros % 1000), ctx.weekStartDay, false)!
    from = moved.wall * 1000 + moved.micros
    to = from + D
  } else {
    from = floorTo(F - D, dayMicros) + timeOfDay(F)
    const rel = query.dateFrom === null ? null : parseRelativeDate(query.dateFrom)
    const toRelative = query.dateTo !== null && parseRelativeDate(query.dateTo) !== null
    if (query.interval === 'day' && rel?.unit === 'd' && rel.amount !== null && rel.amount > 0 && rel.amount % 7 === 0 && !toRelative) from += dayMicros
    to = floorTo(from + D, dayMicros) + timeOfDay(T)
  }
  const instant = (wall: number) => instantOf(tz, { wall: Math.floor(wall / 1000), micros: ((wall % 1000) + 1000) % 1000, fold: 0 })
  return [instant(from), instant(to)]
}
