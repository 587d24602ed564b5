import { randomUUID } from 'node:crypto'
import type { ClickHouseClient } from './clickhouse-dialect-config.js'
import type { ClickHouseExecutor, CompactResult } from './clickhouse-executor.js'
import { SESSION_SETTINGS } from './chdb-executor.js'

/** Options of `clientExecutor`. */
export interface ClientExecutorOptions {
  /** Settings every insert carries (a cluster's synchronous inserts). Default: none. */
  readonly insertSettings?: Readonly<Record<string, unknown>>
  /** The server session every request runs in. Default: none (each request on its own). */
  readonly sessionId?: string
}

/**
 * A ClickHouse server or cluster through `@clickhouse/client`. The settings
 * ride on every request (HTTP requests share no session), and the client is
 * the host's to close. `session()` gives an executor whose requests share a
 * new server session, for a statement's temporary tables: one session per
 * use, as ClickHouse refuses two requests at once in one session.
 */
export function clientExecutor(client: ClickHouseClient, options: ClientExecutorOptions = {}): ClickHouseExecutor {
  const settings = { ...SESSION_SETTINGS, wait_end_of_query: 1 }
  const session = options.sessionId === undefined ? {} : { session_id: options.sessionId }
  const insertSettings = options.insertSettings && Object.keys(options.insertSettings).length > 0 ? { clickhouse_settings: { ...options.insertSettings } } : {}
  return {
    sessionTables: options.sessionId !== undefined,
    async query(sql, params) {
      const result = await client.query({ query: sql, query_params: { ...params }, format: 'JSONCompact', clickhouse_settings: settings, ...session })
      return result.json<CompactResult>()
    },
    async command(sql, params) {
      await client.command({ query: sql, query_params: { ...params }, clickhouse_settings: settings, ...session })
    },
    async insertRows(table, columns, rows) {
      if (rows.length === 0) return 0
      await client.insert({ table, values: rows, format: 'JSONEachRow', columns: columns as [string, ...string[]], ...insertSettings })
      return rows.length
    },
    session: () => clientExecutor(client, { ...options, sessionId: randomUUID() }),
    async close() {},
  }
}
