import type { EngineContext } from '../context.js'
import { ValidationError } from '../errors.js'
import { ANALYSIS_REGISTRY, type AnalysisName, type AnalysisParamsOf, type AnalysisPersonsName, type AnalysisPersonsParamsOf, type AnalysisResponseOf } from '../query/analysis/analysis-registry.js'
import { checkRequestBudget } from '../query/execution/query-budget.js'
import type { QueryExecutor } from '../query/execution/query-executor.js'
import type { FunnelCorrelationResponse } from '../query/correlation/index.js'
import type { FunnelCorrelationParams, FunnelCorrelationPersonsParams } from '../query/correlation/correlation-request.js'
import type { FunnelResponse } from '../query/funnels/index.js'
import type { FunnelParams, FunnelPersonsParams } from '../query/funnels/params/decode-funnel-params.js'
import type { FunnelBreakdownStep, FunnelStep } from '../query/funnels/shape/steps-result.js'
import type { FunnelTimeToConvert } from '../query/funnels/shape/time-to-convert-result.js'
import type { FunnelTrendsSeries } from '../query/funnels/shape/trends-result.js'
import type { LifecycleObject } from '../query/lifecycle/run-lifecycle.js'
import type { PathPersonsParams } from '../query/paths/path-actors.js'
import type { PathsResponse } from '../query/paths/index.js'
import type { PathsParams } from '../query/paths/paths-request.js'
import type { RetentionPersonsParams } from '../query/retention/retention-actors.js'
import type { RetentionResponse } from '../query/retention/index.js'
import type { RetentionParams } from '../query/retention/retention-request.js'
import type { StickinessObject } from '../query/stickiness/run-stickiness.js'
import type { TrendPersonsParams } from '../query/trends/point-params.js'
import type { TrendResponse } from '../query/trends/run-trend.js'
import type { TrendSeriesObject } from '../query/trends/series-object.js'
import type { ActorsPage, ActorsResult } from '../query/trends/trend-actors.js'
import type { TrendParams } from '../query/trends/trend-request.js'

/** The longest `client_query_id` accepted (PostHog's are UUIDs; clients send their own). */
const MAX_CLIENT_QUERY_ID = 200

/**
 * `client_query_id` of an analysis' parameters: the id a later
 * `cancel(projectId, id)` names. Undefined when absent; ValidationError when
 * not a short non-empty string.
 */
function clientQueryIdOf(params: unknown): string | undefined {
  if (typeof params !== 'object' || params === null || !('client_query_id' in params)) return undefined
  const id = (params as { client_query_id: unknown }).client_query_id
  if (id === undefined || id === null || id === '') return undefined
  if (typeof id !== 'string' || id.length > MAX_CLIENT_QUERY_ID) {
    throw new ValidationError([{ path: ['client_query_id'], message: `client_query_id is a string of at most ${MAX_CLIENT_QUERY_ID} characters` }], { context: 'invalid query' })
  }
  return id
}

/** A funnel whose steps view is asked for: `funnel_viz_type` `steps`, or absent without the old trends display. */
type StepsView = { readonly funnel_viz_type: 'steps' } | { readonly funnel_viz_type?: null; readonly display?: Exclude<FunnelParams['display'], 'ActionsLineGraph'> }
/** No breakdown: the steps view answers one list of steps. */
type NoBreakdown = { readonly breakdown?: null; readonly breakdowns?: null | readonly [] }

/**
 * The analyses: PostHog's legacy insight parameters in, PostHog's result
 * shapes out. Each runs under the engine's executor: a timeout, a
 * per-project concurrency limit, and cancellation by `client_query_id`.
 * The overloads state the result each request gets; a request whose view
 * is known only at run time gets the union. Every call checks its
 * parameters at run time too (ValidationError naming the field).
 */
export interface SightlineQuery {
  /** A funnel's trends view: per period, the % of entrants who converted. */
  funnel(projectId: number, params: FunnelParams & { readonly funnel_viz_type: 'trends' }): Promise<FunnelResponse<FunnelTrendsSeries[]>>
  /** A funnel's time to convert: a histogram of conversion times. */
  funnel(projectId: number, params: FunnelParams & { readonly funnel_viz_type: 'time_to_convert' }): Promise<FunnelResponse<FunnelTimeToConvert>>
  /** A funnel's steps (the default view): one object per step. */
  funnel(projectId: number, params: FunnelParams & StepsView & NoBreakdown): Promise<FunnelResponse<FunnelStep[]>>
  /** A funnel's steps with a breakdown: one list of steps per value, ranked by conversion. */
  funnel(projectId: number, params: FunnelParams & StepsView): Promise<FunnelResponse<FunnelBreakdownStep[][]>>
  /** A funnel: steps, trends or time to convert (`funnel_viz_type`), as `POST /insights/funnel/`. */
  funnel(projectId: number, params: FunnelParams): Promise<FunnelResponse>
  /** The persons (or groups) who reached, or dropped off at, a funnel step (`funnel_step`, `funnel_step_breakdown`): its people URLs. */
  funnelPersons(projectId: number, params: FunnelPersonsParams, page: ActorsPage): Promise<ActorsResult>
  /** Stickiness: per series, how many actors were active on exactly n intervals. */
  trend(projectId: number, params: TrendParams & ({ readonly insight: 'STICKINESS' } | { readonly shown_as: 'Stickiness' })): Promise<TrendResponse<StickinessObject[]>>
  /** Lifecycle: per series, new, returning, resurrecting and dormant actors per interval. */
  trend(projectId: number, params: TrendParams & { readonly insight: 'LIFECYCLE' }): Promise<TrendResponse<LifecycleObject[]>>
  /** A trend (the default insight): one object per series, breakdown value and compared period. */
  trend(projectId: number, params: TrendParams & { readonly insight?: 'TRENDS' | null }): Promise<TrendResponse<TrendSeriesObject[]>>
  /** A trend, stickiness or lifecycle analysis (`insight`), as `POST /insights/trend/`. */
  trend(projectId: number, params: TrendParams): Promise<TrendResponse>
  /** The persons behind one point of a trend, stickiness or lifecycle result (its `persons_urls`). */
  trendPersons(projectId: number, params: TrendPersonsParams, page: ActorsPage): Promise<ActorsResult>
  /** Retention (`period`, `total_intervals`, `retention_type`, `cumulative`, ...), as `GET /insights/retention/`. */
  retention(projectId: number, params: RetentionParams): Promise<RetentionResponse>
  /** The persons behind a retention cell (its `people_url`). */
  retentionPersons(projectId: number, params: RetentionPersonsParams, page: ActorsPage): Promise<ActorsResult>
  /** User paths: the weighted edges between path nodes, as `POST /insights/path/`. */
  paths(projectId: number, params: PathsParams): Promise<PathsResponse>
  /** The persons behind a path node or edge (`path_start_key`, `path_end_key`, `path_dropoff_key`). */
  pathPersons(projectId: number, params: PathPersonsParams, page: ActorsPage): Promise<ActorsResult>
  /** Which events and properties go with converting through a funnel (odds ratios), as `POST /insights/funnel/correlation/`. */
  funnelCorrelation(projectId: number, params: FunnelCorrelationParams): Promise<FunnelCorrelationResponse>
  /** The persons behind a correlation row (its `success_people_url` / `failure_people_url`). */
  funnelCorrelationPersons(projectId: number, params: FunnelCorrelationPersonsParams, page: ActorsPage): Promise<ActorsResult>
  /**
   * Stops the running analysis of `projectId` that was given `clientQueryId`:
   * it answers `QueryCancelledError`. Resolves to false when none is running.
   */
  cancel(projectId: number, clientQueryId: string): Promise<boolean>
}

/**
 * The registry's analyses as methods: what `SightlineQuery` must accept.
 * Checked below, so the typed interface and the registry cannot drift apart.
 */
type RegistryMethods = { [N in AnalysisName]: (projectId: number, params: AnalysisParamsOf<N>) => Promise<AnalysisResponseOf<N>> } & {
  [P in AnalysisPersonsName]: (projectId: number, params: AnalysisPersonsParamsOf<P>, page: ActorsPage) => Promise<ActorsResult>
}
// A compile-time check only: every analysis of the registry is a method of the interface, with its types.
const coversRegistry = (query: SightlineQuery): RegistryMethods => query
void coversRegistry

export function queryService(ctx: EngineContext, executor: QueryExecutor): SightlineQuery {
  const run = async <T>(projectId: number, params: unknown, fn: () => Promise<T>): Promise<T> => {
    ctx.assertOpen()
    // Refused before the request takes one of its project's slots.
    checkRequestBudget(ctx.limits, params)
    return executor.run(projectId, clientQueryIdOf(params), fn)
  }
  // Parameters are checked at run time whatever their static type (HTTP callers pass JSON as it came).
  // The view each request gets is the decoder's choice; the interface's overloads state it.
  const methods: Record<string, unknown> = {}
  for (const analysis of Object.values(ANALYSIS_REGISTRY)) {
    methods[analysis.name] = (projectId: number, params: unknown) => run<unknown>(projectId, params, () => analysis.run(ctx, projectId, params))
    const persons = analysis.persons
    methods[persons.name] = (projectId: number, params: unknown, page: ActorsPage) => run(projectId, params, () => persons.run(ctx, projectId, params, page))
  }
  return {
    ...(methods as unknown as Omit<SightlineQuery, 'cancel'>),
    cancel: (projectId, clientQueryId) => {
      ctx.assertOpen()
      return executor.cancel(projectId, clientQueryId)
    },
  }
}
