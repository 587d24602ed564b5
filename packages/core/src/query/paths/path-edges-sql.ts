import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import type { SqlHooks } from '../../storage.js'
import type { PathsRequest } from './paths-request.js'

/**
 * The edges of the rows `pathRowsSql` gives (PostHog's `to_query`): each
 * node after the first makes an edge from `<i-1>_<prev>` to `<i>_<item>`;
 * edges are counted (one per session path, not per person) with the mean
 * gap in microseconds (`t`), kept within the edge weights, ordered by count
 * descending then source and target by code point, and cut to `edge_limit`.
 */
export function pathEdgesSql(rows: RawBuilder<unknown>, request: PathsRequest, hooks: SqlHooks): RawBuilder<{ source: string; target: string; value: number | string | bigint; t: number | string }> {
  const keyed = sql`select ${nodeKeySql(sql`idx - 1`, sql.ref('prev'))} as source, ${nodeKeySql(sql`idx`, sql.ref('item'))} as target, dt from (${rows}) as r where idx > 1`
  const having: Expression<SqlBool>[] = []
  if (request.minEdgeWeight !== null) having.push(sql<SqlBool>`count(*) >= ${sql.lit(request.minEdgeWeight)}`)
  if (request.maxEdgeWeight !== null) having.push(sql<SqlBool>`count(*) <= ${sql.lit(request.maxEdgeWeight)}`)
  const source = sql.ref('source') as Expression<string>
  const target = sql.ref('target') as Expression<string>
  return sql`select source, target, count(*) as value, cast(avg(dt) as double precision) as t
    from (${keyed}) as k
    group by source, target
    ${having.length > 0 ? sql`having ${sql.join(having, sql` and `)}` : sql``}
    order by count(*) desc, ${hooks.binaryText(source)}, ${hooks.binaryText(target)}
    limit ${sql.lit(request.edgeLimit)}`
}

/** PostHog's node key: the 1-based index, `_`, the name (`2_/pricing`). */
export const nodeKeySql = (index: RawBuilder<unknown>, name: Expression<unknown>): Expression<string> =>
  sql<string>`(cast(${index} as text) || '_' || ${name})`
