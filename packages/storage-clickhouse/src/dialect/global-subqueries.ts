import { subqueryReads, type ClusterTables, type SubqueryRead } from './subquery-reads.js'

/**
 * Whether ClickHouse needs `read` written GLOBAL: an IN or JOIN operand of a
 * query every shard runs (it has a Distributed table in FROM) that reads a
 * Distributed table (each shard would fan out to every shard again, which
 * ClickHouse refuses by default: `distributed_product_mode = 'deny'`) or a
 * table only this node has (the shards would not find it). GLOBAL has this
 * node evaluate the operand once and send its rows to every shard, which
 * answers as one server would. Operands that read only tables every node
 * holds whole (the person copies) stay shard-local.
 */
export const needsGlobal = (read: SubqueryRead): boolean =>
  read.shardQuery && !read.global && (read.kind === 'join' || read.kind === 'in') && (read.reads.distributed || read.reads.initiator)

/**
 * `sql` with `global ` before every IN and JOIN that `needsGlobal`
 * (`left join` becomes `global left join`, `not in` `global not in`). The
 * same text when `tables` has no Distributed table (one server), or no
 * operand needs it.
 *
 * Not `prefer_global_in_and_join`, which makes every IN and JOIN GLOBAL:
 * then each analysis would send the person copies, which every node has, to
 * every shard. And GLOBAL rather than `distributed_product_mode = 'local'`
 * (each shard reading its own part of the operand): that answers as one
 * server only when the join keys hold the sharding key (the distinct id),
 * which core's SQL does not promise.
 */
export function globalSubqueries(sql: string, tables: ClusterTables): string {
  if (tables.distributed.size === 0) return sql
  const at = subqueryReads(sql, tables)
    .filter(needsGlobal)
    .map((read) => read.at)
    .sort((a, b) => b - a)
  let out = sql
  for (const i of at) out = `${out.slice(0, i)}global ${out.slice(i)}`
  return out
}
