import { sql } from 'kysely'
import type { EngineContext } from '../../context.js'
import { runStorage } from '../../db/run.js'
import { funnelEventsSql, funnelRunsSql } from './compile/funnel-events-sql.js'
import { orderedOutcomeCtes } from './compile/ordered-sql.js'
import { unorderedOutcomeCtes } from './compile/unordered-sql.js'
import { withCtes, type Sql } from './compile/sql-kit.js'
import { stepsAggregateSql } from './compile/steps-aggregate-sql.js'
import { funnelEnv, type FunnelEnv } from './funnel-env.js'
import { planFunnel, type FunnelPlan } from './funnel-plan.js'
import type { FunnelRequest } from './funnel-request.js'
import { funnelSources } from './funnel-sources.js'
import { decodeFunnelRequest } from './params/decode-funnel-params.js'
import { stepsResult } from './shape/steps-result.js'

/** The legacy funnel endpoint's answer. Caching is not implemented: every answer is computed now. */
export interface FunnelResponse {
  readonly result: unknown
  readonly timezone: string
  readonly last_refresh: string
  readonly is_cached: false
}

/**
 * Computes a funnel for `params`, PostHog's legacy filter (JSON body or GET
 * query text): the steps view, trends or time to convert, with PostHog's
 * semantics (packages/core/README.md, "Funnels"). All the work happens in
 * the database, in one statement. Throws ValidationError naming the field
 * for bad input, NotFoundError for an unknown project.
 */
export async function runFunnel(ctx: EngineContext, projectId: number, params: unknown): Promise<FunnelResponse> {
  ctx.assertOpen()
  const request = decodeFunnelRequest(params)
  const env = await funnelEnv(ctx, projectId, request)
  const result = await stepsView(ctx, request, env)
  return { result, timezone: env.project.timezone, last_refresh: ctx.clock().toISOString(), is_cached: false }
}

/** The CTEs that end in `outcome(tgt, p0.., reached, t1..tn)`: every run's furthest step and step times. */
export function outcomeCtes(ctx: EngineContext, request: FunnelRequest, env: FunnelEnv, plan: FunnelPlan): Array<readonly [string, Sql]> {
  const sources = funnelSources({
    request,
    plan,
    project: env.project,
    hooks: ctx.adapter.sql,
    range: env.range,
    extensions: env.extensions,
    cohorts: env.cohorts,
    now: env.now,
  })
  const perRun = plan.order === 'unordered' ? unorderedOutcomeCtes(plan) : orderedOutcomeCtes(plan)
  return [['fe', funnelEventsSql(plan, sources)], ['runs', funnelRunsSql(plan)], ...perRun]
}

async function stepsView(ctx: EngineContext, request: FunnelRequest, env: FunnelEnv): Promise<unknown> {
  const plan = planFunnel(request, request.steps.length)
  const b = request.breakdown
  const limit = b === null || plan.runs === 'cohort' ? null : b.limit
  const query = withCtes(outcomeCtes(ctx, request, env, plan), stepsAggregateSql(plan, limit, ctx.adapter.sql))
  const rows = (await runStorage('run funnel', () => sql<Record<string, unknown>>`${query}`.execute(ctx.db))).rows
  return stepsResult(rows, { request, projectId: env.project.id, actionNames: env.actionNames, cohortNames: env.cohortNames })
}
