/**
 * The value of one series over a set of events (reference §5): per bucket
 * for a time series, once over the range for a total-value display.
 */
import { DAY, startOfWall, toWall } from '../shared/ref-time.js'
import { bucketIndex, type Period } from './trend-period.js'
import type { SeriesSpec } from './trend-query.js'
import type { Row } from './trend-rows.js'

const QUANTILES: Record<string, number> = { median: 0.5, p75: 0.75, p90: 0.9, p95: 0.95, p99: 0.99 }
const PROPERTY_MATHS = ['sum', 'avg', 'min', 'max', 'median', 'p75', 'p90', 'p95', 'p99']
/** Maths counted as distinct actors (persons, groups or sessions). */
const ACTOR_MATHS = ['dau', 'weekly_active', 'monthly_active', 'unique_group', 'unique_session']
/**
 * Maths whose cumulative display counts each actor once, where it first
 * appears: exactly these two (trends_query_builder.py, `display ==
 * ACTIONS_LINE_GRAPH_CUMULATIVE and (math == "unique_group" or math ==
 * "dau")` groups by actor with `min(day_start)`); every other math is the
 * running sum of its per-bucket values (display.py `_get_cumulative_query`).
 * weekly_active and monthly_active count as dau where the runner has made
 * them dau (`convert_active_user_math_based_on_interval`: weekly for week and
 * month intervals, monthly for month), a running sum elsewhere.
 */
const FIRST_SEEN_MATHS = ['dau', 'unique_group']

/** `toFloat`: numbers, and strings that read as decimal numbers; anything else is ignored. */
export function numericValue(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null
  if (typeof v !== 'string' || !/^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/.test(v)) return null
  const n = Number(v)
  return Number.isFinite(n) ? n : null
}

/** Linear interpolation at position (n-1)q of the sorted values (§15.1). */
export function quantile(values: ReadonlyArray<number>, q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  const pos = (sorted.length - 1) * q
  const lo = Math.floor(pos)
  const hi = Math.ceil(pos)
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo)
}

/** max/min/avg/sum/quantile of a list; 0 for an empty list (an empty bucket shows 0). */
function summarise(kind: string, values: ReadonlyArray<number>): number {
  if (values.length === 0) return 0
  switch (kind) {
    case 'sum':
      return values.reduce((a, b) => a + b, 0)
    case 'avg':
      return values.reduce((a, b) => a + b, 0) / values.length
    case 'min':
      return Math.min(...values)
    case 'max':
      return Math.max(...values)
  }
  const q = QUANTILES[kind]
  if (q === undefined) throw new Error(`reference: unknown math ${kind}`)
  return quantile(values, q)
}

const nonEmpty = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : typeof v === 'string' ? v : JSON.stringify(v))

/** The actor a row counts for under an actor math (person, group or session); null = not counted. */
export function actorOf(series: SeriesSpec, row: Row): string | null {
  if (series.math === 'unique_group') {
    if (series.mathGroupTypeIndex === null) throw new Error('reference: unique_group needs math_group_type_index')
    return nonEmpty(row.event.groups?.[series.mathGroupTypeIndex as 0])
  }
  if (series.math === 'unique_session') return nonEmpty(row.event.properties.$session_id)
  return row.personId
}

export function aggregate(series: SeriesSpec, rows: ReadonlyArray<Row>): number {
  const math = series.math
  if (math === 'total' || math === 'first_time_for_user') return rows.length
  if (ACTOR_MATHS.includes(math)) {
    const actors = new Set<string>()
    for (const r of rows) {
      const a = actorOf(series, r)
      if (a !== null) actors.add(a)
    }
    return actors.size
  }
  if (PROPERTY_MATHS.includes(math)) {
    if (series.mathProperty === null) throw new Error(`reference: math ${math} needs math_property`)
    const values = rows.map((r) => numericValue(r.event.properties[series.mathProperty!])).filter((v): v is number => v !== null)
    return summarise(math, values)
  }
  if (math.endsWith('_count_per_actor')) {
    const counts = new Map<string, number>()
    for (const r of rows) counts.set(r.personId, (counts.get(r.personId) ?? 0) + 1)
    return summarise(math.slice(0, -'_count_per_actor'.length), [...counts.values()])
  }
  throw new Error(`reference: unknown math ${JSON.stringify(math)}`)
}

/** Days of the active-users window for a time series, or null when the math is per bucket (§5). */
function windowDays(math: string, interval: Period['interval']): number | null {
  if (math === 'weekly_active' && interval !== 'week' && interval !== 'month') return 7
  if (math === 'monthly_active' && interval !== 'month') return 30
  return null
}
const totalWindowDays = (math: string) => (math === 'weekly_active' ? 7 : math === 'monthly_active' ? 30 : null)

/** The first instant (ms) of the N days that end where bucket i ends. */
const windowStart = (p: Period, i: number, days: number) => startOfWall(p.timeZone, toWall(p.timeZone, p.ends[i]!) - days * DAY)

/**
 * The rows a period reads: those in range, plus the look-back of an
 * active-users window. Breakdown values are taken from these rows.
 */
export function consideredRows(series: SeriesSpec, rows: ReadonlyArray<Row>, p: Period, totalValue: boolean): Row[] {
  let lower = p.fromMicros
  if (totalValue) {
    const days = totalWindowDays(series.math)
    if (days !== null) {
      const toMs = Math.floor(p.toMicros / 1000)
      // The N days ending at date_to: strictly after date_to - N days.
      lower = startOfWall(p.timeZone, toWall(p.timeZone, toMs) - days * DAY) * 1000 + (p.toMicros - toMs * 1000) + 1
    }
  } else {
    const days = windowDays(series.math, p.interval)
    if (days !== null && p.starts.length > 0) lower = Math.min(lower, windowStart(p, 0, days) * 1000)
  }
  return rows.filter((r) => r.micros >= lower && r.micros <= p.toMicros)
}

export const totalValueOf = (series: SeriesSpec, rows: ReadonlyArray<Row>): number => aggregate(series, rows)

/** One value per bucket, from the considered rows. */
export function timeSeriesOf(series: SeriesSpec, rows: ReadonlyArray<Row>, p: Period, cumulative: boolean): number[] {
  const inRange = rows.filter((r) => r.micros >= p.fromMicros)
  const days = windowDays(series.math, p.interval)
  const asDau = days === null && (series.math === 'weekly_active' || series.math === 'monthly_active')
  if (cumulative && (FIRST_SEEN_MATHS.includes(series.math) || asDau)) {
    // Each actor once, in the first bucket where it appears; then carried forward.
    const first = new Map<string, number>()
    for (const r of inRange) {
      const a = actorOf(series, r)
      const i = bucketIndex(p.starts, r.ms)
      if (a !== null && i < (first.get(a) ?? Infinity)) first.set(a, i)
    }
    const added = p.starts.map(() => 0)
    for (const i of first.values()) added[i]!++
    return runningSum(added)
  }
  let values: number[]
  if (days !== null) {
    values = p.starts.map((_, i) => {
      const lo = windowStart(p, i, days) * 1000
      const hi = p.ends[i]! * 1000
      return aggregate(series, rows.filter((r) => r.micros >= lo && r.micros < hi))
    })
  } else {
    const byBucket: Row[][] = p.starts.map(() => [])
    for (const r of inRange) byBucket[bucketIndex(p.starts, r.ms)]!.push(r)
    values = byBucket.map((b) => aggregate(series, b))
  }
  return cumulative ? runningSum(values) : values
}

function runningSum(values: ReadonlyArray<number>): number[] {
  let acc = 0
  return values.map((v) => (acc += v))
}

/** first_time_for_user: each person's earliest matching event (ties: the smaller uuid), over all time. */
export function firstTimeRows(rows: ReadonlyArray<Row>): Row[] {
  const first = new Map<string, Row>()
  for (const r of rows) {
    const best = first.get(r.personId)
    if (!best || r.micros < best.micros || (r.micros === best.micros && r.event.uuid < best.event.uuid)) first.set(r.personId, r)
  }
  return [...first.values()]
}
