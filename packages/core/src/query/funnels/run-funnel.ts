import { nowIso } from '../../time/timestamp.js'
import { sql, type Expression } from 'kysely'
import type { EngineContext } from '../../context.js'
import { runStorage } from '../../db/run.js'
import { funnelEventsSql, funnelRunsSql } from './compile/funnel-events-sql.js'
import { orderedOutcomeCtes } from './compile/ordered-sql.js'
import { unorderedFiling, unorderedOutcomeCtes } from './compile/unordered-sql.js'
import { withCtes, type Sql } from './compile/sql-kit.js'
import { finalValuesCte, stepsAggregateSql } from './compile/steps-aggregate-sql.js'
import { timeToConvertSql } from './compile/time-to-convert-sql.js'
import { funnelEnv, type FunnelEnv } from './funnel-env.js'
import { planFunnel, type FunnelPlan } from './funnel-plan.js'
import type { FunnelRequest } from './funnel-request.js'
import { funnelSources } from './funnel-sources.js'
import { decodeFunnelRequest } from './params/decode-funnel-params.js'
import { stepsResult, type FunnelBreakdownStep, type FunnelStep } from './shape/steps-result.js'
import { timeToConvertResult, type FunnelTimeToConvert } from './shape/time-to-convert-result.js'
import { trendsResult, type FunnelTrendsSeries } from './shape/trends-result.js'
import { orderedTrendCtes } from './compile/ordered-trends-sql.js'
import { unorderedTrendCtes } from './compile/unordered-trends-sql.js'
import { bucketStarts } from '../dates/buckets.js'
import { bucketIndexSql } from '../dates/bucket-index-sql.js'
import { DAY } from '../dates/civil.js'
import { bucketLimitOf } from '../execution/query-limits.js'
import { boundedRows } from '../execution/bounded-rows.js'
import { checkAnswerBudget } from '../execution/query-budget.js'
import { samplingNotice, type SamplingNotice } from '../analysis/sampling-factor.js'

/**
 * A funnel's `result` by `funnel_viz_type`: the steps (one list per
 * breakdown value with a breakdown), the trends series, or time to convert.
 */
export type FunnelResult = FunnelStep[] | FunnelBreakdownStep[][] | FunnelTrendsSeries[] | FunnelTimeToConvert

/** The legacy funnel endpoint's answer. Caching is not implemented: every answer is computed now. */
export interface FunnelResponse<R extends FunnelResult = FunnelResult> extends Partial<SamplingNotice> {
  readonly result: R
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
  const result =
    request.viz === 'time_to_convert'
      ? await timeToConvertView(ctx, request, env)
      : request.viz === 'trends'
        ? await trendsView(ctx, request, env)
        : await stepsView(ctx, request, env)
  return { result, timezone: env.project.timezone, last_refresh: nowIso(ctx.clock), is_cached: false, ...samplingNotice(params) }
}

/** The CTEs that end in `outcome(tgt, p0.., reached, t1..tn)`: every run's furthest step and step times. */
export function outcomeCtes(ctx: EngineContext, request: FunnelRequest, env: FunnelEnv, plan: FunnelPlan): Array<readonly [string, Sql]> {
  const perRun = plan.order === 'unordered' ? unorderedOutcomeCtes(plan, unorderedFiling(request.steps, plan, ctx.adapter.sql), ctx.adapter.sql) : orderedOutcomeCtes(plan)
  return [...runsCtes(ctx, request, env, plan), ...perRun]
}

/**
 * The trends view's CTEs, ending in `toutcome(tgt, p0.., per, outcome)` (per
 * run and entry period: 1 converted, -1 entered without converting), with
 * the periods' starts (`per` indexes them). The bucket count is bounded
 * (`maxBucketsPerSeries`) before any SQL is built.
 */
export function trendsCtes(ctx: EngineContext, request: FunnelRequest, env: FunnelEnv): { plan: FunnelPlan; starts: Date[]; ctes: Array<readonly [string, Sql]> } {
  const plan = planFunnel(request, request.toStep + 1)
  const { timezone, weekStartDay } = env.project
  const starts = bucketStarts(env.range, request.interval, timezone, weekStartDay, bucketLimitOf(ctx.limits))
  const last = starts[starts.length - 1]!
  const end = bucketStarts({ from: last, to: new Date(last.getTime() + 40 * DAY) }, request.interval, timezone, weekStartDay)[1]!
  const periodOf = (ts: Expression<number>) => bucketIndexSql(ts, starts, end, ctx.adapter.sql)
  const perRun =
    plan.order === 'unordered'
      ? unorderedTrendCtes(plan, periodOf, request.fromStep, unorderedFiling(request.steps, plan, ctx.adapter.sql), ctx.adapter.sql)
      : orderedTrendCtes(plan, periodOf, request.fromStep)
  return { plan, starts, ctes: [...runsCtes(ctx, request, env, plan), ...perRun] }
}

/** `fe` and `runs`: the funnel's events and how they split into runs. */
function runsCtes(ctx: EngineContext, request: FunnelRequest, env: FunnelEnv, plan: FunnelPlan): Array<readonly [string, Sql]> {
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
  return [
    ['fe', funnelEventsSql(plan, sources)],
    ['runs', funnelRunsSql(plan)],
  ]
}

async function stepsView(ctx: EngineContext, request: FunnelRequest, env: FunnelEnv): Promise<FunnelStep[] | FunnelBreakdownStep[][]> {
  const plan = planFunnel(request, request.steps.length)
  const query = withCtes([...stepsCtes(ctx, request, env, plan)], stepsAggregateSql(plan, ctx.adapter.sql))
  const rows = (await runStorage('run funnel', () => sql<Record<string, unknown>>`${query}`.execute(ctx.db))).rows
  return stepsResult(rows, { request, projectId: env.project.id, actionNames: env.actionNames, cohortNames: env.cohortNames })
}

/** The steps view's CTEs, ending in `fin`: each run with the value it is shown under. */
export function stepsCtes(ctx: EngineContext, request: FunnelRequest, env: FunnelEnv, plan: FunnelPlan): Array<readonly [string, Sql]> {
  const b = request.breakdown
  const limit = b === null || plan.runs === 'cohort' ? null : b.limit
  return [...outcomeCtes(ctx, request, env, plan), ['fin', finalValuesCte(plan, limit, ctx.adapter.sql)]]
}

/** Time to convert reads the whole funnel's reported paths, without breakdown (funnels.md §11). */
async function timeToConvertView(ctx: EngineContext, request: FunnelRequest, env: FunnelEnv): Promise<FunnelTimeToConvert> {
  const plain: FunnelRequest = { ...request, breakdown: null }
  const plan = planFunnel(plain, plain.steps.length)
  const ttc = timeToConvertSql(request.fromStep, request.toStep, request.binCount, ctx.adapter.sql)
  const query = withCtes([...outcomeCtes(ctx, plain, env, plan), ...ttc.ctes], ttc.final)
  const rows = (await runStorage('run funnel time to convert', () => sql<Record<string, unknown>>`${query}`.execute(ctx.db))).rows
  return timeToConvertResult(rows)
}

/** Trends cut the funnel at `funnel_to_step` and count entries per period of the step-0 event (funnels.md §10). */
async function trendsView(ctx: EngineContext, request: FunnelRequest, env: FunnelEnv): Promise<FunnelTrendsSeries[]> {
  const { plan, starts, ctes } = trendsCtes(ctx, request, env)
  const shown = request.breakdown === null ? 1 : request.breakdown.limit + 1
  checkAnswerBudget(ctx.limits, { rows: shown, columns: starts.length, bytesPerCell: 100, rowsAttr: 'breakdown_limit', columnsAttr: 'interval' })
  const p = Array.from({ length: plan.dims }, (_, i) => sql.raw(`p${i}`))
  const values = sql.join(p.map((c, i) => sql`${c} as ${sql.raw(`v${i}`)}`))
  const final = sql`select ${values}, per, count(*) as entered, count(case when outcome = 1 then 1 end) as converted from toutcome group by ${sql.join(p)}, per`
  const query = withCtes(ctes, final)
  // One row per (breakdown value, period): bounded, as a breakdown's values come from the data.
  const rows = await boundedRows<Record<string, unknown>>(ctx, 'run funnel trends', sql`${query}`, { attr: 'breakdown', rows: '(breakdown value, period) rows' })
  return trendsResult(rows, { request, project: env.project, range: env.range, periods: starts.map((d) => d.getTime()), cohortNames: env.cohortNames })
}
