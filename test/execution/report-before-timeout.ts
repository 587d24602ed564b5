/**
 * fast-check options for a property whose test vitest stops after
 * `timeoutMs`: fast-check stops 20 s before and counts the stop as a
 * failure, so a stuck run, or a failure still shrinking (each shrink of the
 * reference properties loads a dataset again), reports its seed and
 * counterexample instead of vitest's bare "Test timed out".
 */
export function reportBeforeTimeout(timeoutMs: number): { readonly interruptAfterTimeLimit: number; readonly markInterruptAsFailure: true } {
  return { interruptAfterTimeLimit: Math.max(1_000, timeoutMs - 20_000), markInterruptAsFailure: true }
}
