import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import type { SqlHooks } from '../../storage.js'
import { withCtes } from '../funnels/compile/sql-kit.js'
import type { PathItems } from './path-items.js'
import type { PathsRequest } from './paths-request.js'

/**
 * The edges of the rows `pathRowsSql` gives (PostHog's `to_query`): each
 * node after the first makes an edge from `<i-1>_<prev>` to `<i>_<item>`;
 * edges are counted (one per session path, not per person) with the mean
 * gap in microseconds (`t`), kept within the edge weights, ordered by count
 * descending then source and target by code point, and cut to `edge_limit`.
 * Counted by index and names as `items` carries them (one code per name,
 * so the same groups), then named: a statement starting with `items.ctes`.
 */
export function pathEdgesSql(
  rows: RawBuilder<unknown>,
  items: PathItems,
  request: PathsRequest,
  hooks: SqlHooks,
): RawBuilder<{ source: string; target: string; value: number | string | bigint; t: number | string }> {
  const having: Expression<SqlBool>[] = []
  if (request.minEdgeWeight !== null) having.push(sql<SqlBool>`count(*) >= ${sql.lit(request.minEdgeWeight)}`)
  if (request.maxEdgeWeight !== null) having.push(sql<SqlBool>`count(*) <= ${sql.lit(request.maxEdgeWeight)}`)
  const counted = sql`select idx, prev, item, count(*) as value, cast(avg(dt) as double precision) as t
    from (${rows}) as r where idx > 1
    group by idx, prev, item
    ${having.length > 0 ? sql`having ${sql.join(having, sql` and `)}` : sql``}`
  const { from, text } = items.decode(counted, ['prev', 'item'])
  const named = sql`select ${nodeKeySql(sql`r.idx - 1`, text.prev)} as source, ${nodeKeySql(sql`r.idx`, text.item)} as target, r.value, r.t from ${from}`
  const source = sql.ref('source') as Expression<string>
  const target = sql.ref('target') as Expression<string>
  const ordered = sql`select source, target, value, t from (${named}) as k
    order by value desc, ${hooks.binaryText(source)}, ${hooks.binaryText(target)}
    limit ${sql.lit(request.edgeLimit)}`
  return withCtes(items.ctes, ordered) as RawBuilder<{ source: string; target: string; value: number | string | bigint; t: number | string }>
}

/** PostHog's node key: the 1-based index, `_`, the name (`2_/pricing`). */
export const nodeKeySql = (index: RawBuilder<unknown>, name: Expression<unknown>): Expression<string> =>
  sql<string>`(cast(${index} as text) || '_' || ${name})`
