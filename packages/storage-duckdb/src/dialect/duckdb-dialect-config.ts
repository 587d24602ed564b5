import type { DuckDBAppender, DuckDBType, DuckDBValue } from '@duckdb/node-api'

import type { DuckDBConnection } from './duckdb-connection.js'

/**
 * Config for the DuckDB dialect.
 */
export interface DuckDBDialectConfig {
  /**
   * An open instance, e.g. `await DuckDBInstance.create(':memory:')`.
   *
   * The dialect opens its connections from it and closes them on
   * `db.destroy()`; it never closes the instance, which belongs to the caller.
   */
  readonly instance: DuckDBInstance

  /**
   * The most connections open at once; queries beyond it wait for a free one.
   *
   * Defaults to 4.
   */
  readonly poolSize?: number

  /**
   * Called once for each connection, after it is opened and before its first
   * query: the place for per-connection `SET` or `LOAD` statements. An error
   * fails the query that asked for the connection, and the connection is closed.
   */
  readonly onCreateConnection?: (connection: DuckDBConnection) => Promise<void>
}

/**
 * The subset of `@duckdb/node-api`'s `DuckDBInstance` that the dialect needs.
 *
 * The instance, connection and result are described here rather than taken
 * from node-api's classes, so that the dialect depends only on the members it
 * calls and tests can wrap or fake them; values and types are node-api's own.
 */
export interface DuckDBInstance {
  connect(): Promise<DuckDBRawConnection>
}

/**
 * The subset of `@duckdb/node-api`'s `DuckDBConnection` that the dialect and
 * its adapter need.
 */
export interface DuckDBRawConnection {
  run(sql: string, values?: DuckDBValue[], types?: DuckDBType[]): Promise<DuckDBRawResult>
  stream(sql: string, values?: DuckDBValue[], types?: DuckDBType[]): Promise<DuckDBRawResult>
  createAppender(table: string, schema?: string | null): Promise<DuckDBAppender>
  /** Prepares one statement for repeated runs; optional, so that a fake connection may leave it out (every statement is then run as text). */
  prepare?(sql: string): Promise<DuckDBRawPrepared>
  /** Stops the statement this connection runs now, which then rejects; one not yet started is not affected. */
  interrupt(): void
  disconnectSync(): void
}

/** The subset of `@duckdb/node-api`'s `DuckDBPreparedStatement` that the dialect needs. */
export interface DuckDBRawPrepared {
  bind(values: DuckDBValue[], types?: DuckDBType[]): void
  run(): Promise<DuckDBRawResult>
  stream(): Promise<DuckDBRawResult>
  destroySync(): void
}

/**
 * The subset of `@duckdb/node-api`'s `DuckDBResult` that the dialect needs.
 */
export interface DuckDBRawResult {
  /** 1 (`CHANGED_ROWS`) for a write without RETURNING, 3 (`QUERY_RESULT`) for rows. */
  readonly returnType: number
  /** DuckDB's `StatementType`: 2 INSERT, 3 UPDATE, 5 DELETE, 30 MERGE_INTO, ... */
  readonly statementType: number
  /** Rows written by a statement without RETURNING; 0 otherwise. */
  readonly rowsChanged: number
  columnNames(): string[]
  columnTypes(): DuckDBType[]
  getRows(): Promise<DuckDBValue[][]>
  /** The next chunk of a streaming result, or `null` (or an empty chunk) at the end. */
  fetchChunk(): Promise<DuckDBRawChunk | null>
}

/**
 * The subset of `@duckdb/node-api`'s `DuckDBDataChunk` that the dialect needs.
 */
export interface DuckDBRawChunk {
  readonly rowCount: number
  getRows(): DuckDBValue[][]
}
