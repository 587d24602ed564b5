import { sql, type Expression } from 'kysely'
import type { SqlHooks } from '../../storage.js'
import { bucketStarts, type BucketLimit } from '../dates/buckets.js'
import { bucketIndexSql } from '../dates/bucket-index-sql.js'
import { DAY } from '../dates/civil.js'
import { funnelEventsSql, funnelRunsSql } from './compile/funnel-events-sql.js'
import { stepListsFor } from './compile/funnel-lists-sql.js'
import { orderedOutcomeCtes } from './compile/ordered-sql.js'
import { orderedTrendCtes } from './compile/ordered-trends-sql.js'
import { cte, withCtes, type Cte, type Sql } from './compile/sql-kit.js'
import { finalValuesCte, stepsAggregateSql } from './compile/steps-aggregate-sql.js'
import { timeToConvertSql } from './compile/time-to-convert-sql.js'
import { unorderedFiling, unorderedOutcomeCtes } from './compile/unordered-sql.js'
import { unorderedTrendCtes } from './compile/unordered-trends-sql.js'
import type { FunnelEnv } from './funnel-env.js'
import { planFunnel, type FunnelPlan } from './funnel-plan.js'
import type { FunnelRequest } from './funnel-request.js'
import { funnelSources } from './funnel-sources.js'

/*
 * A funnel's SQL, pure: the request, its loaded env and the dialect's hooks
 * in, SQL out, with no database and no engine context. The runner, the
 * people lists, funnel paths and correlation compose these; the SQL
 * snapshot tests compile them per dialect.
 */

/** The CTEs that end in `outcome(tgt, p0.., reached, t1..tn)`: every run's furthest step and step times. */
export function outcomeCtes(hooks: SqlHooks, request: FunnelRequest, env: FunnelEnv, plan: FunnelPlan): Array<Cte> {
  const perRun =
    plan.order === 'unordered' ? unorderedOutcomeCtes(plan, unorderedFiling(request.steps, plan, hooks), hooks) : orderedOutcomeCtes(plan, hooks, env.range)
  return [...runsCtes(hooks, request, env, plan), ...perRun]
}

/** The steps view's CTEs, ending in `fin`: each run with the value it is shown under. */
export function stepsCtes(hooks: SqlHooks, request: FunnelRequest, env: FunnelEnv, plan: FunnelPlan): Array<Cte> {
  const b = request.breakdown
  const limit = b === null || plan.runs === 'cohort' ? null : b.limit
  return [...outcomeCtes(hooks, request, env, plan), ['fin', finalValuesCte(plan, limit, hooks)]]
}

/**
 * The trends view's CTEs, ending in `toutcome(tgt, p0.., per, outcome)` (per
 * run and entry period: 1 converted, -1 entered without converting), with
 * the periods' starts (`per` indexes them). The bucket count is bounded
 * (`bucketLimit`) before any SQL is built.
 */
export function trendsCtes(
  hooks: SqlHooks,
  request: FunnelRequest,
  env: FunnelEnv,
  bucketLimit: BucketLimit,
): { plan: FunnelPlan; starts: Date[]; ctes: Array<Cte> } {
  const plan = planFunnel(request, request.toStep + 1)
  const { timezone, weekStartDay } = env.project
  const starts = bucketStarts(env.range, request.interval, timezone, weekStartDay, bucketLimit)
  const last = starts[starts.length - 1]!
  const end = bucketStarts({ from: last, to: new Date(last.getTime() + 40 * DAY) }, request.interval, timezone, weekStartDay)[1]!
  const periodOf = (ts: Expression<number>) => bucketIndexSql(ts, starts, end, hooks)
  const perRun =
    plan.order === 'unordered'
      ? unorderedTrendCtes(plan, periodOf, request.fromStep, unorderedFiling(request.steps, plan, hooks), hooks)
      : orderedTrendCtes(plan, periodOf, request.fromStep, hooks)
  return { plan, starts, ctes: [...runsCtes(hooks, request, env, plan), ...perRun] }
}

/** The steps view's statement: per breakdown value, each step's count and conversion times. */
export function funnelStepsSql(hooks: SqlHooks, request: FunnelRequest, env: FunnelEnv): { plan: FunnelPlan; query: Sql } {
  const plan = planFunnel(request, request.steps.length)
  return { plan, query: withCtes([...stepsCtes(hooks, request, env, plan)], stepsAggregateSql(plan, hooks)) }
}

/** Time to convert's statement: it reads the whole funnel's reported paths, without breakdown (funnels.md §11). */
export function funnelTimeToConvertSql(hooks: SqlHooks, request: FunnelRequest, env: FunnelEnv): Sql {
  const plain: FunnelRequest = { ...request, breakdown: null }
  const plan = planFunnel(plain, plain.steps.length)
  const ttc = timeToConvertSql(request.fromStep, request.toStep, request.binCount, hooks)
  return withCtes([...outcomeCtes(hooks, plain, env, plan), ...ttc.ctes], ttc.final)
}

/** The trends view's statement: per breakdown value and entry period, the attempts entered and converted (funnels.md §10). */
export function funnelTrendsSql(hooks: SqlHooks, request: FunnelRequest, env: FunnelEnv, bucketLimit: BucketLimit): { plan: FunnelPlan; starts: Date[]; query: Sql } {
  const { plan, starts, ctes } = trendsCtes(hooks, request, env, bucketLimit)
  const p = Array.from({ length: plan.dims }, (_, i) => sql.raw(`p${i}`))
  const values = sql.join(p.map((c, i) => sql`${c} as ${sql.raw(`v${i}`)}`))
  const final = sql`select ${values}, per, count(*) as entered, count(case when outcome = 1 then 1 end) as converted from toutcome group by ${sql.join(p)}, per`
  return { plan, starts, query: withCtes(ctes, final) }
}

/** `fe` and `runs`: the funnel's events and how they split into runs. */
function runsCtes(hooks: SqlHooks, request: FunnelRequest, env: FunnelEnv, plan: FunnelPlan): Array<Cte> {
  const sources = funnelSources({
    request,
    plan,
    project: env.project,
    hooks,
    range: env.range,
    extensions: env.extensions,
    cohorts: env.cohorts,
    now: env.now,
  })
  // Read twice rather than stored (SqlHooks.inlinesCtes): step lists read every run's events and the passes only those of the
  // runs the lists leave (both CTEs: `runs` inlined makes `fe` the one read twice); a strict funnel reads its step events for
  // the spans' bounds, then the events within them (`runs`; its `fe`, the spans' events, stored measured cheaper, except under
  // a first or last touch breakdown, where `fe` is every event of the range, read again to find each target's value).
  const inline = hooks.inlinesCtes === true
  const lists = inline && stepListsFor(plan, hooks) !== null
  const strict = inline && plan.order === 'strict'
  const touch = strict && (plan.runs === 'first_touch' || plan.runs === 'last_touch')
  return [cte('fe', funnelEventsSql(plan, sources), lists || touch), cte('runs', funnelRunsSql(plan), lists || strict)]
}
