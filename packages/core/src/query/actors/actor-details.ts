import { sql, type RawBuilder } from 'kysely'
import type { EngineContext } from '../../context.js'
import { runStorage } from '../../db/run.js'
import type { SqlHooks } from '../../storage.js'
import { personlessDistinctIds } from '../scope/personless-distinct-ids.js'
import { sqlCast } from '../../db/sql-cast.js'

/** One actor behind a point: a person (or, for `unique_group`, a group), as the persons endpoints show it. */
export interface TrendActor {
  /** The person's uuid; a personless distinct id itself; a group's key. */
  id: string
  distinct_ids: string[]
  properties: Record<string, unknown>
  created_at: string
}

export interface ActorsPage {
  readonly limit: number
  readonly offset: number
}

export interface ActorsResult {
  results: TrendActor[]
  /** All actors behind the point, across pages. */
  count: number
}

/**
 * Counts and pages the actors of a query returning `{ a, n }` (actor id,
 * matching events): ordered by `n` descending, then id. Persons are loaded
 * with their distinct ids; ids without a person row (personless events) are
 * persons of their own distinct id; with `groupTypeIndex`, ids are group keys.
 */
export async function pageActors(
  ctx: EngineContext,
  projectId: number,
  actors: RawBuilder<unknown>,
  page: ActorsPage,
  groupTypeIndex: number | null,
): Promise<ActorsResult> {
  const counted = sql<{ c: number }>`select ${sqlCast(sql`count(*)`, 'float8')} as c from (${actors}) as x`
  const [total] = (await runStorage('count trend actors', () => counted.execute(ctx.db))).rows
  const paged = sql<{ a: string }>`select a from (${actors}) as x order by n desc, a asc limit ${sql.lit(page.limit)} offset ${sql.lit(page.offset)}`
  const ids = (await runStorage('page trend actors', () => paged.execute(ctx.db))).rows.map((r) => String(r.a))
  const results = groupTypeIndex === null ? await persons(ctx, projectId, ids) : await groups(ctx, projectId, groupTypeIndex, ids)
  return { results, count: Number(total?.c ?? 0) }
}

async function persons(ctx: EngineContext, projectId: number, ids: ReadonlyArray<string>): Promise<TrendActor[]> {
  if (ids.length === 0) return []
  const hooks: SqlHooks = ctx.adapter.sql
  const found = await runStorage('read trend persons', () =>
    sql<{ id: string; properties: Record<string, unknown>; created_at: string }>`select cast(uuid as text) as id, properties, created_at from persons
      where project_id = ${projectId} and ${hooks.textInList(sql`cast(uuid as text)`, ids)}`.execute(ctx.db),
  )
  const distinct = await runStorage('read trend persons distinct ids', () =>
    sql<{ id: string; distinct_id: string }>`select cast(person_uuid as text) as id, distinct_id from person_distinct_ids
      where project_id = ${projectId} and ${hooks.textInList(sql`cast(person_uuid as text)`, ids)} order by distinct_id`.execute(ctx.db),
  )
  const byId = new Map(found.rows.map((r) => [r.id, r]))
  const personless = ids.filter((id) => !byId.has(id))
  const firstSeen = new Map<string, string>()
  if (personless.length > 0) {
    const rows = await runStorage('read personless first events', () =>
      sql<{ d: string; t: string }>`select distinct_id as d, min(timestamp) as t from events where project_id = ${projectId} and ${hooks.textInList(sql`distinct_id`, personless)} group by distinct_id`.execute(ctx.db),
    )
    for (const r of rows.rows) firstSeen.set(r.d, r.t)
  }
  // Funnel and correlation actors are person keys: a personless one stands for its distinct id.
  const keyed = await personlessDistinctIds(ctx, projectId, personless.filter((id) => !firstSeen.has(id)))
  return ids.map((id) => {
    const p = byId.get(id)
    const behindKey = keyed.get(id)
    if (behindKey) return { id: behindKey.distinctId, distinct_ids: [behindKey.distinctId], properties: {}, created_at: behindKey.firstSeen }
    if (!p) return { id, distinct_ids: [id], properties: {}, created_at: firstSeen.get(id) ?? '' }
    return { id, distinct_ids: distinct.rows.filter((d) => d.id === id).map((d) => d.distinct_id), properties: p.properties, created_at: p.created_at }
  })
}

async function groups(ctx: EngineContext, projectId: number, groupTypeIndex: number, keys: ReadonlyArray<string>): Promise<TrendActor[]> {
  if (keys.length === 0) return []
  const found = await runStorage('read trend groups', () =>
    sql<{ k: string; properties: Record<string, unknown>; created_at: string }>`select group_key as k, properties, created_at from groups
      where project_id = ${projectId} and group_type_index = ${groupTypeIndex} and ${ctx.adapter.sql.textInList(sql`group_key`, keys)}`.execute(ctx.db),
  )
  const byKey = new Map(found.rows.map((r) => [r.k, r]))
  return keys.map((k) => ({ id: k, distinct_ids: [], properties: byKey.get(k)?.properties ?? {}, created_at: byKey.get(k)?.created_at ?? '' }))
}
