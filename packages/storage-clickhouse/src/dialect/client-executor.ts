import type { ClickHouseClient } from './clickhouse-dialect-config.js'
import type { ClickHouseExecutor, CompactResult } from './clickhouse-executor.js'
import { SESSION_SETTINGS } from './chdb-executor.js'

/**
 * A ClickHouse server or cluster through `@clickhouse/client`. The settings
 * ride on every request (HTTP requests share no session), and the client is
 * the host's to close.
 */
export function clientExecutor(client: ClickHouseClient): ClickHouseExecutor {
  const settings = { ...SESSION_SETTINGS, wait_end_of_query: 1 }
  return {
    sessionTables: false,
    async query(sql, params) {
      const result = await client.query({ query: sql, query_params: { ...params }, format: 'JSONCompact', clickhouse_settings: settings })
      return result.json<CompactResult>()
    },
    async command(sql, params) {
      await client.command({ query: sql, query_params: { ...params }, clickhouse_settings: settings })
    },
    async insertRows(table, columns, rows) {
      if (rows.length === 0) return 0
      await client.insert({ table, values: rows, format: 'JSONEachRow', columns: columns as [string, ...string[]] })
      return rows.length
    },
    async close() {},
  }
}
