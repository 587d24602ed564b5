import type { OperationNode } from 'kysely'

/** The tables ClickHouse holds. Everything else lives in the companion store. */
export const CLICKHOUSE_TABLES: ReadonlySet<string> = new Set(['events'])

// A table named after FROM or JOIN, quoted or not. Core's raw SQL splits `from ${source}` across fragments,
// so this reads the whole statement as compiled, where user values are parameters and never text.
const NAMED_TABLE = /\b(?:from|join)\s+"?([a-z_][a-z0-9_]*)"?/gi
const READS = new Set(['SelectQueryNode', 'SetOperationNode'])

/**
 * True when the statement `node`, compiled to `sql` by any compiler, is a
 * read (a SELECT, or raw SQL starting with SELECT or WITH) of one of
 * `CLICKHOUSE_TABLES`: it then runs on ClickHouse. Writes and DDL of core
 * always run on the companion (core's own `events` table there stays
 * empty: the adapter writes events to ClickHouse itself).
 */
export function readsClickHouse(node: OperationNode, sql: string): boolean {
  if (!READS.has(node.kind) && !(node.kind === 'RawNode' && /^\s*\(?\s*(select|with)\b/i.test(sql))) return false
  for (const match of sql.matchAll(NAMED_TABLE)) if (CLICKHOUSE_TABLES.has(match[1]!.toLowerCase())) return true
  return false
}
