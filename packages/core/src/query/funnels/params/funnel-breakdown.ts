import { Schema } from 'effect'
import { decodeOrThrow } from '../../../util/decode.js'
import { decodeBreakdowns } from '../../breakdowns/breakdown-spec.js'
import type { FunnelAttribution, FunnelBreakdown, FunnelOrder } from '../funnel-request.js'
import { invalid } from './legacy-values.js'

/** DECISIONS.md: the interface document's 10, not PostHog's 25. */
export const DEFAULT_FUNNEL_BREAKDOWN_LIMIT = 10
const MAX_BREAKDOWN_LIMIT = 10_000
/** Properties of one multi-property breakdown (PostHog's UI offers three). */
const MAX_DIMENSIONS = 5
const ATTRIBUTIONS: ReadonlyArray<FunnelAttribution> = ['first_touch', 'last_touch', 'all_events', 'step']

const AttributionFields = Schema.Struct({
  breakdown_limit: Schema.optional(Schema.NullOr(Schema.Int)),
  breakdown_attribution_type: Schema.optional(Schema.NullOr(Schema.String)),
  breakdown_attribution_value: Schema.optional(Schema.NullOr(Schema.Union([Schema.Int, Schema.String]))),
})

type AttributionFieldsInput = typeof AttributionFields.Encoded

/** How a funnel's breakdown picks a person's value. */
export interface FunnelAttributionParams extends AttributionFieldsInput {
  /** Default `first_touch`; `step` reads `breakdown_attribution_value` (a 0-based step index, default 0). */
  readonly breakdown_attribution_type?: FunnelAttribution | null
}

/**
 * The funnel's breakdown: `breakdown` + `breakdown_type` (event by default,
 * `events` read as event), or the `breakdowns` list, which funnels take with
 * exactly one element. Values are lists for event, person and hogql
 * breakdowns and for list-valued `breakdown`s; group and session values of a
 * string `breakdown`, and cohort values, are scalars. `breakdown_limit` (default 10), `breakdown_attribution_type`
 * (default first_touch) and, for `step`, `breakdown_attribution_value` (a
 * step index; unordered funnels take only 0). Null without a breakdown.
 * Throws ValidationError naming the field.
 */
export function decodeFunnelBreakdown(params: Record<string, unknown>, stepCount: number, order: FunnelOrder): FunnelBreakdown | null {
  const list = params.breakdowns
  const viaBreakdowns = Array.isArray(list) && list.length > 0
  if (viaBreakdowns && list.length > 1) throw invalid(['breakdowns'], 'funnels take one breakdown in breakdowns; use a list-valued breakdown for several properties')
  const dims = decodeBreakdowns(params, MAX_DIMENSIONS)
  if (dims.length === 0) return null
  const p = decodeOrThrow(AttributionFields, params, 'invalid funnel parameters')

  const limit = p.breakdown_limit ?? DEFAULT_FUNNEL_BREAKDOWN_LIMIT
  if (limit < 1 || limit > MAX_BREAKDOWN_LIMIT) throw invalid(['breakdown_limit'], `breakdown_limit is between 1 and ${MAX_BREAKDOWN_LIMIT}`)

  const attribution = (p.breakdown_attribution_type ?? 'first_touch') as FunnelAttribution
  if (!ATTRIBUTIONS.includes(attribution)) throw invalid(['breakdown_attribution_type'], `use one of ${ATTRIBUTIONS.join(', ')}`)
  let attributionStep = 0
  if (attribution === 'step') {
    const raw = p.breakdown_attribution_value ?? 0
    const step = typeof raw === 'number' ? raw : /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN
    if (!Number.isInteger(step) || step < 0 || step >= stepCount) {
      throw invalid(['breakdown_attribution_value'], `the attribution step is a step index between 0 and ${stepCount - 1}`)
    }
    if (order === 'unordered' && step !== 0) {
      throw invalid(['breakdown_attribution_value'], 'Only the first step can be used for breakdown attribution in unordered funnels')
    }
    attributionStep = step
  }

  const type = dims[0]!.type
  // FunnelQueryContext boxes a string breakdown into a list for event, person and hogql types only.
  const listValued = Array.isArray(params.breakdown) || viaBreakdowns
  const boxed = type === 'cohort' ? false : type === 'event' || type === 'person' || type === 'hogql' ? true : listValued
  return { dims, boxed, viaBreakdowns, limit, attribution, attributionStep }
}
