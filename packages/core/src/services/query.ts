import type { EngineContext } from '../context.js'
import { ValidationError } from '../errors.js'
import { checkRequestBudget } from '../query/execution/query-budget.js'
import type { QueryExecutor } from '../query/execution/query-executor.js'
import { correlationActors, runFunnelCorrelation, type FunnelCorrelationResponse } from '../query/correlation/index.js'
import { funnelActors, runFunnel, type FunnelResponse } from '../query/funnels/index.js'
import { pathActors, runPaths, type PathsResponse } from '../query/paths/index.js'
import { retentionActors, runRetention, type RetentionResponse } from '../query/retention/index.js'
import { runTrend, type TrendResponse } from '../query/trends/run-trend.js'
import { trendActors, type ActorsPage, type ActorsResult } from '../query/trends/trend-actors.js'

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

/**
 * The analyses: PostHog's legacy insight parameters in, PostHog's result
 * shapes out. Each runs under the engine's executor: a timeout, a
 * per-project concurrency limit, and cancellation by `client_query_id`.
 */
export function queryService(ctx: EngineContext, executor: QueryExecutor) {
  const run = async <T>(projectId: number, params: unknown, fn: () => Promise<T>): Promise<T> => {
    ctx.assertOpen()
    // Refused before the request takes one of its project's slots.
    checkRequestBudget(ctx.limits, params)
    return executor.run(projectId, clientQueryIdOf(params), fn)
  }
  return {
    /** A funnel: steps, trends or time to convert (`funnel_viz_type`), as `POST /insights/funnel/`. */
    funnel: (projectId: number, params: unknown): Promise<FunnelResponse> => run(projectId, params, () => runFunnel(ctx, projectId, params)),
    /** The persons (or groups) who reached, or dropped off at, a funnel step (`funnel_step`, `funnel_step_breakdown`): its people URLs. */
    funnelPersons: (projectId: number, params: unknown, page: ActorsPage) => run(projectId, params, () => funnelActors(ctx, projectId, params, page)),
    /** A trend, stickiness or lifecycle analysis (`insight`), as `POST /insights/trend/`. */
    trend: (projectId: number, params: unknown): Promise<TrendResponse> => run(projectId, params, () => runTrend(ctx, projectId, params)),
    /** The persons behind one point of a trend, stickiness or lifecycle result (its `persons_urls`). */
    trendPersons: (projectId: number, params: unknown, page: ActorsPage): Promise<ActorsResult> =>
      run(projectId, params, () => trendActors(ctx, projectId, params, page)),
    /** Retention (`period`, `total_intervals`, `retention_type`, `cumulative`, ...), as `GET /insights/retention/`. */
    retention: (projectId: number, params: unknown): Promise<RetentionResponse> => run(projectId, params, () => runRetention(ctx, projectId, params)),
    /** The persons behind a retention cell (its `people_url`). */
    retentionPersons: (projectId: number, params: unknown, page: ActorsPage): Promise<ActorsResult> =>
      run(projectId, params, () => retentionActors(ctx, projectId, params, page)),
    /** User paths: the weighted edges between path nodes, as `POST /insights/path/`. */
    paths: (projectId: number, params: unknown): Promise<PathsResponse> => run(projectId, params, () => runPaths(ctx, projectId, params)),
    /** The persons behind a path node or edge (`path_start_key`, `path_end_key`, `path_dropoff_key`). */
    pathPersons: (projectId: number, params: unknown, page: ActorsPage): Promise<ActorsResult> => run(projectId, params, () => pathActors(ctx, projectId, params, page)),
    /** Which events and properties go with converting through a funnel (odds ratios), as `POST /insights/funnel/correlation/`. */
    funnelCorrelation: (projectId: number, params: unknown): Promise<FunnelCorrelationResponse> =>
      run(projectId, params, () => runFunnelCorrelation(ctx, projectId, params)),
    /** The persons behind a correlation row (its `success_people_url` / `failure_people_url`). */
    funnelCorrelationPersons: (projectId: number, params: unknown, page: ActorsPage): Promise<ActorsResult> =>
      run(projectId, params, () => correlationActors(ctx, projectId, params, page)),
    /**
     * Stops the running analysis of `projectId` that was given `clientQueryId`:
     * it answers `QueryCancelledError`. Resolves to false when none is running.
     */
    cancel: (projectId: number, clientQueryId: string): Promise<boolean> => {
      ctx.assertOpen()
      return executor.cancel(projectId, clientQueryId)
    },
  }
}
