import { ConcurrencyLimitError, ConflictError, QueryCancelledError, QueryTimeoutError } from '../../errors.js'
import { CancellableQueryScope } from './cancellation.js'
import { FairSlots } from './fair-slots.js'

/** PostHog's default query timeout ("The default timeout for a query on ClickHouse is 60s", posthog/clickhouse/client/limit.py). */
export const DEFAULT_QUERY_TIMEOUT_MS = 60_000
/** PostHog's limit on concurrent API queries (`max_concurrency=3` in posthog/clickhouse/client/limit.py). */
export const DEFAULT_MAX_CONCURRENT_PER_PROJECT = 3

/**
 * Analyses running at once in one engine, all projects together. Two: an
 * embedded database already spreads one analysis over every core, and
 * DuckDB's calls run on libuv's pool of four threads, so more analyses at
 * once only make every statement, small ones included, wait longer.
 */
export const DEFAULT_MAX_CONCURRENT = 2

/** The longest timeout a timer can wait for (about 24.8 days). */
export const MAX_TIMEOUT_MS = 2_147_483_647

export interface QueryExecutorOptions {
  /** How long one analysis may run before it is stopped with `QueryTimeoutError`. */
  readonly timeoutMs: number
  /** How many analyses one project may run at once; one more is refused with `ConcurrencyLimitError`. */
  readonly maxConcurrentPerProject: number
  /**
   * How many analyses run at once, all projects together; more wait for a
   * slot (inside their timeout), granted to projects in turn. Default: no limit.
   */
  readonly maxConcurrent?: number
  /**
   * Test seam, for Sightline's own tests (this class is internal to core):
   * starts the timer of one analysis, which calls `onTimeout` once `timeoutMs`
   * has passed, and returns what stops that timer. Default: `setTimeout` and
   * `clearTimeout`. A test keeps `onTimeout` and calls it at a point it
   * chooses (while a statement is known to run, say) instead of racing a real
   * timer against the analysis.
   */
  readonly startTimeout?: (onTimeout: () => void, timeoutMs: number) => () => void
  /**
   * Test seam, for Sightline's own tests: called synchronously each time an
   * analysis of this executor hands a statement to its database through
   * `runInterruptible`, past the check that the analysis still runs (so that
   * statement runs), with the statement's own outcome: its rows, or the
   * database's error, e.g. its "interrupted", before a stopped analysis's
   * reason replaces them. A test can cancel while a statement is known to
   * run, and tell a statement the database stopped from one that ran to its
   * end. It must not throw. Statements of an analysis run inside this one
   * (another executor's) report to that executor's hook.
   */
  readonly onStatementStart?: (statement: Promise<unknown>) => void
}

const startRealTimeout = (onTimeout: () => void, timeoutMs: number): (() => void) => {
  const timer = setTimeout(onTimeout, timeoutMs)
  return () => clearTimeout(timer)
}

interface ProjectRuns {
  /** Analyses whose work has not settled yet, cancelled or not: what the limit counts. */
  working: number
  /** Scopes of the analyses that have not answered yet, by client_query_id. */
  readonly byClientQueryId: Map<string, CancellableQueryScope>
}

/**
 * Runs analyses under control: each in its own query scope (see
 * `cancellation.ts`), with a timeout, a per-project concurrency limit and
 * cancellation by the client's query id. In-process: a cancel reaches the
 * analyses this executor runs, not those of another process sharing the database.
 */
export class QueryExecutor {
  readonly #timeoutMs: number
  readonly #maxConcurrentPerProject: number
  readonly #projects = new Map<number, ProjectRuns>()
  readonly #slots: FairSlots
  readonly #startTimeout: NonNullable<QueryExecutorOptions['startTimeout']>
  readonly #onStatementStart: QueryExecutorOptions['onStatementStart']

  constructor(options: QueryExecutorOptions) {
    // setTimeout fires at once for delays beyond 2^31 - 1 ms, which would time out every query.
    if (!Number.isInteger(options.timeoutMs) || options.timeoutMs < 1 || options.timeoutMs > MAX_TIMEOUT_MS) {
      throw new RangeError(`timeoutMs must be an integer from 1 to ${MAX_TIMEOUT_MS}, got ${options.timeoutMs}`)
    }
    if (!Number.isInteger(options.maxConcurrentPerProject) || options.maxConcurrentPerProject < 1) {
      throw new RangeError(`maxConcurrentPerProject must be a positive integer, got ${options.maxConcurrentPerProject}`)
    }
    this.#timeoutMs = options.timeoutMs
    this.#maxConcurrentPerProject = options.maxConcurrentPerProject
    // FairSlots refuses a maxConcurrent that is no positive integer.
    this.#slots = new FairSlots(options.maxConcurrent ?? Number.POSITIVE_INFINITY)
    this.#startTimeout = options.startTimeout ?? startRealTimeout
    this.#onStatementStart = options.onStatementStart
  }

  /**
   * Runs `fn`, one analysis of `projectId`, and answers with its result, or with:
   * - `ConflictError` (attr `client_query_id`), at once, when an analysis with
   *   that `clientQueryId` is still running in the project (PostHog refuses a
   *   second query with a running query's id);
   * - `ConcurrencyLimitError`, at once, when the project already runs
   *   `maxConcurrentPerProject` analyses (ours and not yet settled cancelled ones);
   * - `QueryTimeoutError` as soon as `timeoutMs` has passed, time spent
   *   waiting for one of the `maxConcurrent` slots included;
   * - `QueryCancelledError` as soon as `cancel` was called with its id.
   * Stopped analyses answer at once; their running statement is interrupted,
   * and their slot is freed when the database has actually stopped.
   */
  async run<T>(projectId: number, clientQueryId: string | undefined, fn: () => Promise<T>): Promise<T> {
    const runs = this.#projects.get(projectId) ?? { working: 0, byClientQueryId: new Map() }
    if (clientQueryId !== undefined && runs.byClientQueryId.has(clientQueryId)) {
      throw new ConflictError(`a query with client_query_id ${JSON.stringify(clientQueryId)} is already running in this project`, 'client_query_id')
    }
    if (runs.working >= this.#maxConcurrentPerProject) {
      throw new ConcurrencyLimitError(projectId, this.#maxConcurrentPerProject)
    }

    const scope = new CancellableQueryScope(this.#onStatementStart)
    this.#projects.set(projectId, runs)
    runs.working++
    if (clientQueryId !== undefined) runs.byClientQueryId.set(clientQueryId, scope)
    const stopTimeout = this.#startTimeout(() => scope.abort(new QueryTimeoutError(this.#timeoutMs)), this.#timeoutMs)

    const work = scope.run(async () => {
      // A free slot is taken at once, so the analysis starts as run() is called, as without the limit.
      const release = this.#slots.tryAcquire(projectId) ?? (await this.#slots.acquire(projectId, scope.signal))
      try {
        return await fn()
      } finally {
        release()
      }
    })
    void work
      .catch(() => {
        // A stopped analysis has answered with the scope's reason already.
      })
      .finally(() => {
        stopTimeout()
        runs.working--
        this.#forgetIfIdle(projectId, runs)
      })

    try {
      return await Promise.race([work, rejectOnAbort(scope.signal)])
    } finally {
      // The id is the client's request: free as soon as that request has its answer.
      if (clientQueryId !== undefined && runs.byClientQueryId.get(clientQueryId) === scope) {
        runs.byClientQueryId.delete(clientQueryId)
        this.#forgetIfIdle(projectId, runs)
      }
    }
  }

  /**
   * Cancels the analysis of `projectId` started with `clientQueryId`: it
   * answers `QueryCancelledError` at once and its running statement is
   * interrupted. Resolves to false when no such analysis is running (never
   * started, already answered, or another project's), which is not an error.
   */
  async cancel(projectId: number, clientQueryId: string): Promise<boolean> {
    const scope = this.#projects.get(projectId)?.byClientQueryId.get(clientQueryId)
    if (!scope) return false
    scope.abort(new QueryCancelledError(clientQueryId))
    return true
  }

  #forgetIfIdle(projectId: number, runs: ProjectRuns): void {
    if (runs.working === 0 && runs.byClientQueryId.size === 0 && this.#projects.get(projectId) === runs) {
      this.#projects.delete(projectId)
    }
  }
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason)
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true })
  })
}
