import { sql, type Expression, type SqlBool } from 'kysely'
import type { EngineContext } from '../../context.js'
import { ValidationError } from '../../errors.js'
import { pageActors, type ActorsPage, type ActorsResult } from '../actors/actor-details.js'
import { nodeKeySql } from './path-edges-sql.js'
import { pathEventsSql, personTextSql } from './path-events-sql.js'
import { pathItems } from './path-items.js'
import { pathRowsSql } from './path-rows-sql.js'
import { withCtes } from '../funnels/compile/sql-kit.js'
import { decodePathsRequest, invalidPaths, type PathsParams } from './paths-request.js'
import { pathsEnv } from './paths-env.js'

const MAX_PAGE = 10_000

/**
 * The persons behind a paths result, as PostHog's paths persons query
 * (`to_actors_query`): `params` is the paths request plus, optionally,
 * `path_start_key` (persons with a step from that node), `path_end_key`
 * (a step into that node; with both, that edge) or `path_dropoff_key`
 * (sessions that end at that node; it wins over the other two). Without
 * keys, everyone with a kept session path. Edge weights and limits do not
 * apply. Persons come ordered by their matching steps, most first, then id;
 * `count` is how many there are. Throws ValidationError naming the field.
 */
export async function pathActors(ctx: EngineContext, projectId: number, params: unknown, page: ActorsPage): Promise<ActorsResult> {
  ctx.assertOpen()
  if (!Number.isSafeInteger(page.limit) || page.limit < 0 || page.limit > MAX_PAGE) throw badPage('limit', `limit is between 0 and ${MAX_PAGE}`)
  if (!Number.isSafeInteger(page.offset) || page.offset < 0) throw badPage('offset', 'offset is a non-negative integer')
  const request = decodePathsRequest(params)
  const keys = actorKeys(params)
  const { env, range, rules, funnel } = await pathsEnv(ctx, projectId, request)
  const items = pathItems(pathEventsSql(env, request, range, rules, funnel), env.hooks)
  const { from, text } = items.decode(pathRowsSql(items, request, funnel?.sessionGapMicros), ['prev', 'item'])
  const source = nodeKeySql(sql`r.idx - 1`, text.prev)
  const target = nodeKeySql(sql`r.idx`, text.item)
  const conditions: Expression<SqlBool>[] = []
  if (keys.dropoff !== null) {
    // PostHog: `path_dropoff_key = key AND path_dropoff_key = path_key`, true only on a session's last node.
    conditions.push(sql<SqlBool>`r.last and ${target} = ${keys.dropoff}`)
  } else {
    if (keys.start !== null) conditions.push(sql<SqlBool>`r.idx > 1 and ${source} = ${keys.start}`)
    if (keys.end !== null) conditions.push(sql<SqlBool>`${target} = ${keys.end}`)
  }
  const where = conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``
  const actors = withCtes(items.ctes, sql`select ${personTextSql} as a, count(*) as n from ${from} ${where} group by r.pid, r.pd`)
  return pageActors(ctx, projectId, actors, page, null)
}

interface ActorKeys {
  readonly start: string | null
  readonly end: string | null
  readonly dropoff: string | null
}

/**
 * The parameters of `sightline.query.pathPersons`: the paths' plus a node or
 * an edge. Without one: everyone with a kept session path.
 */
export interface PathPersonsParams extends PathsParams {
  /** Those with a step from this node (`2_/pricing`); with `path_end_key`, that edge. */
  readonly path_start_key?: string | null
  /** Those with a step into this node. */
  readonly path_end_key?: string | null
  /** Those whose session path ends at this node. */
  readonly path_dropoff_key?: string | null
}

/** The node keys of the persons endpoint; a number (a GET query's `1_404` is text, but `12` is not) is its text. */
function actorKeys(params: unknown): ActorKeys {
  const p = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>
  const key = (name: keyof PathPersonsParams): string | null => {
    const v = p[name]
    if (v === undefined || v === null || v === '') return null
    if (typeof v === 'number' && Number.isFinite(v)) return String(v)
    if (typeof v !== 'string') throw invalidPaths([name], 'is a node key such as 2_/pricing')
    return v
  }
  return { start: key('path_start_key'), end: key('path_end_key'), dropoff: key('path_dropoff_key') }
}

const badPage = (field: string, message: string) => new ValidationError([{ path: [field], message }], { context: 'invalid page' })
