import type { ClickHouseClient } from '@sightline/storage-clickhouse'
import type { CompactResult } from '../src/dialect/clickhouse-executor.js'

const NO_ROWS: CompactResult = { meta: [], data: [] }

/** One request a `recordingClient` received. */
export interface Recorded {
  readonly kind: 'query' | 'command' | 'insert'
  /** The SQL text, or for an insert the table. */
  readonly sql: string
  readonly params: Readonly<Record<string, unknown>>
  readonly settings: Readonly<Record<string, unknown>> | undefined
  readonly session: string | undefined
  /** An insert's rows. */
  readonly rows?: ReadonlyArray<Readonly<Record<string, unknown>>>
}

/**
 * A stand-in for `@clickhouse/client`'s subset that runs nothing: it records
 * every request (SQL, parameters, settings, session) and answers each query
 * with `answer(sql)`, or with no rows. For statements that cannot run
 * here (a cluster's), asserted by the SQL they would send.
 */
export function recordingClient(answer: (sql: string) => CompactResult | undefined = () => undefined): { client: ClickHouseClient; sent: Recorded[] } {
  const sent: Recorded[] = []
  const client: ClickHouseClient = {
    async query({ query, query_params, clickhouse_settings, session_id }) {
      sent.push({ kind: 'query', sql: query, params: query_params ?? {}, settings: clickhouse_settings, session: session_id })
      const result = answer(query) ?? NO_ROWS
      return { json: async <T>() => result as T }
    },
    async command({ query, query_params, clickhouse_settings, session_id }) {
      sent.push({ kind: 'command', sql: query, params: query_params ?? {}, settings: clickhouse_settings, session: session_id })
    },
    async insert({ table, values, clickhouse_settings }) {
      sent.push({ kind: 'insert', sql: table, params: {}, settings: clickhouse_settings, session: undefined, rows: values })
    },
  }
  return { client, sent }
}
