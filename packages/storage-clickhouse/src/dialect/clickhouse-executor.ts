/** A result as ClickHouse's `JSONCompact` format gives it: column names and types, then rows of values. */
export interface CompactResult {
  readonly meta: ReadonlyArray<{ readonly name: string; readonly type: string }>
  readonly data: ReadonlyArray<ReadonlyArray<unknown>>
}

/**
 * What the dialect needs of a ClickHouse driver: the one seam between the
 * dialect and chDB or `@clickhouse/client` (`chdb-executor.ts`,
 * `client-executor.ts`). Parameters are bound by ClickHouse itself
 * (`{p1:String}` in the SQL, values by name).
 */
export interface ClickHouseExecutor {
  /** Runs a statement that returns rows. */
  query(sql: string, params: Readonly<Record<string, unknown>>): Promise<CompactResult>
  /** Runs a statement whose result is not read (DDL, INSERT ... SELECT). */
  command(sql: string, params: Readonly<Record<string, unknown>>): Promise<void>
  /** Inserts rows, each an object of `columns` with values as ClickHouse's JSON input reads them, into `table`. Resolves to the rows sent. */
  insertRows(table: string, columns: ReadonlyArray<string>, rows: ReadonlyArray<Readonly<Record<string, unknown>>>): Promise<number>
  /**
   * Whether a `CREATE TEMPORARY TABLE` outlives its statement, for the next
   * ones to read: true in a chDB session; a server's HTTP requests share no
   * session.
   */
  readonly sessionTables: boolean
  /**
   * An executor whose statements share one server session of their own, so
   * that a temporary table outlives its statement (`sessionTables` true
   * there). Absent where statements share a session already (chDB).
   */
  session?(): ClickHouseExecutor
  /** Releases what the executor opened itself (never a session or client the host passed). Safe to call twice. */
  close(): Promise<void>
}
