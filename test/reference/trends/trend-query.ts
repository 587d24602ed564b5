/**
 * A legacy trend request (the JSON a client POSTs to /insights/trend/) read
 * the way PostHog's `filter_to_query` reads it (reference §1): series sorted,
 * keys defaulted, typos fixed. Plain data; nothing here looks at events.
 */
import { type Interval, isInterval } from '../shared/ref-time.js'

export type Insight = 'TRENDS' | 'STICKINESS' | 'LIFECYCLE'

export interface SeriesSpec {
  /** The position after sorting: the formula letter and `action.order`. */
  readonly index: number
  readonly type: 'events' | 'actions'
  /** The event name (null = all events) or the action id. */
  readonly id: string | number | null
  /** `label`: the event name, "All events", or the action's name as the request gives it. */
  readonly name: string
  readonly customName: string | null
  readonly properties: unknown
  readonly math: string
  readonly mathProperty: string | null
  readonly mathGroupTypeIndex: number | null
}

export interface BreakdownSpec {
  readonly property: unknown
  readonly type: 'event' | 'person' | 'group' | 'cohort'
  readonly normalizeUrl: boolean
  readonly histogramBinCount: number | null
  readonly groupTypeIndex: number | null
}

export interface TrendQuery {
  readonly insight: Insight
  readonly series: ReadonlyArray<SeriesSpec>
  readonly properties: unknown
  readonly filterTestAccounts: boolean
  readonly interval: Interval
  readonly dateFrom: string | null
  readonly dateTo: string | null
  readonly explicitDate: boolean
  readonly display: string
  readonly formula: string | null
  readonly compare: boolean
  readonly compareTo: string | null
  /** Empty without a breakdown; one entry for `breakdown`, up to three for `breakdowns`. */
  readonly breakdowns: ReadonlyArray<BreakdownSpec>
  readonly multiBreakdown: boolean
  readonly breakdownLimit: number
  readonly hideOther: boolean
  /** `smoothing_intervals` of a TRENDS time series; 1 (none) elsewhere, as PostHog reads it only there. */
  readonly smoothingIntervals: number
}

export const TIME_SERIES_DISPLAYS = ['ActionsLineGraph', 'ActionsLineGraphCumulative', 'ActionsBar', 'ActionsAreaGraph', 'ActionsStackedBar']
export const TOTAL_VALUE_DISPLAYS = ['ActionsPie', 'ActionsTable', 'ActionsBarValue', 'WorldMap', 'BoldNumber']
const STICKINESS_MATHS = ['dau', 'weekly_active', 'monthly_active', 'unique_group', 'hogql']

/** GET requests carry lists and objects as JSON text; POST bodies carry them as JSON. */
const decoded = (v: unknown): unknown => (typeof v === 'string' && /^\s*[[{]/.test(v) ? JSON.parse(v) : v)
const list = (v: unknown): Array<Record<string, unknown>> => {
  const d = decoded(v)
  return Array.isArray(d) ? (d as Array<Record<string, unknown>>) : []
}
const flag = (v: unknown): boolean => v === true || v === 'true'
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null)
const integer = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v
  return typeof n === 'number' && Number.isInteger(n) ? n : null
}

export function readTrendQuery(params: Record<string, unknown>): TrendQuery {
  const insight: Insight =
    params.shown_as === 'Stickiness' || params.insight === 'STICKINESS' ? 'STICKINESS' : params.insight === 'LIFECYCLE' ? 'LIFECYCLE' : 'TRENDS'
  const interval = params.interval ?? 'day'
  if (!isInterval(interval)) throw new Error(`reference: unknown interval ${JSON.stringify(interval)}`)
  const display = typeof params.display === 'string' && [...TIME_SERIES_DISPLAYS, ...TOTAL_VALUE_DISPLAYS].includes(params.display) ? params.display : 'ActionsLineGraph'
  const { breakdowns, multi } = insight === 'TRENDS' ? readBreakdowns(params, display) : { breakdowns: [], multi: false }
  return {
    insight,
    series: readSeries(params, insight),
    properties: decoded(params.properties) ?? [],
    filterTestAccounts: flag(params.filter_test_accounts),
    interval,
    dateFrom: text(params.date_from),
    dateTo: text(params.date_to),
    explicitDate: flag(params.explicit_date),
    display,
    formula: insight === 'TRENDS' ? text(params.formula) : null,
    compare: insight !== 'LIFECYCLE' && flag(params.compare),
    compareTo: text(params.compare_to),
    breakdowns,
    multiBreakdown: multi,
    breakdownLimit: integer(params.breakdown_limit) ?? (display === 'WorldMap' ? 250 : 25),
    hideOther: flag(params.breakdown_hide_other_aggregation),
    smoothingIntervals: insight === 'TRENDS' && !TOTAL_VALUE_DISPLAYS.includes(display) ? Math.max(1, integer(params.smoothing_intervals) ?? 1) : 1,
  }
}

function readSeries(params: Record<string, unknown>, insight: Insight): SeriesSpec[] {
  const entities: Array<Record<string, unknown> & { type: 'actions' | 'events' }> = [
    ...list(params.actions).filter((a) => a.id !== null && a.id !== undefined).map((a) => ({ ...a, type: 'actions' as const })),
    ...list(params.events).map((e) => ({ ...e, type: 'events' as const })),
  ]
  // Stable sort; order 0 or missing counts as -1 (filter_to_query).
  const rank = (e: Record<string, unknown>) => (typeof e.order === 'number' && e.order !== 0 ? e.order : -1)
  const sorted = entities.map((e, i) => [e, i] as const).sort(([a, i], [b, j]) => rank(a) - rank(b) || i - j).map(([e]) => e)
  return sorted.map((e, index) => {
    const id = e.type === 'actions' ? (integer(e.id) ?? (e.id as string)) : typeof e.id === 'string' ? e.id : null
    let math = typeof e.math === 'string' && e.math !== '' ? e.math : 'total'
    if (insight === 'STICKINESS' && !STICKINESS_MATHS.includes(math)) math = 'dau'
    if (math === 'hogql') throw new Error('reference: math "hogql" is out of scope')
    const name = e.type === 'actions' ? (text(e.name) ?? String(id)) : String(id ?? 'All events')
    return {
      index,
      type: e.type,
      id,
      name,
      customName: text(e.custom_name),
      properties: decoded(e.properties) ?? [],
      math,
      mathProperty: text(e.math_property),
      mathGroupTypeIndex: integer(e.math_group_type_index),
    }
  })
}

function readBreakdowns(params: Record<string, unknown>, display: string): { breakdowns: BreakdownSpec[]; multi: boolean } {
  // The reference's reading of a world map: countries, whatever breakdown the request names.
  if (display === 'WorldMap') return { breakdowns: [spec({ property: '$geoip_country_code', type: 'event' })], multi: false }
  const several = list(params.breakdowns)
  if (several.length > 0) return { breakdowns: several.slice(0, 3).map((b) => spec(b)), multi: true }
  const breakdown = decoded(params.breakdown)
  if (breakdown === null || breakdown === undefined || breakdown === '') return { breakdowns: [], multi: false }
  const single = spec({
    property: breakdown,
    type: params.breakdown_type,
    normalize_url: params.breakdown_normalize_url,
    histogram_bin_count: params.breakdown_histogram_bin_count,
    group_type_index: params.breakdown_group_type_index,
  })
  return { breakdowns: [single], multi: false }
}

function spec(b: Record<string, unknown>): BreakdownSpec {
  const raw = b.type === undefined || b.type === null || b.type === 'events' ? 'event' : b.type
  if (raw !== 'event' && raw !== 'person' && raw !== 'group' && raw !== 'cohort') throw new Error(`reference: breakdown_type ${JSON.stringify(raw)} is out of scope`)
  if (raw === 'group' && integer(b.group_type_index) === null) throw new Error('reference: a group breakdown needs breakdown_group_type_index')
  return {
    property: raw === 'cohort' ? b.property : String(b.property),
    type: raw,
    normalizeUrl: flag(b.normalize_url),
    histogramBinCount: integer(b.histogram_bin_count),
    groupTypeIndex: integer(b.group_type_index),
  }
}
