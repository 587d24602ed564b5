import { randomUUID } from 'node:crypto'
import type { CompiledQuery, DatabaseConnection, QueryResult } from 'kysely'
import type { ClickHouseExecutor } from './clickhouse-executor.js'
import { createTable, mayQualifyColumns } from './cte-tables.js'
import { statementPlan } from './statement-plan.js'
import { normalizeRows } from './normalize-rows.js'

const NONE: ReadonlySet<string> = new Set()
const RETURNS_ROWS = /^\s*(\(\s*)*(select|with|show|describe|desc|explain|exists)\b/i

/**
 * A connection of `ClickHouseDriver`: ClickHouse has no connection state
 * the dialect relies on (settings come with the executor), so every
 * connection shares the driver's executor.
 */
export class ClickHouseConnection implements DatabaseConnection {
  constructor(
    readonly executor: ClickHouseExecutor,
    private readonly jsonColumns?: ReadonlySet<string>,
    /** The Distributed tables of a cluster (`statementPlan`). Default: none, one server. */
    private readonly distributed: ReadonlySet<string> = NONE,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const params = Object.fromEntries(compiled.parameters.map((value, i) => [`p${i + 1}`, value]))
    if (!RETURNS_ROWS.test(compiled.sql)) {
      await this.executor.command(compiled.sql, params)
      return { rows: [] }
    }
    const steps = statementPlan(compiled.sql, `sightline_cte_${randomUUID().replaceAll('-', '')}_`, this.distributed)
    if (steps.tables.length === 0) return { rows: normalizeRows(await this.executor.query(steps.query, params), this.jsonColumns) as R[] }
    // CTEs read more than once become tables for the statement's run (see cteTables), dropped however it ends.
    // On a server, in a session of their own: temporary tables, on the node that runs the statement (a proxy routes a
    // session to one node), gone with the session if this process dies. chDB's session keeps them already.
    const executor = this.executor.session?.() ?? this.executor
    // Temporary tables where they outlive the statement (chDB: a quarter of the cost of a table's DDL).
    const temporary = executor.sessionTables
    try {
      for (const { table, query } of steps.tables) {
        const columns = mayQualifyColumns(query) ? (await executor.query(`describe (${query})`, params)).data.map((row) => String(row[0])) : null
        await executor.command(createTable(table, query, columns, temporary), params)
      }
      return { rows: normalizeRows(await executor.query(steps.query, params), this.jsonColumns) as R[] }
    } finally {
      for (const table of steps.drops) await executor.command(`drop ${temporary ? 'temporary ' : ''}table if exists ${table}`, {}).catch(() => {})
    }
  }

  async *streamQuery<R>(compiled: CompiledQuery, chunkSize = 1000): AsyncIterableIterator<QueryResult<R>> {
    // Neither driver's subset streams typed rows yet: the result is read whole, then handed out in chunks.
    const { rows } = await this.executeQuery<R>(compiled)
    for (let i = 0; i < rows.length; i += chunkSize) yield { rows: rows.slice(i, i + chunkSize) }
  }
}
