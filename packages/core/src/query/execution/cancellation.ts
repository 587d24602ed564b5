/**
 * The cancellation contract between core and the storage adapters.
 *
 * Core runs each analysis inside a query scope, which travels with the async
 * call through `AsyncLocalStorage`, so no query builder or service has to
 * pass it along. An adapter's connection asks `activeQueryScope()` when it
 * runs a statement and, if there is one, registers how to interrupt that
 * statement for as long as it runs (see `runInterruptible`).
 */
import { AsyncLocalStorage } from 'node:async_hooks'

/** Stops the statement now running on one connection. May be called again while that statement runs. */
export type Interrupt = () => void | Promise<void>

/** The cancellation scope of one analysis, as an adapter sees it. */
export interface QueryScope {
  /**
   * Aborted once the analysis is cancelled or times out. Its `reason` is the
   * error the analysis answers with (`QueryCancelledError`, `QueryTimeoutError`);
   * a statement of an aborted scope must fail with it, never start.
   */
  readonly signal: AbortSignal
  /**
   * Registers `interrupt` until the returned function is called. It is called
   * when the scope is aborted (at once if it already is). A rejection or throw
   * is ignored: the analysis has already answered, and the statement then
   * runs to its end with its result discarded.
   */
  onInterrupt(interrupt: Interrupt): () => void
}

const current = new AsyncLocalStorage<QueryScope>()

/** The scope of the analysis this code runs for, or undefined outside any analysis. */
export function activeQueryScope(): QueryScope | undefined {
  return current.getStore()
}

/**
 * Runs `fn` as if no scope were active. For what must happen even after a
 * cancel, e.g. the ROLLBACK that puts a connection back in the pool clean.
 */
export function outsideQueryScope<T>(fn: () => T): T {
  return current.exit(fn)
}

/**
 * A scope core creates, runs an analysis in and aborts. Internal to core:
 * adapters see it only as a `QueryScope`.
 */
export class CancellableQueryScope implements QueryScope {
  readonly #controller = new AbortController()
  readonly #interrupts = new Set<Interrupt>()
  readonly #onStatementStart: ((statement: Promise<unknown>) => void) | undefined

  /** `onStatementStart`: a test seam, see `QueryExecutorOptions.onStatementStart`. */
  constructor(onStatementStart?: (statement: Promise<unknown>) => void) {
    this.#onStatementStart = onStatementStart
  }

  get signal(): AbortSignal {
    return this.#controller.signal
  }

  onInterrupt(interrupt: Interrupt): () => void {
    if (this.signal.aborted) {
      callQuietly(interrupt)
      return () => {}
    }
    this.#interrupts.add(interrupt)
    return () => this.#interrupts.delete(interrupt)
  }

  /**
   * Runs `fn` with this scope active. A scope opened inside another one also
   * ends when the outer one is aborted, so cancelling an analysis reaches the
   * analyses it runs.
   */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const outer = current.getStore()
    if (!outer) return current.run(this, fn)
    const follow = () => this.abort(outer.signal.reason as Error)
    if (outer.signal.aborted) follow()
    outer.signal.addEventListener('abort', follow, { once: true })
    return current.run(this, fn).finally(() => outer.signal.removeEventListener('abort', follow))
  }

  /**
   * Called by `runInterruptible` when it has handed `statement` to the
   * database for this scope; tells the test seam, if any.
   */
  statementStarted(statement: Promise<unknown>): void {
    this.#onStatementStart?.(statement)
  }

  /** Aborts with `reason` and interrupts the statements running now. Later calls do nothing. */
  abort(reason: Error): void {
    if (this.signal.aborted) return
    this.#controller.abort(reason)
    const interrupts = [...this.#interrupts]
    this.#interrupts.clear()
    for (const interrupt of interrupts) callQuietly(interrupt)
  }
}

function callQuietly(interrupt: Interrupt): void {
  try {
    Promise.resolve(interrupt()).catch(() => {})
  } catch {
    // See QueryScope.onInterrupt: nothing is waiting for this.
  }
}
