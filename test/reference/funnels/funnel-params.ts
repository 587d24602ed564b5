import { type Interval, isInterval } from '../shared/ref-time.js'
import type { FunnelRefDataset } from './funnel-dataset.js'
import { readBreakdown } from './funnel-param-breakdown.js'
import { readExclusions, readSteps } from './funnel-param-entities.js'
import { invalid, jsonish, notModelled, optionalInt, optionalString, truthy } from './funnel-param-values.js'
import type { FunnelSpec, OrderType, VizType } from './funnel-spec.js'

/** posthog/utils.py DATERANGE_MAP: absolute seconds; a week is 7 days and a month 31. */
const UNIT_SECONDS: Readonly<Record<string, number>> = {
  second: 1,
  minute: 60,
  hour: 3600,
  day: 86_400,
  week: 7 * 86_400,
  month: 31 * 86_400,
}

const ORDERS: ReadonlyArray<OrderType> = ['ordered', 'strict', 'unordered']
const VIZ: ReadonlyArray<VizType> = ['steps', 'trends', 'time_to_convert']

/**
 * Reads a legacy funnel filter into a FunnelSpec, with PostHog's defaults and
 * DECISIONS.md's choices. Throws ValidationError naming the field for bad
 * input, and a plain Error for parameters the reference does not model
 * (hogql/session breakdowns, funnel_aggregate_by_hogql other than an event property, sampling, first-time math).
 */
export function readFunnelParams(params: Record<string, unknown>, data: FunnelRefDataset): FunnelSpec {
  const orderType = (params.funnel_order_type ?? 'ordered') as OrderType
  if (!ORDERS.includes(orderType)) throw invalid('funnel_order_type', `use one of ${ORDERS.join(', ')}`)
  const vizType = (params.funnel_viz_type ?? (params.display === 'ActionsLineGraph' ? 'trends' : 'steps')) as VizType
  if (!VIZ.includes(vizType)) throw invalid('funnel_viz_type', `use one of ${VIZ.join(', ')}`)

  const steps = readSteps(params, data)
  if (steps.length < 2) throw invalid('events', 'Funnels require at least two steps.')
  const n = steps.length

  if (params.sampling_factor !== undefined && params.sampling_factor !== null && Number(params.sampling_factor) !== 1) throw notModelled('sampling_factor')
  const aggregationGroup = optionalInt(params.aggregation_group_type_index, 'aggregation_group_type_index') ?? null
  if (aggregationGroup !== null && (aggregationGroup < 0 || aggregationGroup > 4)) {
    throw invalid('aggregation_group_type_index', 'a group type index is 0..4 (absent = persons)')
  }
  const aggregateByProperty = aggregationGroup === null ? readAggregateByProperty(params.funnel_aggregate_by_hogql) : null

  let interval = (params.interval ?? 'day') as Interval
  if (!isInterval(interval)) throw invalid('interval', 'use one of minute, hour, day, week, month')
  // PostHog's funnels turn minute intervals into hour ones.
  if (interval === 'minute') interval = 'hour'

  const { fromStep, toStep } = readStepRange(params, vizType, n)
  const bins = optionalInt(params.bin_count, 'bin_count')

  return {
    steps,
    exclusions: readExclusions(params, steps, orderType),
    orderType,
    vizType,
    windowMicros: readWindowSeconds(params) * 1_000_000,
    properties: jsonish(params.properties, 'properties') ?? null,
    filterTestAccounts: truthy(params.filter_test_accounts),
    aggregationGroup,
    aggregateByProperty,
    breakdown: readBreakdown(params, n, orderType),
    fromStep,
    toStep,
    binCount: bins === undefined ? null : Math.min(90, Math.max(1, bins)),
    interval,
    dateFrom: optionalString(params.date_from, 'date_from'),
    dateTo: optionalString(params.date_to, 'date_to'),
    explicitDate: truthy(params.explicit_date),
  }
}

/**
 * DECISIONS.md: `funnel_window_interval_type` (the interface document's name)
 * wins over PostHog's `funnel_window_interval_unit`, values in any case;
 * `funnel_window_days` counts only when `funnel_window_interval` is absent.
 * Interval and unit default apart (FunnelQueryContext): 14 and day, so a unit
 * alone means 14 of it. 0 is allowed (same-instant conversions only).
 */
function readWindowSeconds(params: Record<string, unknown>): number {
  const field = params.funnel_window_interval_type != null ? 'funnel_window_interval_type' : 'funnel_window_interval_unit'
  const rawUnit = params[field] ?? 'day'
  const unit = typeof rawUnit === 'string' ? UNIT_SECONDS[rawUnit.toLowerCase()] : undefined
  if (unit === undefined) throw invalid(field, `unknown window unit ${JSON.stringify(rawUnit)}; use SECOND, MINUTE, HOUR, DAY, WEEK or MONTH`)
  const count = optionalInt(params.funnel_window_interval, 'funnel_window_interval')
  if (count !== undefined) {
    if (count < 0) throw invalid('funnel_window_interval', 'must not be negative')
    return count * unit
  }
  const days = optionalInt(params.funnel_window_days, 'funnel_window_days')
  if (days !== undefined) {
    if (days < 0) throw invalid('funnel_window_days', 'must not be negative')
    return days * UNIT_SECONDS.day!
  }
  return 14 * unit
}

/** `funnel_from_step`/`funnel_to_step`: read by trends and time to convert only (the steps view ignores them). */
function readStepRange(params: Record<string, unknown>, viz: VizType, n: number): { fromStep: number; toStep: number } {
  if (viz === 'steps') return { fromStep: 0, toStep: n - 1 }
  const from = optionalInt(params.funnel_from_step, 'funnel_from_step') ?? 0
  let to = optionalInt(params.funnel_to_step, 'funnel_to_step') ?? n - 1
  // funnel_time_to_convert_udf.py reads `funnelToStep or last`: 0 means the last step there.
  if (viz === 'time_to_convert' && to === 0) to = n - 1
  if (viz === 'time_to_convert' && (to < 1 || to > n - 1)) {
    const allowed = Array.from({ length: n - 1 }, (_, i) => i + 1).join(', ')
    throw invalid('funnel_to_step', `Filter parameter funnel_to_step can only be one of ${allowed} for time to convert!`)
  }
  if (from < 0 || from > n - 1) throw invalid('funnel_from_step', `funnelFromStep is out of bounds. It must be between 0 and ${n - 1}.`)
  if (to < 0 || to > n - 1) throw invalid('funnel_to_step', `funnelToStep is out of bounds. It must be between 0 and ${n - 1}.`)
  if (to <= from) throw invalid('funnel_to_step', 'Funnel step range is invalid. funnelToStep should be greater than funnelFromStep.')
  return { fromStep: from, toStep: to }
}

/**
 * PostHog's `_aggregation_target_expr`: absent, '' and `person_id` are the
 * person; `properties.<key>` (or `properties['<key>']`) makes that event
 * property the target. Other expressions are not modelled.
 */
function readAggregateByProperty(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null
  if (typeof raw !== 'string') throw invalid('funnel_aggregate_by_hogql', 'a HogQL expression is text')
  const text = raw.trim()
  if (text === '' || text === 'person_id') return null
  const m = /^properties\.([A-Za-z_$][A-Za-z0-9_$]*)$/.exec(text) ?? /^properties\['([^'\\]*)'\]$/.exec(text)
  if (!m) throw notModelled('funnel_aggregate_by_hogql')
  return m[1]!
}

