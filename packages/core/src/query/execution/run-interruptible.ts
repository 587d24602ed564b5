import { activeQueryScope, CancellableQueryScope, type Interrupt } from './cancellation.js'

/**
 * When `interrupt` is called again while the statement has not stopped: after
 * 50 ms, then twice as long each time, at most every second. DuckDB and
 * Postgres both drop an interrupt that arrives before the statement has
 * started executing (DuckDB clears it when a query begins, Postgres ignores a
 * cancel while it waits for a command), and a statement sent a moment earlier
 * may not have started yet.
 */
const FIRST_RETRY_MS = 50
const MAX_RETRY_MS = 1000

/**
 * Runs one statement of an adapter's connection under the active query
 * scope; outside any scope, just runs it.
 *
 * Inside a scope: an aborted scope refuses the statement at once with its
 * reason. While the statement runs, `interrupt` is registered; once the scope
 * is aborted it is called, and again (after 50 ms, backing off to every
 * second) until the statement settles.
 * The returned promise settles only after the last call has returned, so the
 * connection is never handed to another caller with an interrupt in flight.
 * When the scope was aborted, the statement's result or error is replaced by
 * the scope's reason.
 *
 * `interrupt` undefined: the database cannot stop a statement. It runs to its
 * end, and its result is discarded if the scope was aborted meanwhile.
 */
export async function runInterruptible<T>(interrupt: Interrupt | undefined, statement: () => Promise<T>): Promise<T> {
  const scope = activeQueryScope()
  if (!scope) return statement()
  scope.signal.throwIfAborted()

  let done = false
  let markDone!: () => void
  const settled = new Promise<void>((resolve) => (markDone = resolve))
  let interrupting: Promise<void> | undefined
  const unregister = interrupt
    ? scope.onInterrupt(() => {
        interrupting = interruptUntilSettled(interrupt, () => done, settled)
      })
    : () => {}

  try {
    const running = statement()
    // For the test seam QueryExecutorOptions.onStatementStart; every scope core runs is one of these.
    if (scope instanceof CancellableQueryScope) scope.statementStarted(running)
    const result = await running
    scope.signal.throwIfAborted()
    return result
  } catch (error) {
    scope.signal.throwIfAborted()
    throw error
  } finally {
    done = true
    markDone()
    unregister()
    await interrupting
  }
}

async function interruptUntilSettled(interrupt: Interrupt, isDone: () => boolean, settled: Promise<void>): Promise<void> {
  for (let wait = FIRST_RETRY_MS; !isDone(); wait = Math.min(wait * 2, MAX_RETRY_MS)) {
    try {
      await interrupt()
    } catch {
      // The database could not be told (a closed pool, say): the statement
      // runs to its end and its result is discarded, as without an interrupt.
      return
    }
    await pause(wait, settled)
  }
}

function pause(ms: number, settled: Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    void settled.then(() => {
      clearTimeout(timer)
      resolve()
    })
  })
}
