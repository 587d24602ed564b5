import type { EngineContext } from '../../context.js'
import { nowIso } from '../../time/timestamp.js'
import { runLifecycle, type LifecycleObject } from '../lifecycle/run-lifecycle.js'
import { runStickiness, type StickinessObject } from '../stickiness/run-stickiness.js'
import { checkpoint } from '../execution/checkpoint.js'
import { applyFormula } from './apply-formula.js'
import { seriesObjects, type TrendSeriesObject } from './series-object.js'
import { seriesValues } from './series-values.js'
import { checkTrendAnswer, queryEnv, requestPeriods } from './trend-env.js'
import { decodeTrendRequest, type TrendRequest } from './trend-request.js'
import type { QueryEnv } from '../analysis/query-env.js'
import { samplingNotice, type SamplingNotice } from '../analysis/sampling-factor.js'

/** A trend's `result` by `insight`: series objects for TRENDS, STICKINESS or LIFECYCLE. */
export type TrendResult = TrendSeriesObject[] | StickinessObject[] | LifecycleObject[]

/** What `/insights/trend/` answers (reference §0). Caching comes later: `is_cached` is always false. */
export interface TrendResponse<R extends TrendResult = TrendResult> extends Partial<SamplingNotice> {
  result: R
  timezone: string
  /** When the result was computed, ISO 8601 UTC. */
  last_refresh: string
  is_cached: false
}

/**
 * Computes a legacy trend request in PostHog's semantics
 * (shared/reference/trends-retention-paths.md): `insight` TRENDS (default),
 * STICKINESS (also `shown_as: "Stickiness"`) or LIFECYCLE, from the JSON body
 * or the GET query of `/api/projects/:id/insights/trend/`. Throws
 * ValidationError naming the field for bad parameters, NotFoundError for an
 * unknown project.
 */
export async function runTrend(ctx: EngineContext, projectId: number, params: unknown): Promise<TrendResponse> {
  ctx.assertOpen()
  const request = decodeTrendRequest(params)
  const env = await queryEnv(ctx, projectId, request)
  const result =
    request.insight === 'STICKINESS'
      ? await runStickiness(ctx, env, request, projectId)
      : request.insight === 'LIFECYCLE'
        ? await runLifecycle(ctx, env, request, projectId)
        : await trendResult(ctx, env, request, projectId)
  return { result, timezone: env.project.timezone, last_refresh: nowIso(ctx.clock), is_cached: false, ...samplingNotice(params) }
}

/**
 * The series objects of a trend: for each period (current, then previous),
 * each series' rows in order; with a formula, the formula's rows per period
 * instead of the series.
 */
async function trendResult(ctx: EngineContext, env: QueryEnv, request: TrendRequest, projectId: number): Promise<TrendSeriesObject[]> {
  const periods = await requestPeriods(ctx, env, request)
  checkTrendAnswer(ctx, request, periods)
  const out: TrendSeriesObject[] = []
  for (const period of periods) {
    const perSeries: TrendSeriesObject[][] = []
    // One query (or two, for Other) per series; the connection runs them one at a time anyway.
    for (const series of request.series) {
      const outcome = await seriesValues(ctx, env, request, series, period)
      const objects: TrendSeriesObject[] = []
      // Shaping a row of thousands of points takes a while: other requests get their turn between rows, and a stopped analysis stops there.
      for (const row of outcome.rows) {
        objects.push(...seriesObjects(request, { ...outcome, rows: [row] }, projectId, env.extensions))
        await checkpoint()
      }
      perSeries.push(objects)
    }
    if (request.formula) {
      out.push(
        ...applyFormula(perSeries, {
          node: request.formula.node,
          text: request.formula.text,
          breakdown: request.breakdowns.length > 0,
          compare: request.compare,
          totalValue: request.totalValue,
        }),
      )
    } else out.push(...perSeries.flat())
  }
  return out
}
