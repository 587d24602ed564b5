/**
 * The funnel trends response (funnels.md §10.3, §10.5; funnel_trends.py
 * `_format_summarized_results` and utils `format_label_date`): one summary
 * per breakdown value, a conversion rate for every period of the range.
 */
import type { RefDateRange as ResolvedDateRange } from '../shared/ref-dates.js'
import { toWall } from '../shared/ref-time.js'
import type { RunValue } from './funnel-oracle-attribution.js'
import type { FunnelRefDataset } from './funnel-oracle-dataset.js'
import type { FunnelSpec } from './funnel-oracle-params.js'
import { round2 } from './funnel-oracle-stats.js'
import type { PeriodOutcomes } from './funnel-oracle-trend-attempts.js'
import { compareValues } from './funnel-oracle-value-order.js'

export interface TrendGroup {
  readonly value: RunValue
  /** One entry per target run. */
  readonly outcomes: ReadonlyArray<PeriodOutcomes>
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const DAY_MS = 86_400_000
const pad = (n: number) => String(n).padStart(2, '0')

/** strftime on a wall time (UTC fields = local fields). */
const ymd = (w: Date) => `${w.getUTCFullYear()}-${pad(w.getUTCMonth() + 1)}-${pad(w.getUTCDate())}`
const dMonY = (w: Date) => `${w.getUTCDate()}-${MONTHS[w.getUTCMonth()]}-${w.getUTCFullYear()}`
const dMon = (w: Date) => `${w.getUTCDate()}-${MONTHS[w.getUTCMonth()]}`

function weekLabel(start: Date, range: ResolvedDateRange, timeZone: string): string {
  const floorDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS
  const from = floorDay(toWall(timeZone, range.dateFrom.getTime()))
  const to = floorDay(toWall(timeZone, range.to.getTime()))
  const s = new Date(Math.max(floorDay(start.getTime()), from))
  const e = new Date(Math.max(Math.min(floorDay(start.getTime()) + 6 * DAY_MS, to), s.getTime()))
  if (s.getTime() === e.getTime()) return dMonY(s)
  if (s.getUTCFullYear() !== e.getUTCFullYear()) return `${dMonY(s)} – ${dMonY(e)}`
  if (s.getUTCMonth() !== e.getUTCMonth()) return `${dMon(s)} – ${dMon(e)}`
  return `${s.getUTCDate()}–${e.getUTCDate()} ${MONTHS[e.getUTCMonth()]}`
}

function summary(spec: FunnelSpec, group: TrendGroup | undefined, starts: ReadonlyArray<Date>, range: ResolvedDateRange, timeZone: string) {
  const data: number[] = []
  const days: string[] = []
  const labels: string[] = []
  for (const start of starts) {
    const outcomes = (group?.outcomes ?? []).map((o) => o.get(start.getTime())).filter((o) => o !== undefined)
    const entered = outcomes.length
    const converted = outcomes.filter(Boolean).length
    data.push(entered > 0 ? round2((converted / entered) * 100) : 0)
    const wall = new Date(toWall(timeZone, start.getTime()))
    const time = `${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}`
    days.push(spec.interval === 'hour' ? `${ymd(wall)} ${time}:${pad(wall.getUTCSeconds())}` : ymd(wall))
    labels.push(
      spec.interval === 'week'
        ? weekLabel(wall, range, timeZone)
        : spec.interval === 'month'
          ? `${MONTHS[wall.getUTCMonth()]} ${wall.getUTCFullYear()}`
          : spec.interval === 'hour' || spec.interval === 'minute'
            ? `${dMon(wall)} ${time}`
            : dMonY(wall),
    )
  }
  return { count: starts.length, data, days, labels }
}

/** `starts` are the period starts of the whole range (empty ones included). */
export function trendsResult(
  spec: FunnelSpec,
  data: FunnelRefDataset,
  groups: ReadonlyArray<TrendGroup>,
  starts: ReadonlyArray<Date>,
  range: ResolvedDateRange,
): unknown {
  const timeZone = data.project.timezone
  const b = spec.breakdown
  if (!b) return [summary(spec, groups[0], starts, range, timeZone)]
  const entrants = (g: TrendGroup) => g.outcomes.reduce((n, o) => n + o.size, 0)
  // The query keeps the values with the most entrants (ties: value descending), no "Other" (§10.5).
  const kept = groups
    .filter((g) => entrants(g) > 0)
    .sort((x, y) => entrants(y) - entrants(x) || compareValues(y.value, x.value))
    .slice(0, b.limit)
  const shown = (v: RunValue) => (b.type !== 'cohort' ? v : v === 'all' ? 'all users' : data.cohortNames?.[v as number] ?? String(v))
  return kept
    .map((g) => ({ ...summary(spec, g, starts, range, timeZone), breakdown_value: shown(g.value) }))
    .sort((x, y) => compareValues(x.breakdown_value, y.breakdown_value))
}
