import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'

/**
 * Runs `fn` in one transaction under the write lock. Every query inside takes
 * `trx`: PGlite has one connection, and the transaction holds it.
 */
export function writer(ctx: EngineContext) {
  return <T>(what: string, fn: (trx: EngineContext['db']) => Promise<T>): Promise<T> => {
    ctx.assertOpen()
    return ctx.writeLock.run(() => runStorage(what, () => ctx.db.transaction().execute(fn)))
  }
}
