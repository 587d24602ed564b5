import { subqueryReads, type ClusterTables } from './subquery-reads.js'
import { needsGlobal } from './global-subqueries.js'
import { isName, isWord, sqlTree, tableAt, type SqlItem } from './sql-tree.js'

/**
 * What in the compiled statement `sql` breaks on a cluster whose tables are
 * `tables` (README, *A cluster*), one message each; empty when nothing does:
 * - an IN or JOIN without GLOBAL, in a query every shard runs, over a
 *   Distributed table or a table only this node has (`needsGlobal`);
 * - EXISTS over one there (ClickHouse runs it as an IN, and it has no GLOBAL form);
 * - a comma join over one there (no GLOBAL form either: written as a JOIN, it can be);
 * - `ALTER TABLE ... UPDATE/DELETE`, `DELETE FROM`, `OPTIMIZE TABLE` or
 *   `EXCHANGE TABLES` naming a Distributed table (a Distributed table
 *   holds no rows: they go to its local tables `ON CLUSTER`).
 * Read structurally (`subquery-reads.ts`), not by searching the text.
 */
export function clusterSqlProblems(sql: string, tables: ClusterTables): string[] {
  const problems: string[] = []
  for (const read of subqueryReads(sql, tables)) {
    if (!read.shardQuery || read.global || !(read.reads.distributed || read.reads.initiator)) continue
    const what = read.reads.distributed ? 'a Distributed table' : "a table only this node has"
    const text = read.text.replace(/\s+/g, ' ').slice(0, 120)
    if (needsGlobal(read)) problems.push(`${read.kind.toUpperCase()} without GLOBAL over ${what} in a query every shard runs: ${text}`)
    else if (read.kind === 'exists') problems.push(`EXISTS over ${what} in a query every shard runs (no GLOBAL form): ${text}`)
    else problems.push(`a comma join over ${what} in a query every shard runs (no GLOBAL form; write a GLOBAL JOIN): ${text}`)
  }
  const mutated = mutatedTables(sqlTree(sql))
  for (const name of mutated) if (tables.distributed.has(name)) problems.push(`${sql.trim().split(/\s+/).slice(0, 2).join(' ').toUpperCase()} of the Distributed table ${name}: it goes to its local tables ON CLUSTER`)
  return problems
}

/** The tables a statement's rows change in place: mutations, deletes, OPTIMIZE and EXCHANGE. */
function mutatedTables(items: ReadonlyArray<SqlItem>): string[] {
  const name = (i: number): string[] => {
    const table = tableAt(items, i)
    return isName(table) ? [table.value] : []
  }
  if (isWord(items[0], 'alter') && isWord(items[1], 'table') && items.some((item) => isWord(item, 'update') || isWord(item, 'delete'))) return name(2)
  if (isWord(items[0], 'delete') && isWord(items[1], 'from')) return name(2)
  if (isWord(items[0], 'optimize') && isWord(items[1], 'table')) return name(2)
  if (isWord(items[0], 'exchange') && isWord(items[1], 'tables')) {
    const and = items.findIndex((item) => isWord(item, 'and'))
    return [...name(2), ...(and < 0 ? [] : name(and + 1))]
  }
  return []
}
