import { invalid, isRecord, jsonish, notModelled, optionalInt, truthy } from './funnel-param-values.js'
import type { Attribution, BreakdownSpec, OrderType } from './funnel-spec.js'

/** Sightline's funnel default (DECISIONS.md: the interface document says 10; PostHog uses 25). */
export const DEFAULT_FUNNEL_BREAKDOWN_LIMIT = 10

const ATTRIBUTIONS: ReadonlyArray<Attribution> = ['first_touch', 'last_touch', 'all_events', 'step']

/**
 * `breakdown` (+ `breakdown_type`, default event, `events` read as event) or
 * the multi-property `breakdowns` list, which funnels accept with exactly one
 * element. Event and person breakdowns are boxed into lists, as
 * FunnelQueryContext does; group breakdowns only when `breakdown` is a list;
 * cohort values are ids. hogql and session breakdowns are not modelled.
 */
export function readBreakdown(params: Record<string, unknown>, stepCount: number, order: OrderType): BreakdownSpec | null {
  const multi = jsonish(params.breakdowns, 'breakdowns')
  let type: unknown = params.breakdown_type ?? 'event'
  let breakdown = jsonish(params.breakdown, 'breakdown')
  let groupTypeIndex: unknown = params.breakdown_group_type_index
  if (Array.isArray(multi) && multi.length > 0) {
    if (multi.length > 1) throw invalid('breakdowns', 'Funnels accept one breakdown in breakdowns')
    const only = multi[0]
    if (!isRecord(only) || typeof only.property !== 'string') throw invalid('breakdowns', 'expected [{property, type}]')
    type = only.type ?? type
    breakdown = [only.property]
    groupTypeIndex = only.group_type_index ?? groupTypeIndex
  }
  if (breakdown === undefined || breakdown === null || breakdown === '' || (Array.isArray(breakdown) && breakdown.length === 0)) return null
  if (type === 'events') type = 'event'
  if (type === 'hogql' || type === 'session' || type === 'data_warehouse' || type === 'data_warehouse_person_property') {
    throw notModelled(`breakdown_type ${type}`)
  }
  if (type !== 'event' && type !== 'person' && type !== 'group' && type !== 'cohort') {
    throw invalid('breakdown_type', `unknown breakdown type ${JSON.stringify(type)}; use event, person, group or cohort`)
  }
  if (truthy(params.breakdown_normalize_url)) throw notModelled('breakdown_normalize_url')

  const limit = optionalInt(params.breakdown_limit, 'breakdown_limit') ?? DEFAULT_FUNNEL_BREAKDOWN_LIMIT
  if (limit < 1) throw invalid('breakdown_limit', 'must be at least 1')
  const attribution = (params.breakdown_attribution_type ?? 'first_touch') as Attribution
  if (!ATTRIBUTIONS.includes(attribution)) throw invalid('breakdown_attribution_type', `use one of ${ATTRIBUTIONS.join(', ')}`)
  let attributionStep = 0
  if (attribution === 'step') {
    attributionStep = optionalInt(params.breakdown_attribution_value, 'breakdown_attribution_value') ?? 0
    if (attributionStep < 0 || attributionStep >= stepCount) throw invalid('breakdown_attribution_value', `must be a step between 0 and ${stepCount - 1}`)
    if (order === 'unordered' && attributionStep !== 0) {
      throw invalid('breakdown_attribution_value', 'Only the first step can be used for breakdown attribution in unordered funnels')
    }
  }

  const base = { limit, attribution, attributionStep }
  if (type === 'cohort') {
    const ids = (Array.isArray(breakdown) ? breakdown : [breakdown]).map((c, i) =>
      c === 'all' ? ('all' as const) : (optionalInt(c, `breakdown__${i}`) as number),
    )
    return { ...base, type, properties: [], boxed: false, groupTypeIndex: null, cohorts: ids }
  }
  const properties = (Array.isArray(breakdown) ? breakdown : [breakdown]).map((p) => String(p))
  let gti: number | null = null
  if (type === 'group') {
    gti = optionalInt(groupTypeIndex, 'breakdown_group_type_index') ?? null
    if (gti === null || gti < 0 || gti > 4) throw invalid('breakdown_group_type_index', 'a group breakdown needs a group type index 0..4')
  }
  const boxed = type !== 'group' || Array.isArray(breakdown)
  return { ...base, type, properties, boxed, groupTypeIndex: gti, cohorts: [] }
}
