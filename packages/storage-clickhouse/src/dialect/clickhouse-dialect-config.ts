/**
 * The subset of chDB's `Session` (npm `chdb`) the dialect uses, so that the
 * host picks chDB's version and tests can pass a stand-in.
 */
export interface ChdbSession {
  queryBindAsync(query: string, params: object, opts?: { format?: string }): Promise<{ text(): string }>
  queryAsync(query: string, opts?: { format?: string }): Promise<{ text(): string }>
  insert(params: { table: string; values: string | Buffer; format: 'JSONEachRow'; columns?: ReadonlyArray<string> }): Promise<{ rowsWritten: number }>
}

/**
 * The subset of `@clickhouse/client`'s `ClickHouseClient` the dialect uses.
 * `session_id` names the server session a request runs in (temporary tables
 * live as long as it); absent, the request has none of its own.
 */
export interface ClickHouseClient {
  query(params: {
    query: string
    query_params?: Record<string, unknown>
    format: 'JSONCompact'
    clickhouse_settings?: Record<string, unknown>
    session_id?: string
  }): Promise<{ json<T>(): Promise<T> }>
  command(params: { query: string; query_params?: Record<string, unknown>; clickhouse_settings?: Record<string, unknown>; session_id?: string }): Promise<unknown>
  insert(params: {
    table: string
    values: ReadonlyArray<Readonly<Record<string, unknown>>>
    format: 'JSONEachRow'
    columns?: [string, ...string[]]
    clickhouse_settings?: Record<string, unknown>
  }): Promise<unknown>
}

/** Where `ClickHouseDialect` runs its SQL: an open chDB session or a client of a ClickHouse server. */
export type ClickHouseDialectConfig = { readonly session: ChdbSession } | { readonly client: ClickHouseClient }
