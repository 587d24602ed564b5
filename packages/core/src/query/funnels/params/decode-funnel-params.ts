import { decodeOrThrow } from '../../../util/decode.js'
import { INTERVALS, isInterval, type Interval } from '../../dates/interval.js'
import { PropertyFilters } from '../../filters/property-filters.js'
import { refuseOptionalSteps, refuseUnreadParameters } from '../../analysis/unread-parameters.js'
import { decodeSeries, normalizeProperties } from '../../series/series.js'
import type { FunnelActorsRequest, FunnelOrder, FunnelRequest, FunnelViz } from '../funnel-request.js'
import { decodeFunnelBreakdown } from './funnel-breakdown.js'
import { decodeExclusions } from './funnel-exclusions.js'
import { stepRange } from './funnel-step-range.js'
import { windowMicros, type FunnelWindowUnit } from './funnel-window.js'
import { blank, invalid, readLegacyParams } from './legacy-values.js'
import { FunnelFields, type FunnelFieldsInput } from './funnel-fields.js'
import { ActorStepFields, decodeActorSteps } from './actor-steps.js'
import type { QueryControlParams } from '../../analysis/analysis-params.js'
import type { Display } from '../../analysis/displays.js'
import type { BreakdownParams } from '../../breakdowns/breakdown-spec.js'
import type { PropertiesParam, SeriesParams } from '../../series/series.js'
import type { FunnelBreakdownValue } from '../shape/breakdown-values.js'
import type { FunnelAttributionParams } from './funnel-breakdown.js'
import type { FunnelExclusionsParam } from './funnel-exclusions.js'

/** Steps a funnel may have: each is one bit of a 64-bit mask in the compiled SQL. */
export const MAX_FUNNEL_STEPS = 30

const ORDERS: ReadonlyArray<FunnelOrder> = ['ordered', 'strict', 'unordered']
const VIZ: ReadonlyArray<FunnelViz> = ['steps', 'trends', 'time_to_convert']


/**
 * The parameters of `sightline.query.funnel`: PostHog's legacy funnel filter
 * (what `POST /insights/funnel/` takes). Steps are `events` and `actions`
 * (at least two, at most 30). Defaults: ordered steps view, a 14-day window,
 * every person, no breakdown, the last 7 days (`date_from` `-7d`).
 */
export interface FunnelParams extends FunnelFieldsInput, SeriesParams, BreakdownParams, FunnelAttributionParams, QueryControlParams {
  /** Default `ordered`. */
  readonly funnel_order_type?: FunnelOrder | null
  /** Default `steps` (`trends` when absent and `display` is `ActionsLineGraph`). */
  readonly funnel_viz_type?: FunnelViz | null
  /** Read only without `funnel_viz_type`: PostHog's old `ActionsLineGraph` asks for the trends view. */
  readonly display?: Display | 'FunnelViz' | null
  /** The window's unit, in any case; default `day`. */
  readonly funnel_window_interval_unit?: FunnelWindowUnit | Uppercase<FunnelWindowUnit> | null
  /** The interface document's name for the unit; wins over `funnel_window_interval_unit`. */
  readonly funnel_window_interval_type?: FunnelWindowUnit | Uppercase<FunnelWindowUnit> | null
  /** Trends periods; default `day` (`minute` is read as `hour`). */
  readonly interval?: Interval | null
  readonly exclusions?: FunnelExclusionsParam
  readonly properties?: PropertiesParam
  /** Above 0, at most 1; read, not applied: the answer is exact and says so (`sampling_factor_applied: false`). */
  readonly sampling_factor?: number | null
  /** Aggregate by this HogQL expression (its text; rows where it is null or '' take no part) instead of the person; `person_id` is the person, a group type wins. */
  readonly funnel_aggregate_by_hogql?: string | null
  /** `FUNNELS` with an `event` or `person` `breakdown_type` unboxes breakdown values for PostHog's old clients. */
  readonly insight?: 'FUNNELS' | null
}

type FunnelStepFields = typeof ActorStepFields.Encoded

interface FunnelPersonsBase extends FunnelParams {
  /** With a breakdown: the value as the step objects show it (`breakdown_value`); default every value. */
  readonly funnel_step_breakdown?: FunnelBreakdownValue | null
}

/**
 * The parameters of `sightline.query.funnelPersons`: the funnel's, plus which
 * steps (a step's `converted_people_url` / `dropped_people_url` carry
 * `funnel_step`) and which breakdown value.
 */
export type FunnelPersonsParams =
  | (FunnelPersonsBase & {
      /** n lists who reached 1-based step n or further; -n who dropped off before it (n >= 2). */
      readonly funnel_step: NonNullable<FunnelStepFields['funnel_step']>
      readonly funnel_custom_steps?: FunnelStepFields['funnel_custom_steps'] | string
    })
  | (FunnelPersonsBase & {
      /** The trends view's people (PostHog's funnel trends actors). */
      readonly funnel_viz_type: 'trends'
      /** The period, as the trends view's `days` shows it (`2024-03-05`, hourly `2024-03-05 13:00:00`), in the project's zone. */
      readonly entrance_period_start: string
      /** true: those who entered then and did not convert; false: those who did. Its text too (`str_to_bool`). */
      readonly drop_off: boolean | string
    })
  | (FunnelPersonsBase & {
      /** Not read when `funnel_custom_steps` is not empty. */
      readonly funnel_step?: FunnelStepFields['funnel_step']
      /** Those whose furthest 1-based step is one of these (JSON text of the list is read too); wins over `funnel_step`. */
      readonly funnel_custom_steps: readonly [number, ...number[]] | string
    })

/**
 * Reads a legacy request to `/insights/funnel/` (JSON body or GET query
 * text): steps from `events` and `actions` (PostHog's order), window,
 * order and visualisation types, exclusions, breakdown, aggregation, step
 * range, bins, interval and dates, with PostHog's defaults and the choices of
 * DECISIONS.md. Throws ValidationError naming the field (400): fewer than two
 * steps, an unknown window unit, order or visualisation type, a step range or
 * exclusion range out of bounds, a breakdown type without a breakdown, and
 * what Sightline does not compute.
 * Step maths other than the first-time ones are dropped, as PostHog's
 * legacy translation drops them (`MathAvailability.FunnelsOnly`).
 */
export function decodeFunnelRequest(input: unknown): FunnelRequest {
  const params = readLegacyParams(input)
  const p = decodeOrThrow(FunnelFields, params, 'invalid funnel parameters')

  const order = (blank(p.funnel_order_type) ?? 'ordered') as FunnelOrder
  if (!ORDERS.includes(order)) throw invalid(['funnel_order_type'], `unknown order type ${JSON.stringify(p.funnel_order_type)}; use one of ${ORDERS.join(', ')}`)
  // PostHog: without funnel_viz_type, the old `display: ActionsLineGraph` means trends.
  const viz = (blank(p.funnel_viz_type) ?? (p.display === 'ActionsLineGraph' ? 'trends' : 'steps')) as FunnelViz
  if (!VIZ.includes(viz)) throw invalid(['funnel_viz_type'], `unknown visualisation ${JSON.stringify(p.funnel_viz_type)}; use one of ${VIZ.join(', ')}`)

  refuseUnreadParameters(params, 'funnels', 'invalid funnel parameters')
  refuseOptionalSteps(params, 'invalid funnel parameters')
  const steps = decodeSeries({ events: params.events, actions: params.actions })
  if (steps.length < 2) throw invalid(['events'], 'Funnels require at least two steps.')
  if (steps.length > MAX_FUNNEL_STEPS) throw invalid(['events'], `a funnel has at most ${MAX_FUNNEL_STEPS} steps`)

  const group = p.aggregation_group_type_index ?? null
  if (group !== null && (group < 0 || group > 4)) throw invalid(['aggregation_group_type_index'], 'a group type index is between 0 and 4 (absent: persons)')
  // PostHog's _aggregation_target_expr: a group type wins; "person_id" (or nothing) is the person.
  const byHogql = blank(p.funnel_aggregate_by_hogql)
  const aggregateByHogql = group === null && byHogql !== null && byHogql.trim() !== 'person_id' ? byHogql : null

  const intervalText = blank(p.interval) ?? 'day'
  if (!isInterval(intervalText)) throw invalid(['interval'], `unknown interval ${JSON.stringify(p.interval)}; use one of ${INTERVALS.join(', ')}`)
  // PostHog's funnels turn minute intervals into hour ones.
  const interval: Interval = intervalText === 'minute' ? 'hour' : intervalText

  const { fromStep, toStep } = stepRange(p.funnel_from_step, p.funnel_to_step, viz, steps.length)
  const bins = p.bin_count ?? null

  return {
    params,
    steps,
    exclusions: decodeExclusions(params.exclusions, steps, order),
    order,
    viz,
    windowMicros: windowMicros(p),
    properties: decodeOrThrow(PropertyFilters, normalizeProperties(params.properties), 'invalid property filters', ['properties']),
    filterTestAccounts: p.filter_test_accounts === true,
    aggregationGroup: group,
    aggregateByHogql,
    breakdown: decodeFunnelBreakdown(params, steps.length, order),
    fromStep,
    toStep,
    binCount: bins === null ? null : Math.min(90, Math.max(1, bins)),
    interval,
    dateFrom: blank(p.date_from),
    dateTo: blank(p.date_to),
    explicitDate: p.explicit_date === true,
  }
}

/**
 * A funnel request plus the people endpoint's step selection
 * (`funnel_custom_steps`, else the required `funnel_step`: see
 * decodeActorSteps) and `funnel_step_breakdown`. Throws ValidationError
 * naming the field.
 */
export function decodeFunnelActorsRequest(input: unknown): FunnelActorsRequest {
  const request = decodeFunnelRequest(input)
  refuseUnreadParameters(request.params, 'funnel-persons', 'invalid funnel parameters')
  const raw = request.params.funnel_step_breakdown
  return { ...request, actorSteps: decodeActorSteps(request.params, request.steps.length, request.viz), funnelStepBreakdown: raw === null ? undefined : raw }
}
