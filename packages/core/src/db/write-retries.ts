import type { EngineContext } from '../context.js'
import { runStorage } from './run.js'

/** Attempts of one write before its conflict is reported. */
const MAX_ATTEMPTS = 6

/**
 * Runs a write (one transaction) under the engine's write lock, retrying it
 * from the start when the storage reports a conflict with a concurrent writer
 * (another engine or process on the same database), with a short random
 * backoff. Errors are wrapped as `runStorage` does.
 */
export async function withWriteRetries<T>(ctx: EngineContext, what: string, write: () => Promise<T>): Promise<T> {
  return ctx.writeLock.run(async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await write()
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS || !ctx.driver.isWriteConflict(error)) return runStorage(what, () => Promise.reject(error))
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** attempt))
      }
    }
  })
}
