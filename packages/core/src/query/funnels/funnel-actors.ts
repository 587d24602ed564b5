import { sql, type RawBuilder } from 'kysely'
import type { EngineContext } from '../../context.js'
import { runStorage } from '../../db/run.js'
import { ValidationError } from '../../errors.js'
import { formatTimestamp } from '../../time/timestamp.js'
import { personlessDistinctIds } from '../scope/personless-distinct-ids.js'
import { cols, id, int, join, withCtes, type Cte } from './compile/sql-kit.js'
import { funnelEnv } from './funnel-env.js'
import { planFunnel } from './funnel-plan.js'
import type { ActorSteps, FunnelActorsRequest } from './funnel-request.js'
import { decodeFunnelActorsRequest } from './params/decode-funnel-params.js'
import { stepsCtes, trendsCtes } from './funnel-sql.js'
import { bucketLimitOf } from '../execution/query-limits.js'
import { dateProblem, relativeDateParse } from '../dates/relative-date-parse.js'
import { toWall, zonedFromInstant } from '../dates/wall-clock.js'

/** One actor of a funnel step: a person (or, aggregating by groups, a group: its key, no distinct ids). */
export interface FunnelActor {
  /** The person's uuid; a personless distinct id; a group key. */
  readonly id: string
  readonly distinct_ids: string[]
  readonly properties: Record<string, unknown>
  /** The person's (group's) creation time; for a personless distinct id, its first event in the funnel. */
  readonly created_at: string
}

const MAX_LIMIT = 10_000

/**
 * The persons behind one step of a funnel's steps view (PostHog's funnel
 * actors): `params` is the funnel's request plus `funnel_step` (n: those who
 * reached 1-based step n or further; -n: those who reached step n-1 but not
 * step n) or `funnel_custom_steps` (those whose furthest step is one of the
 * list; it wins over `funnel_step`); with `funnel_viz_type` trends,
 * `entrance_period_start` and `drop_off` instead (trendsListing); with a breakdown, `funnel_step_breakdown` (the series' value
 * as the step object shows it; "Other" is the merged values). Computed in
 * the database, ordered by actor id; `count` is the total. An actor is listed
 * once per run its step counts: once per value, so an actor under several
 * values merged into "Other" (step attribution, all events) appears once for
 * each, as Other's summed counts count it. Throws
 * ValidationError naming the field for bad input.
 */
export async function funnelActors(
  ctx: EngineContext,
  projectId: number,
  params: unknown,
  page: { readonly limit: number; readonly offset: number },
): Promise<{ results: FunnelActor[]; count: number }> {
  ctx.assertOpen()
  if (!Number.isSafeInteger(page.limit) || page.limit < 1 || page.limit > MAX_LIMIT) throw new ValidationError([{ path: ['limit'], message: `limit is between 1 and ${MAX_LIMIT}` }])
  if (!Number.isSafeInteger(page.offset) || page.offset < 0) throw new ValidationError([{ path: ['offset'], message: 'offset is a non-negative integer' }])
  const request = decodeFunnelActorsRequest(params)
  const listed = 'period' in request.actorSteps ? await trendsListing(ctx, projectId, request, request.actorSteps.period) : await stepsListing(ctx, projectId, request)
  const hooks = ctx.adapter.sql
  // Targets are person keys (uuids) or group keys: pages go by their text.
  const order = (alias: string) => join([sql`${hooks.binaryText(sql`cast(${sql.ref(`${alias}.tgt`)} as varchar)`)}`, ...cols('p', listed.dims, alias)])
  const query = withCtes(
    listed.ctes,
    // One row even past the end, for the count.
    sql`select c.total, cast(pg.tgt as varchar) as tgt, pg.first_ts from (select count(*) as total from act) as c left join (
        select * from act as a order by ${order('a')} limit ${int(page.limit)} offset ${int(page.offset)}
      ) as pg on true order by ${order('pg')}`,
  )
  const result = (await runStorage('list funnel actors', () => sql<{ tgt: string | null; first_ts: number; total: number }>`${query}`.execute(ctx.db))).rows
  const count = Number(result[0]?.total ?? 0)
  const rows = result.filter((r): r is { tgt: string; first_ts: number; total: number } => r.tgt !== null)
  const ids = rows.map((r) => r.tgt)
  const firstSeen = new Map(rows.map((r) => [r.tgt, formatTimestamp(Number(r.first_ts))]))
  const actors = request.aggregationGroup === null ? await persons(ctx, projectId, ids, firstSeen) : await groups(ctx, projectId, request.aggregationGroup, ids, firstSeen)
  return { results: actors, count }
}

/** The CTEs ending in `act(tgt, p0.., first_ts)`, one row per listed entry, and how many `p` columns it has. */
interface Listing {
  readonly ctes: Array<Cte>
  readonly dims: number
}

/** The steps view's people: its runs that `funnel_step` (or `funnel_custom_steps`) and `funnel_step_breakdown` select. */
async function stepsListing(ctx: EngineContext, projectId: number, request: FunnelActorsRequest): Promise<Listing> {
  const steps = { ...request, viz: 'steps' as const }
  const env = await funnelEnv(ctx, projectId, steps)
  const plan = planFunnel(steps, steps.steps.length)
  // One entry per counted run (target and value); a target's entries are alike, so their order among themselves does not show.
  const runKey = join([sql`fin.tgt`, ...cols('p', plan.dims, 'fin')])
  return { ctes: [...stepsCtes(ctx.adapter.sql, steps, env, plan), ['act', actorRuns(request, plan.dims, runKey, join(actorConditions(request), ' and '))]], dims: plan.dims }
}

/**
 * The trends view's people (PostHog's `ClickhouseFunnelTrendsActors`): the
 * actors who entered in the period starting at `start` (its bucket start,
 * as the trends view's `days` shows it, in the project's zone; any other
 * time names no period and lists nobody, as PostHog's equality does) and
 * converted (`dropOff` false) or not (true), each once.
 */
async function trendsListing(ctx: EngineContext, projectId: number, request: FunnelActorsRequest, period: { readonly start: string; readonly dropOff: boolean }): Promise<Listing> {
  const env = await funnelEnv(ctx, projectId, request)
  const zone = env.project.timezone
  const parsed = relativeDateParse(period.start, { timeZone: zone, now: zonedFromInstant(zone, ctx.clock().getTime()), weekStartDay: env.project.weekStartDay, alwaysTruncate: false })
  if (parsed === null) throw new ValidationError([{ path: ['entrance_period_start'], message: dateProblem(period.start, 'a date or date-time such as 2024-03-05 or 2024-03-05 13:00:00') }], { context: 'invalid funnel parameters' })
  const { starts, ctes } = trendsCtes(ctx.adapter.sql, request, env, bucketLimitOf(ctx.limits))
  const index = starts.findIndex((d) => toWall(zone, d.getTime()) === parsed.time.wall)
  const where = sql`t.per = ${int(index)} and t.outcome = ${int(period.dropOff ? -1 : 1)}`
  const act =
    request.aggregateByHogql === null
      ? sql`select t.tgt, min(fe.ts) as first_ts from toutcome as t join fe on fe.tgt = t.tgt where ${where} group by t.tgt`
      : sql`select pk as tgt, min(first_ts) as first_ts from (
          select t.tgt, min(fe.pk) as pk, min(fe.ts) as first_ts from toutcome as t join fe on fe.tgt = t.tgt where ${where} group by t.tgt
        ) as r group by pk`
  return { ctes: [...ctes, ['act', act]], dims: 0 }
}

/**
 * `act`: one row per listed run, its actor `tgt` and breakdown value
 * `p0..`, and `first_ts`, the actor's first funnel event. Aggregating by a
 * HogQL expression, the targets are the expression's values (sessions, say)
 * and the actors their persons: PostHog's modal lists `any(person_id)` of a
 * target; here the least person key of its events, and a person reaching
 * through several targets is listed once per value.
 */
function actorRuns(request: FunnelActorsRequest, dims: number, runKey: RawBuilder<unknown>, where: RawBuilder<unknown>): RawBuilder<unknown> {
  if (request.aggregateByHogql === null) return sql`select ${runKey}, min(fe.ts) as first_ts from fin join fe on fe.tgt = fin.tgt where ${where} group by ${runKey}`
  const values = join(cols('p', dims))
  return sql`select pk as tgt, ${values}, min(first_ts) as first_ts from (
      select ${runKey}, min(fe.pk) as pk, min(fe.ts) as first_ts from fin join fe on fe.tgt = fin.tgt where ${where} group by ${runKey}
    ) as r group by pk, ${values}`
}

/** The conditions on `fin` of the runs a steps-view people request lists: its steps, and its breakdown value when given. */
export function actorConditions(request: FunnelActorsRequest): RawBuilder<unknown>[] {
  const conditions = [stepCondition(request.actorSteps)]
  const value = breakdownCondition(request)
  if (value) conditions.push(value)
  return conditions
}

/** `fin.reached` is the furthest 0-based step of a run; the steps asked for are 1-based. No steps asked: nobody. */
function stepCondition(steps: ActorSteps): RawBuilder<unknown> {
  if ('period' in steps) throw new Error('funnel actors: a trends period has no steps-view condition')
  if ('reachedAtLeast' in steps) return sql`fin.reached >= ${int(steps.reachedAtLeast - 1)}`
  if (steps.reachedExactly.length === 0) return sql`false`
  return sql`fin.reached in (${sql.join(steps.reachedExactly.map((s) => int(s - 1)))})`
}

/**
 * "The run is shown under the requested value": `funnel_step_breakdown` as
 * the step object gives it (a list, its single text when unboxed, a cohort
 * id, "Other"); numbers are read as their text. Absent: every value.
 */
function breakdownCondition(request: FunnelActorsRequest): RawBuilder<unknown> | null {
  const b = request.breakdown
  const raw = request.funnelStepBreakdown
  if (b === null || raw === undefined) return null
  const parts = (Array.isArray(raw) ? raw : [raw]).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)))
  if (b.dims[0]!.type === 'cohort') return sql`fin.v0 = ${parts[0]!}`
  if (parts.length === 1 && parts[0] === 'Other') return sql`fin.v0 = 'Other' ${b.dims.length > 1 ? sql`and fin.v1 is null` : sql``}`
  if (parts.length !== b.dims.length) {
    throw new ValidationError([{ path: ['funnel_step_breakdown'], message: `expected ${b.dims.length} value${b.dims.length > 1 ? 's' : ''}, as the step objects show them` }])
  }
  return join(parts.map((p, i) => sql`${id(`fin.v${i}`)} = ${p}`), ' and ')
}

async function persons(ctx: EngineContext, projectId: number, ids: ReadonlyArray<string>, firstSeen: ReadonlyMap<string, string>): Promise<FunnelActor[]> {
  if (ids.length === 0) return []
  const rows = (
    await runStorage('read funnel actor persons', () =>
      sql<{ uuid: string; properties: unknown; created_at: string; distinct_id: string | null }>`
        select cast(p.uuid as varchar) as uuid, p.properties, p.created_at, pdi.distinct_id
        from persons as p left join person_distinct_ids as pdi on pdi.project_id = p.project_id and pdi.person_uuid = p.uuid
        where p.project_id = ${projectId} and cast(p.uuid as varchar) in (${sql.join(ids.map((i) => sql`${i}`))})`.execute(ctx.db),
    )
  ).rows
  const found = new Map<string, FunnelActor>()
  const withPerson = new Set(rows.map((r) => r.uuid))
  const personless = await personlessDistinctIds(ctx, projectId, ids.filter((i) => !withPerson.has(i)))
  for (const r of rows) {
    const actor = found.get(r.uuid) ?? { id: r.uuid, distinct_ids: [], properties: parseJson(r.properties), created_at: r.created_at }
    if (r.distinct_id !== null) actor.distinct_ids.push(r.distinct_id)
    found.set(r.uuid, actor)
  }
  // A distinct id without a person row is a person of its own, as in the funnel's counts, shown as that distinct id.
  return ids.map((i) => {
    const actor = found.get(i)
    if (actor) return { ...actor, distinct_ids: [...actor.distinct_ids].sort() }
    const distinctId = personless.get(i)?.distinctId ?? i
    return { id: distinctId, distinct_ids: [distinctId], properties: {}, created_at: firstSeen.get(i)! }
  })
}

async function groups(ctx: EngineContext, projectId: number, index: number, keys: ReadonlyArray<string>, firstSeen: ReadonlyMap<string, string>): Promise<FunnelActor[]> {
  if (keys.length === 0) return []
  const rows = (
    await runStorage('read funnel actor groups', () =>
      ctx.db
        .selectFrom('groups')
        .select(['group_key', 'properties', 'created_at'])
        .where('project_id', '=', projectId)
        .where('group_type_index', '=', index)
        .where('group_key', 'in', [...keys])
        .execute(),
    )
  ).map((r) => [r.group_key, r] as const)
  const byKey = new Map(rows)
  return keys.map((k) => {
    const g = byKey.get(k)
    return { id: k, distinct_ids: [], properties: g ? parseJson(g.properties) : {}, created_at: g?.created_at ?? firstSeen.get(k)! }
  })
}

const parseJson = (v: unknown): Record<string, unknown> => (typeof v === 'string' ? (JSON.parse(v) as Record<string, unknown>) : ((v ?? {}) as Record<string, unknown>))
