import { ResultReturnType, StatementType } from '@duckdb/node-api'
import type { DuckDBType, DuckDBValue } from '@duckdb/node-api'
import type { CompiledQuery, DatabaseConnection, QueryResult } from 'kysely'
import { runInterruptible } from '@sightline/core/storage'

import type { DuckDBRawConnection } from './duckdb-dialect-config.js'
import { normalizeRows } from './normalize-rows.js'
import { PreparedStatements } from './prepared-statements.js'
import { toDuckDBParameters } from './to-duckdb-parameters.js'

const WRITE_STATEMENTS: ReadonlySet<number> = new Set([
  StatementType.INSERT,
  StatementType.UPDATE,
  StatementType.DELETE,
  StatementType.MERGE_INTO,
])

/**
 * One pooled DuckDB connection. Rows come back plain (see `normalizeRows`),
 * parameters are bound, never spliced into the SQL (see `toDuckDBParameters`),
 * to statements prepared once per connection (see `PreparedStatements`).
 * A statement run for a cancelled or timed-out analysis is stopped with
 * node-api's `interrupt()` (see `runInterruptible` in `@sightline/core/storage`).
 */
export class DuckDBConnection implements DatabaseConnection {
  /**
   * The node-api connection under this one. Adapters use it for the Appender
   * (bulk ingestion) inside a transaction: an appender created on the
   * transaction's connection, e.g. through
   * `trx.getExecutor().provideConnection(async (c) => (c as DuckDBConnection).raw.createAppender('events'))`,
   * writes into that transaction, so its rows commit or roll back with it.
   * Call `flushSync()` and `closeSync()` before the transaction ends: rows
   * still buffered in the appender are written when it is flushed, not when
   * the transaction commits.
   */
  readonly raw: DuckDBRawConnection

  readonly #interrupt: () => void
  readonly #prepared: PreparedStatements

  constructor(raw: DuckDBRawConnection) {
    this.raw = raw
    this.#interrupt = () => raw.interrupt()
    this.#prepared = new PreparedStatements(raw)
  }

  /** Frees the connection's prepared statements and disconnects it. */
  closeSync(): void {
    try {
      this.#prepared.clear()
    } finally {
      this.raw.disconnectSync()
    }
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const { values, types } = toDuckDBParameters(compiledQuery.parameters)

    return runInterruptible(this.#interrupt, async () => {
      try {
        return await this.#run<R>(compiledQuery.sql, values, types)
      } catch (error) {
        throw withCallerStack(error)
      }
    })
  }

  async #run<R>(sql: string, values: DuckDBValue[], types: DuckDBType[]): Promise<QueryResult<R>> {
    const result = await this.#prepared.run('run', sql, values, types)

    // A write without RETURNING answers with one "Count" row, which is not data.
    if (result.returnType === ResultReturnType.CHANGED_ROWS) {
      return { numAffectedRows: BigInt(result.rowsChanged), rows: [] }
    }

    const rows = normalizeRows(result.columnNames(), result.columnTypes(), await result.getRows()) as R[]

    // With RETURNING, DuckDB reports rowsChanged as 0; each written row is returned once.
    if (WRITE_STATEMENTS.has(result.statementType)) {
      return { numAffectedRows: BigInt(rows.length), rows }
    }

    return { rows }
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    if (!Number.isInteger(chunkSize) || chunkSize <= 0) {
      throw new RangeError('chunkSize must be a positive integer')
    }

    const { values, types } = toDuckDBParameters(compiledQuery.parameters)

    try {
      yield* this.#stream<R>(compiledQuery.sql, values, types, chunkSize)
    } catch (error) {
      throw withCallerStack(error)
    }
  }

  async *#stream<R>(
    sql: string,
    values: DuckDBValue[],
    types: DuckDBType[],
    chunkSize: number,
  ): AsyncIterableIterator<QueryResult<R>> {
    const result = await runInterruptible(this.#interrupt, () => this.#prepared.run('stream', sql, values, types))
    const columnNames = result.columnNames()
    const columnTypes = result.columnTypes()
    let pending: DuckDBValue[][] = []

    // DuckDB fetches chunks of its own size (2048 rows); Kysely asks for chunkSize.
    while (true) {
      // Each fetch computes rows, so each one can be interrupted.
      const chunk = await runInterruptible(this.#interrupt, () => result.fetchChunk())

      if (!chunk || chunk.rowCount === 0) {
        break
      }

      pending = pending.concat(chunk.getRows())
      let start = 0

      for (; pending.length - start >= chunkSize; start += chunkSize) {
        yield { rows: normalizeRows(columnNames, columnTypes, pending.slice(start, start + chunkSize)) as R[] }
      }

      pending = pending.slice(start)
    }

    if (pending.length > 0) {
      yield { rows: normalizeRows(columnNames, columnTypes, pending) as R[] }
    }
  }
}

// node-api rejects from a native callback, so its errors carry no JS frames.
// An Error made after the await has V8's async stack: the query's caller.
function withCallerStack(error: unknown): unknown {
  const callerStack = new Error().stack

  if (error instanceof Error && callerStack) {
    // Drop the lines for "Error" and for this function.
    error.stack = `${error.stack ?? String(error)}\n${callerStack.split('\n').slice(2).join('\n')}`
  }

  return error
}
