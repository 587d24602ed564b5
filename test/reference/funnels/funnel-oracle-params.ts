/**
 * The legacy funnel filter JSON read into a plain spec (funnels.md §1, §13,
 * DECISIONS.md). Throws FunnelReferenceError with PostHog's message where
 * PostHog answers 400, and for what the reference does not model.
 */
import { type Interval } from '../shared/ref-time.js'
import type { FunnelRefDataset } from './funnel-oracle-dataset.js'

export class FunnelReferenceError extends Error {
  override readonly name = 'FunnelReferenceError'
}

export type OrderType = 'ordered' | 'strict' | 'unordered'
export type VizType = 'steps' | 'trends' | 'time_to_convert'
export type Attribution = 'first_touch' | 'last_touch' | 'all_events' | 'step'

export interface EntitySpec {
  readonly kind: 'events' | 'actions'
  /** Event name, action id, or null for "All events". */
  readonly id: string | number | null
  readonly customName: string | null
  /** The request's `name`, shown for an action only when the dataset has no name for it. */
  readonly name: string | null
  readonly properties: unknown
}

export interface ExclusionSpec extends EntitySpec {
  readonly from: number
  readonly to: number
}

export interface BreakdownSpec {
  readonly type: 'event' | 'person' | 'group' | 'cohort'
  /** Property names (event, person, group). */
  readonly keys: ReadonlyArray<string>
  /** Values are lists (event and person breakdowns, funnels.md §9.1). */
  readonly boxed: boolean
  readonly groupTypeIndex: number | null
  /** Cohort ids, or 'all' for every person. */
  readonly cohorts: ReadonlyArray<number | 'all'>
  readonly limit: number
  readonly attribution: Attribution
  /** The step index for `step` attribution. */
  readonly attributionStep: number | null
}

export interface FunnelSpec {
  readonly steps: ReadonlyArray<EntitySpec>
  readonly exclusions: ReadonlyArray<ExclusionSpec>
  readonly windowMicros: number
  readonly order: OrderType
  readonly viz: VizType
  readonly properties: unknown
  readonly filterTestAccounts: boolean
  readonly breakdown: BreakdownSpec | null
  /** null = persons. */
  readonly aggregationGroup: number | null
  /** The event property whose values are the targets (`funnel_aggregate_by_hogql`); null: persons. A group type wins over it. */
  readonly aggregateBy: string | null
  readonly fromStep: number
  readonly toStep: number
  readonly binCount: number | null
  readonly interval: Interval
  readonly dateFrom: string | null
  readonly dateTo: string | null
  readonly explicitDate: boolean
}

// posthog/utils.py DATERANGE_MAP: a month is 31 days, absolute time.
const UNIT_SECONDS: Readonly<Record<string, number>> = {
  second: 1, minute: 60, hour: 3600, day: 86_400, week: 7 * 86_400, month: 31 * 86_400,
}
// DECISIONS.md: the interface document's default for funnels.
const DEFAULT_BREAKDOWN_LIMIT = 10

const fail = (message: string): never => {
  throw new FunnelReferenceError(message)
}

/** GET query strings carry JSON as text. */
const json = (value: unknown): unknown => {
  if (typeof value !== 'string') return value
  const t = value.trim()
  return t.startsWith('[') || t.startsWith('{') ? JSON.parse(t) : value
}

const intOf = (value: unknown, field: string): number | null => {
  if (value === undefined || value === null || value === '') return null
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : NaN
  return Number.isInteger(n) ? n : fail(`${field} must be an integer`)
}

const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null)

type Entity = EntitySpec & { readonly order: number; readonly raw: Record<string, unknown> }

function entities(raw: unknown, kind: 'events' | 'actions'): Entity[] {
  const list = json(raw)
  if (list === undefined || list === null) return []
  if (!Array.isArray(list)) return fail(`${kind} must be a list`)
  return list.flatMap((item: Record<string, unknown>) => {
    // filter_to_query drops action entries without an id.
    if (kind === 'actions' && (item.id === null || item.id === undefined)) return []
    if (item.math === 'first_time_for_user') fail('reference: math first_time_for_user is not modelled')
    const id = kind === 'actions' ? (intOf(item.id, 'action id') as number) : item.id === null || item.id === undefined ? null : String(item.id)
    // funnels.md §1.1: `order` 0 or missing sorts as -1.
    const order = Number(item.order) || -1
    return [{ kind, id, customName: textOrNull(item.custom_name), name: textOrNull(item.name), properties: json(item.properties), order, raw: item }]
  })
}

function windowMicros(params: Record<string, unknown>): number {
  const interval = intOf(params.funnel_window_interval, 'funnel_window_interval')
  // DECISIONS.md: the deprecated day count only when funnel_window_interval is absent.
  const days = interval === null ? intOf(params.funnel_window_days, 'funnel_window_days') : null
  if (days !== null) return days * UNIT_SECONDS.day! * 1e6
  // DECISIONS.md: both names, any case; the interface document's name wins.
  const unitRaw = params.funnel_window_interval_type ?? params.funnel_window_interval_unit ?? 'day'
  const unit = typeof unitRaw === 'string' ? UNIT_SECONDS[unitRaw.toLowerCase()] : undefined
  if (unit === undefined) return fail(`funnel_window_interval_type: unknown unit ${JSON.stringify(unitRaw)}`)
  // funnels.md 1.3: the interval and the unit default separately (14, day), so a unit alone means 14 of it.
  return (interval ?? 14) * unit * 1e6
}

function breakdownSpec(params: Record<string, unknown>, stepCount: number, order: OrderType): BreakdownSpec | null {
  const multi = json(params.breakdowns)
  let raw = json(params.breakdown)
  let type = params.breakdown_type as string | undefined | null
  let groupTypeIndex = intOf(params.breakdown_group_type_index, 'breakdown_group_type_index')
  if (Array.isArray(multi) && multi.length > 0) {
    if (multi.length > 1) fail('breakdowns: funnels take exactly one breakdown')
    const one = multi[0] as Record<string, unknown>
    raw = [one.property]
    type = (one.type as string | undefined) ?? type
    groupTypeIndex = intOf(one.group_type_index, 'group_type_index') ?? groupTypeIndex
  }
  if (raw === undefined || raw === null || raw === '' || (Array.isArray(raw) && raw.length === 0)) return null
  type = type === undefined || type === null || type === 'events' ? 'event' : type
  if (type === 'hogql' || type === 'session' || type === 'data_warehouse') fail(`reference: breakdown_type ${type} is not modelled`)
  if (type !== 'event' && type !== 'person' && type !== 'group' && type !== 'cohort') return fail(`breakdown_type: unknown ${JSON.stringify(type)}`)
  const attribution = (params.breakdown_attribution_type ?? 'first_touch') as Attribution
  if (!['first_touch', 'last_touch', 'all_events', 'step'].includes(attribution)) fail(`breakdown_attribution_type: unknown ${JSON.stringify(attribution)}`)
  let attributionStep: number | null = null
  if (attribution === 'step') {
    attributionStep = intOf(params.breakdown_attribution_value, 'breakdown_attribution_value') ?? 0
    if (attributionStep < 0 || attributionStep >= stepCount) fail('breakdown_attribution_value is out of bounds')
    if (order === 'unordered' && attributionStep !== 0) fail('Only the first step can be used for breakdown attribution in unordered funnels')
  }
  const limit = intOf(params.breakdown_limit, 'breakdown_limit') ?? DEFAULT_BREAKDOWN_LIMIT
  const base = { type, limit, attribution, attributionStep, groupTypeIndex: null, cohorts: [], keys: [], boxed: false } as const
  if (type === 'cohort') {
    const ids = (Array.isArray(raw) ? raw : [raw]).map((v) => (v === 'all' ? 'all' : (intOf(v, 'breakdown') as number)))
    return { ...base, cohorts: ids }
  }
  const keys = (Array.isArray(raw) ? raw : [raw]).map(String)
  if (type === 'group') {
    if (groupTypeIndex === null) fail('breakdown_group_type_index is required for group breakdowns')
    if (keys.length !== 1) fail('reference: group breakdowns take one property')
    return { ...base, keys, groupTypeIndex }
  }
  return { ...base, keys, boxed: true }
}

function exclusionSpecs(raw: unknown, steps: ReadonlyArray<EntitySpec>, order: OrderType): ExclusionSpec[] {
  const n = steps.length
  return entities(raw, 'events').map(({ raw: item }) => {
    const kind = item.type === 'actions' ? 'actions' : 'events'
    const id = kind === 'actions' ? (intOf(item.id, 'action id') as number) : item.id === null || item.id === undefined ? null : String(item.id)
    const from = intOf(item.funnel_from_step, 'funnel_from_step') ?? 0
    const to = intOf(item.funnel_to_step, 'funnel_to_step') ?? n - 1
    // funnel_validation_rules.py ValidateFunnelExclusions.
    if (from >= to) fail('Exclusion event range is invalid. End of range should be greater than start.')
    if (from >= n - 1) fail('Exclusion event range is invalid. Start of range is greater than number of steps.')
    if (to > n - 1) fail('Exclusion event range is invalid. End of range is greater than number of steps.')
    for (const step of steps.slice(from, to + 1)) {
      const sameOrBroader = step.kind === kind && (step.id === id || (kind === 'events' && id === null))
      if (sameOrBroader) fail("Exclusion steps cannot contain an event that's part of funnel steps.")
    }
    if (order === 'unordered' && (from !== 0 || to !== n - 1)) fail('Partial Exclusions not allowed in unordered funnels')
    // funnels.md §1.2: the legacy endpoint drops exclusion properties.
    return { kind, id, customName: null, name: null, properties: undefined, from, to }
  })
}

/** Reads and validates the request; `data` is read only to check action ids. */
export function readFunnelParams(params: Record<string, unknown>, data: FunnelRefDataset): FunnelSpec {
  const sorted = [...entities(params.actions, 'actions'), ...entities(params.events, 'events')]
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.order - b.e.order || a.i - b.i)
    .map(({ e }) => e)
  const steps: EntitySpec[] = sorted.map(({ kind, id, customName, name, properties }) => ({ kind, id, customName, name, properties }))
  if (steps.length < 2) fail('Funnels require at least two steps.')
  for (const s of steps) {
    if (s.kind === 'actions' && data.actions && !(Number(s.id) in data.actions)) fail(`Action ID ${s.id} does not exist!`)
  }
  const order = (params.funnel_order_type ?? 'ordered') as OrderType
  if (!['ordered', 'strict', 'unordered'].includes(order)) fail(`funnel_order_type: unknown ${JSON.stringify(order)}`)
  const vizRaw = params.funnel_viz_type ?? (params.display === 'ActionsLineGraph' ? 'trends' : 'steps')
  if (!['steps', 'trends', 'time_to_convert'].includes(vizRaw as string)) fail(`funnel_viz_type: unknown ${JSON.stringify(vizRaw)}`)
  const viz = vizRaw as VizType
  const n = steps.length
  let fromStep = intOf(params.funnel_from_step, 'funnel_from_step') ?? 0
  const toRaw = intOf(params.funnel_to_step, 'funnel_to_step')
  // funnel_time_to_convert_udf.py reads `funnelToStep or N-1`, so 0 means the last step there.
  let toStep = viz === 'time_to_convert' ? toRaw || n - 1 : toRaw ?? n - 1
  if (viz === 'trends') {
    if (fromStep < 0 || fromStep > n - 1) fail('funnelFromStep is out of bounds. It must be between 0 and the number of steps minus one.')
    if (toStep < 0 || toStep > n - 1) fail('funnelToStep is out of bounds. It must be between 0 and the number of steps minus one.')
    if (toStep <= fromStep) fail('Funnel step range is invalid. funnelToStep should be greater than funnelFromStep.')
  }
  if (viz === 'time_to_convert') {
    if (!(toStep > 0 && toStep < n)) fail(`Filter parameter funnel_to_step can only be one of ${Array.from({ length: n - 1 }, (_, i) => i + 1).join(', ')} for time to convert!`)
    if (fromStep < 0 || fromStep >= toStep) fail('Funnel step range is invalid. funnelToStep should be greater than funnelFromStep.')
  }
  if (viz === 'steps') {
    // The steps view ignores funnel_from_step / funnel_to_step.
    fromStep = 0
    toStep = n - 1
  }
  const intervalRaw = (params.interval ?? 'day') as string
  // funnels.md §1.4: a minute interval is read as hour.
  const interval = (intervalRaw === 'minute' ? 'hour' : intervalRaw) as Interval
  const bin = intOf(params.bin_count, 'bin_count')
  return {
    steps,
    exclusions: exclusionSpecs(params.exclusions, steps, order),
    windowMicros: windowMicros(params),
    order,
    viz,
    properties: json(params.properties),
    filterTestAccounts: params.filter_test_accounts === true || params.filter_test_accounts === 'true',
    breakdown: breakdownSpec(params, n, order),
    aggregationGroup: intOf(params.aggregation_group_type_index, 'aggregation_group_type_index'),
    aggregateBy: aggregateByOf(params.funnel_aggregate_by_hogql),
    fromStep,
    toStep,
    binCount: bin === null ? null : Math.min(90, Math.max(1, bin)),
    interval,
    dateFrom: textOrNull(params.date_from),
    dateTo: textOrNull(params.date_to),
    explicitDate: params.explicit_date === true || params.explicit_date === 'true',
  }
}

/**
 * `funnel_aggregate_by_hogql` (PostHog's `_aggregation_target_expr`): nothing,
 * '' or `person_id` count persons (null here); `properties.<key>` and
 * `properties['<key>']` count the values of that event property. Any other
 * expression is beyond this reference.
 */
function aggregateByOf(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null
  if (typeof raw !== 'string') return fail('funnel_aggregate_by_hogql must be text')
  const expression = raw.trim()
  if (expression === '' || expression === 'person_id') return null
  const dotted = /^properties\.([A-Za-z_$][\w$]*)$/.exec(expression)
  const bracketed = /^properties\['([^'\\]*)'\]$/.exec(expression)
  const key = dotted?.[1] ?? bracketed?.[1]
  return key ?? fail(`reference: funnel_aggregate_by_hogql ${JSON.stringify(expression)} is not modelled`)
}
