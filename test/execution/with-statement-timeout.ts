/**
 * A dialect whose statements run under core's query executor, one statement
 * at a time, with the production analysis timeout: for the hand-built engine
 * context of the funnel suites (test/funnels/support/engine.ts), which call
 * `runFunnel` directly and so bypass `sightline.query`'s executor (the trend,
 * retention, paths and correlation suites go through `sightline.query`). Without it a stuck
 * statement waits for vitest's timeout, which reports no query and, inside a
 * fast-check property, no seed either.
 */
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult } from 'kysely'
import { QueryTimeoutError } from '../../packages/core/src/errors.js'
import { activeQueryScope } from '../../packages/core/src/query/execution/cancellation.js'
import { DEFAULT_QUERY_TIMEOUT_MS, QueryExecutor, type QueryExecutorOptions } from '../../packages/core/src/query/execution/query-executor.js'

/**
 * The bound on one statement of the test engines: production's analysis
 * timeout (60 s) unless `SIGHTLINE_TEST_STATEMENT_TIMEOUT_MS` says otherwise.
 * The statements of the reference suites take milliseconds.
 */
export const TEST_STATEMENT_TIMEOUT_MS = Number(process.env.SIGHTLINE_TEST_STATEMENT_TIMEOUT_MS ?? DEFAULT_QUERY_TIMEOUT_MS)

/** A statement stopped by `withStatementTimeout`'s bound; its message holds the SQL and its parameters. */
export class StatementTimeoutError extends Error {
  constructor(
    readonly timeoutMs: number,
    readonly sql: string,
    readonly parameters: ReadonlyArray<unknown>,
    cause: unknown,
  ) {
    super(`${what(timeoutMs)}: ${sql}\n-- parameters: ${JSON.stringify(parameters, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`, { cause })
    this.name = 'StatementTimeoutError'
  }
}

const what = (timeoutMs: number) => `a statement ran longer than ${timeoutMs} ms and was stopped (the test engines' bound, SIGHTLINE_TEST_STATEMENT_TIMEOUT_MS)`

/** The executor's test seams, for the test of this file; default: real timers. */
type Seams = Pick<QueryExecutorOptions, 'startTimeout' | 'onStatementStart'>

/**
 * `dialect` with every statement and every wait for a connection run through
 * a `QueryExecutor` of `timeoutMs`: past it, the statement is interrupted as
 * a timed-out analysis's is (DuckDB's interrupt, pg_cancel_backend; PGlite
 * stops between statements) and fails with `StatementTimeoutError`. The
 * error is thrown only once the database has answered, so the connection
 * never goes back to the pool with a statement still running on it.
 * Statements run inside another executor's analysis keep that analysis's
 * cancel and timeout too; its reasons pass through unchanged.
 */
export function withStatementTimeout(dialect: Dialect, timeoutMs: number = TEST_STATEMENT_TIMEOUT_MS, seams: Seams = {}): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => new TimedDriver(dialect.createDriver(), new Bound(timeoutMs, seams)),
  }
}

/** Runs one piece of database work under the executor and names it when the bound stopped it. */
class Bound {
  readonly #executor: QueryExecutor
  readonly timeoutMs: number

  constructor(timeoutMs: number, seams: Seams) {
    this.timeoutMs = timeoutMs
    // One "project" for every statement, never limited: the bound is all that is wanted here.
    this.#executor = new QueryExecutor({ timeoutMs, maxConcurrentPerProject: Number.MAX_SAFE_INTEGER, ...seams })
  }

  /**
   * `start()` under the bound. The executor answers at once when the bound
   * passes; this waits for the work itself to settle first. `onLate` gets a
   * result the work produced after it was given up (a connection to release).
   */
  async run<T>(start: () => Promise<T>, named: (error: unknown) => Error, onLate?: (value: T) => void): Promise<T> {
    let work: Promise<T> | undefined
    try {
      return await this.#executor.run(0, undefined, () => (work = start()))
    } catch (error) {
      const outer = activeQueryScope()?.signal.aborted ?? false
      if (work) await work.then(onLate, () => {})
      if (error instanceof QueryTimeoutError && error.timeoutMs === this.timeoutMs && !outer) throw named(error)
      throw error
    }
  }
}

class TimedDriver implements Driver {
  readonly #inner: Driver
  readonly #bound: Bound
  readonly #unwrapped = new WeakMap<DatabaseConnection, DatabaseConnection>()

  constructor(inner: Driver, bound: Bound) {
    this.#inner = inner
    this.#bound = bound
    // Savepoints exist only where the inner driver has them (kysely checks for the methods).
    if (inner.savepoint) this.savepoint = (c, name, compile) => inner.savepoint!(this.#of(c), name, compile)
    if (inner.rollbackToSavepoint) this.rollbackToSavepoint = (c, name, compile) => inner.rollbackToSavepoint!(this.#of(c), name, compile)
    if (inner.releaseSavepoint) this.releaseSavepoint = (c, name, compile) => inner.releaseSavepoint!(this.#of(c), name, compile)
  }

  savepoint?: Driver['savepoint']
  rollbackToSavepoint?: Driver['rollbackToSavepoint']
  releaseSavepoint?: Driver['releaseSavepoint']

  init(): Promise<void> {
    return this.#inner.init()
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const timeoutMs = this.#bound.timeoutMs
    const inner = await this.#bound.run(
      () => this.#inner.acquireConnection(),
      (cause) => new Error(`waiting for a connection took longer than ${timeoutMs} ms (the test engines' bound): one was never released`, { cause }),
      (late) => void this.#inner.releaseConnection(late),
    )
    const wrapper = new TimedConnection(inner, this.#bound)
    this.#unwrapped.set(wrapper, inner)
    return wrapper
  }

  beginTransaction(connection: DatabaseConnection, settings: Parameters<Driver['beginTransaction']>[1]): Promise<void> {
    return this.#inner.beginTransaction(this.#of(connection), settings)
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.commitTransaction(this.#of(connection))
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.rollbackTransaction(this.#of(connection))
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.#inner.releaseConnection(this.#of(connection))
  }

  destroy(): Promise<void> {
    return this.#inner.destroy()
  }

  #of(connection: DatabaseConnection): DatabaseConnection {
    return this.#unwrapped.get(connection) ?? connection
  }
}

class TimedConnection implements DatabaseConnection {
  readonly #inner: DatabaseConnection
  readonly #bound: Bound

  constructor(inner: DatabaseConnection, bound: Bound) {
    this.#inner = inner
    this.#bound = bound
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.#bound.run(
      () => this.#inner.executeQuery<R>(query),
      (cause) => new StatementTimeoutError(this.#bound.timeoutMs, query.sql, query.parameters, cause),
    )
  }

  // Streams are not bounded: the analyses under test read whole results.
  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.#inner.streamQuery<R>(query, chunkSize)
  }
}
