/**
 * An in-memory retention evaluator written from the reference document
 * (shared/reference/trends-retention-paths.md §13) and PostHog's
 * retention_query_runner.py, independent of Sightline's SQL: events are
 * grouped per actor and breakdown value, exactly as the runner's inner
 * query groups them, and each group's start and return periods are read
 * off its events one by one.
 *
 * It assumes valid input (the validation cases live in test/retention);
 * people URLs are not computed here.
 */
import { bucketOfMs, bucketStarts, DAY, floorTo, HOUR, instantOf, type Interval, toWall, type WeekStartDay } from '../shared/ref-time.js'
import { resolveDateRange } from '../shared/ref-dates.js'
import type { RefDataset } from '../shared/ref-dataset.js'
import { seriesRows } from '../trends/trend-filters.js'
import { isoInZone } from '../trends/trend-labels.js'
import type { SeriesSpec, TrendQuery } from '../trends/trend-query.js'
import { earliestEvent, readRows, type Row } from '../trends/trend-rows.js'

export const OTHER = '$$_posthog_breakdown_other_$$'

export interface RefRetentionRow {
  values: Array<{ count: number; label: string }>
  label: string
  date: string
  breakdown_value?: string
}

interface Entity {
  readonly type: 'events' | 'actions'
  readonly id: string | number | null
  readonly properties: unknown
}

const decoded = (v: unknown): unknown => (typeof v === 'string' && /^\s*[[{]/.test(v) ? JSON.parse(v) : v)
const entityOf = (v: unknown): Entity => {
  const d = (decoded(v) ?? { id: '$pageview', type: 'events' }) as Record<string, unknown>
  return { type: d.type === 'actions' ? 'actions' : 'events', id: (d.id ?? null) as string | number | null, properties: d.properties ?? [] }
}
const int = (v: unknown, fallback: number): number => (v === undefined || v === null || v === '' ? fallback : Number(v))
const flag = (v: unknown): boolean => v === true || v === 'true'

/** Python's str ordering: by code point. */
const pyCompare = (a: string, b: string): number => {
  const x = Array.from(a, (c) => c.codePointAt(0)!)
  const y = Array.from(b, (c) => c.codePointAt(0)!)
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!
  return x.length - y.length
}

/** Adds `n` local calendar units to a wall-clock time (Python's relativedelta on an aware datetime). */
function addWall(wall: number, period: Interval, n: number): number {
  if (period === 'day') return wall + n * DAY
  if (period === 'week') return wall + 7 * n * DAY
  const d = new Date(wall)
  const months = d.getUTCFullYear() * 12 + d.getUTCMonth() + n
  const y = Math.floor(months / 12)
  const m = months - y * 12
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate()
  return Date.UTC(y, m, Math.min(d.getUTCDate(), last), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds())
}

/** PostHog's date_to_start_of_interval on a wall-clock time. */
function startOfWall(wall: number, period: Interval, weekStartDay: WeekStartDay): number {
  const day = floorTo(wall, DAY)
  if (period === 'hour') return floorTo(wall, HOUR)
  if (period === 'day') return day
  if (period === 'week') {
    const dow = new Date(day).getUTCDay() // 0 = Sunday
    return day - ((dow - weekStartDay + 7) % 7) * DAY
  }
  const d = new Date(day)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)
}

/**
 * The window (§13.2): end = start of the period after date_to's; start =
 * end - total_intervals periods (wall-clock calendar arithmetic as Python's;
 * hours are clock hours, as Sightline's hour buckets), or date_from's
 * period. Period starts are the project's local buckets.
 */
async function windowOf(params: Record<string, unknown>, data: RefDataset, rows: ReadonlyArray<Row>) {
  const period = String(params.period ?? 'Day').toLowerCase() as Interval
  const total = int(params.total_intervals, 11)
  const tz = data.project.timezone
  const wsd = data.project.weekStartDay
  const dateFrom = typeof params.date_from === 'string' && params.date_from !== '' ? params.date_from : null
  const dateTo = typeof params.date_to === 'string' && params.date_to !== '' ? params.date_to : null
  const r = await resolveDateRange(
    { dateFrom, dateTo, interval: period },
    { timezone: tz, weekStartDay: wsd, now: data.now, earliestEvent: async () => earliestEvent(rows) },
  )
  const toMs = Math.floor(r.toMicros / 1000)
  let end: number
  let start: number
  if (period === 'hour') {
    // Clock hours: the hour holding date_to begins at its local :00 (Asia/Kolkata's are at :30 UTC).
    end = instantOf(tz, { wall: floorTo(toWall(tz, toMs), HOUR), micros: 0, fold: 0 }) / 1000 + HOUR
    start = dateFrom === null ? end - total * HOUR : bucketOfMs(r.dateFrom.getTime(), 'hour', tz, wsd)
  } else {
    const endWall = startOfWall(addWall(toWall(tz, toMs), period, 1), period, wsd)
    end = instantOf(tz, { wall: endWall, micros: 0, fold: 0 }) / 1000
    start =
      dateFrom === null
        ? instantOf(tz, { wall: startOfWall(addWall(endWall, period, -total), period, wsd), micros: 0, fold: 0 }) / 1000
        : bucketOfMs(r.dateFrom.getTime(), period, tz, wsd)
  }
  const starts = start < end ? bucketStarts({ from: new Date(start), to: new Date(end - 1) }, period, tz, wsd).map((d) => d.getTime()) : []
  return { period, total, starts, end, tz }
}

const bucketIndex = (starts: ReadonlyArray<number>, ms: number): number => {
  let found = -1
  for (let i = 0; i < starts.length && starts[i]! <= ms; i++) found = i
  return found
}

/** The retention result rows for `params` over `data`. */
export async function referenceRetention(params: Record<string, unknown>, data: RefDataset): Promise<RefRetentionRow[]> {
  const rows = readRows(data)
  const w = await windowOf(params, data, rows)
  const n = w.starts.length
  const type = String(params.retention_type ?? 'retention_recurring')
  const cumulative = flag(params.cumulative)
  const minimum = int(params.minimum_occurrences, 1)
  const groupIndex = params.aggregation_group_type_index === undefined || params.aggregation_group_type_index === null ? null : Number(params.aggregation_group_type_index)
  const query = { properties: decoded(params.properties) ?? [], filterTestAccounts: flag(params.filter_test_accounts) } as unknown as TrendQuery
  const target = entityOf(params.target_entity)
  const returning = entityOf(params.returning_entity)
  const spec = (e: Entity, withProperties = true) => ({ type: e.type, id: e.id, properties: withProperties ? e.properties : [] }) as unknown as SeriesSpec
  const matching = (e: Entity, withProperties = true) => new Set(seriesRows(rows, spec(e, withProperties), query, data))
  const isStart = matching(target)
  const isStartAny = matching(target, false)
  const isReturn = matching(returning)

  const breakdown = params.breakdown === undefined || params.breakdown === null || params.breakdown === '' ? null : decoded(params.breakdown)
  const breakdownType = String(params.breakdown_type ?? 'event')
  const textOf = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v))
  // Each event's (actor, value) groups: one per listed cohort of its person for cohort breakdowns.
  const groupsOf = (r: Row): Array<[string, string]> => {
    const actor = groupIndex === null ? r.personId : (r.event.groups?.[groupIndex as 0] ?? '')
    if (actor === '') return []
    if (breakdown === null) return [[actor, '']]
    if (breakdownType === 'cohort') {
      return ([] as unknown[]).concat(breakdown).flatMap((c) => (c === 'all' || data.cohortMembers?.[Number(c)]?.has(r.personId) ? [[actor, c === 'all' ? '0' : String(c)] as [string, string]] : []))
    }
    const key = String(breakdown)
    if (breakdownType === 'person') return [[actor, textOf(r.personProperties[key])]]
    if (breakdownType === 'group') {
      const g = Number(params.breakdown_group_type_index)
      const gk = r.event.groups?.[g as 0]
      return [[actor, textOf(gk === undefined ? undefined : data.groups?.[g]?.[gk]?.[key])]]
    }
    return [[actor, textOf(r.event.properties[key])]]
  }

  interface Group {
    starts: Set<number>
    returns: Map<number, number>
    first: number
    firstAny: number
  }
  const groups = new Map<string, Group>()
  const lo = w.starts[0] ?? 0
  for (const r of rows) {
    if (!isStartAny.has(r) && !isReturn.has(r)) continue
    for (const [actor, value] of groupsOf(r)) {
      const id = JSON.stringify([actor, value])
      let g = groups.get(id)
      if (!g) groups.set(id, (g = { starts: new Set(), returns: new Map(), first: Infinity, firstAny: Infinity }))
      if (isStart.has(r)) g.first = Math.min(g.first, r.micros)
      if (isStartAny.has(r)) g.firstAny = Math.min(g.firstAny, r.micros)
      if (r.ms < lo || r.ms >= w.end) continue
      const b = bucketIndex(w.starts, r.ms)
      if (isStart.has(r)) g.starts.add(b)
      if (isReturn.has(r)) g.returns.set(b, (g.returns.get(b) ?? 0) + 1)
    }
  }

  const counts = new Map<string, number[][]>()
  const grid = () => Array.from({ length: n }, () => new Array<number>(w.total).fill(0))
  for (const [id, g] of groups) {
    const value = (JSON.parse(id) as [string, string])[1]
    let cohorts: number[]
    if (type === 'retention_recurring') cohorts = [...g.starts]
    else {
      const f = g.first
      const ok = f !== Infinity && f / 1000 >= lo && f / 1000 < w.end && (type === 'retention_first_time' || f === g.firstAny)
      cohorts = ok ? [bucketIndex(w.starts, Math.floor(f / 1000))] : []
    }
    for (const i of cohorts) {
      const ks = [0]
      for (let k = 1; k < w.total && i + k < n; k++) if ((g.returns.get(i + k) ?? 0) >= minimum) ks.push(k)
      const shown = cumulative ? Array.from({ length: Math.max(...ks) + 1 }, (_, k) => k) : ks
      if (!counts.has(value)) counts.set(value, grid())
      for (const k of shown) counts.get(value)![i]![k]! += 1
    }
  }

  const name = w.period[0]!.toUpperCase() + w.period.slice(1)
  const block = (cells: number[][], value: string | null): RefRetentionRow[] =>
    cells.map((row, i) => ({
      values: row.map((count, k) => ({ count, label: `${name} ${k}` })),
      label: `${name} ${i}`,
      date: isoInZone(w.tz, w.starts[i]! * 1000),
      ...(value === null ? {} : { breakdown_value: value }),
    }))
  if (breakdown === null) return block(counts.get('') ?? grid(), null)

  const limit = int(params.breakdown_limit, 25)
  const total = (cells: number[][]) => cells.reduce((s, row) => s + row[0]!, 0)
  const ranked = [...counts].sort((a, b) => total(b[1]) - total(a[1]) || pyCompare(a[0], b[0]))
  const out = ranked.slice(0, limit).flatMap(([v, cells]) => block(cells, v))
  const rest = ranked.slice(limit)
  if (rest.length > 0) {
    const merged = grid()
    for (const [, cells] of rest) cells.forEach((row, i) => row.forEach((c, k) => (merged[i]![k]! += c)))
    out.push(...block(merged, OTHER))
  }
  return out
}
