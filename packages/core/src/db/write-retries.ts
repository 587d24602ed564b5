import type { EngineContext } from '../context.js'
import { isSightlineError } from '../errors.js'
import { runStorage } from './run.js'

/**
 * Attempts of one write before its conflict is reported. Engines (or
 * processes) writing the same rows can beat each other several times in a
 * row; twelve attempts with capped backoff wait at most about 3 s in all.
 */
const MAX_ATTEMPTS = 12
/** The longest backoff between two attempts, in milliseconds. */
const MAX_BACKOFF_MS = 400

/**
 * What a write serialises on (`EngineContext.writeLocks`): writes with one key
 * run one at a time, in call order; writes with different keys run
 * concurrently. A key must cover every row its writes read to decide and
 * then change: a project's key covers its persons, groups, definitions,
 * events, insights, dashboards, actions, cohorts, insight cache and
 * settings; an organization's its plugins and the plugin configs of its
 * projects; the global key users and memberships, which span organizations.
 */
export type WriteKey = `project:${number}` | `organization:${string}` | 'global'

export const projectWrites = (projectId: number): WriteKey => `project:${projectId}`
export const organizationWrites = (organizationId: string): WriteKey => `organization:${organizationId}`
export const GLOBAL_WRITES: WriteKey = 'global'

/**
 * Runs a write under its key's lock, retrying it from the start when the
 * storage reports a conflict with a concurrent writer (a write of another key
 * in this engine, or another engine or process on the same database), with a
 * short random backoff. `write` must hold at most one connection at a time
 * (one transaction, or statements one after another), so that writes of one
 * key never take more than one connection of the pool. Errors are wrapped as
 * `runStorage` does; Sightline's own errors are never retried.
 */
export async function withWriteRetries<T>(ctx: EngineContext, key: WriteKey, what: string, write: () => Promise<T>): Promise<T> {
  return ctx.writeLocks.run(key, async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await write()
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS || isSightlineError(error) || !ctx.driver.isWriteConflict(error)) return runStorage(what, () => Promise.reject(error))
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(MAX_BACKOFF_MS, 5 * 2 ** attempt)))
      }
    }
  })
}

/** `withWriteRetries` of one transaction: every query inside takes `trx`, so the write holds one connection. */
export function writeTransaction<T>(ctx: EngineContext, key: WriteKey, what: string, fn: (trx: EngineContext['db']) => Promise<T>): Promise<T> {
  return withWriteRetries(ctx, key, what, () => ctx.db.transaction().execute(fn))
}
