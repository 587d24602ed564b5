import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { organizationWrites, writeTransaction, type WriteKey } from '../db/write-retries.js'
import { projectOrganization } from './plugin-rows.js'

/**
 * Runs `fn` in one transaction under `key`'s write lock. Every query inside
 * takes `trx`: PGlite has one connection, and the transaction holds it.
 */
export function writer(ctx: EngineContext) {
  return <T>(key: WriteKey, what: string, fn: (trx: EngineContext['db']) => Promise<T>): Promise<T> => {
    ctx.assertOpen()
    return writeTransaction(ctx, key, what, fn)
  }
}

/**
 * `writer` for a project's plugin configs: they lock the project's
 * organization, not the project, because deleting a plugin (under the
 * organization's key) removes its configs in every project of it; under two
 * keys, a config created meanwhile would outlive its plugin. A project never
 * changes organization, so the lookup before the lock stays true.
 */
export function projectPluginWriter(ctx: EngineContext) {
  const write = writer(ctx)
  return async <T>(projectId: number, what: string, fn: (trx: EngineContext['db']) => Promise<T>): Promise<T> => {
    ctx.assertOpen()
    const organizationId = await runStorage('find project', () => projectOrganization(ctx.db, projectId))
    return write(organizationWrites(organizationId), what, fn)
  }
}
