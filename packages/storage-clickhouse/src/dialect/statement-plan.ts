import { cteTables, type CteTables } from './cte-tables.js'
import { globalSubqueries } from './global-subqueries.js'

/**
 * The statements that answer the read `sql`: its CTEs read more than once
 * as tables named `prefix` + name (`cteTables`; none when no CTE is read
 * twice), then the query. On a cluster (`distributed`, the Distributed
 * tables; empty on one server) every one of them has GLOBAL IN and GLOBAL
 * JOIN where a query the shards run reads a Distributed table again or one
 * of these tables, which only the node running the statement has
 * (`globalSubqueries`).
 */
export function statementPlan(sql: string, prefix: string, distributed: ReadonlySet<string>): CteTables {
  const steps = cteTables(sql, prefix) ?? { tables: [], query: sql, drops: [] }
  if (distributed.size === 0) return steps
  const tables = { distributed, initiator: new Set(steps.drops) }
  return {
    tables: steps.tables.map(({ table, query }) => ({ table, query: globalSubqueries(query, tables) })),
    query: globalSubqueries(steps.query, tables),
    drops: steps.drops,
  }
}
