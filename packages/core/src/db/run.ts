import { isSightlineError, StorageError } from '../errors.js'

const failedSql = new WeakMap<object, string>()

/** Kysely `log` hook: remembers the SQL of a failing query so the wrapped error can show it. */
export function rememberFailedSql(event: { level: string; error?: unknown; query: { sql: string } }): void {
  if (event.level === 'error' && typeof event.error === 'object' && event.error !== null) {
    failedSql.set(event.error, event.query.sql)
  }
}

/**
 * Runs a storage operation, turning driver errors into `StorageError` with the
 * failing SQL and the original error as `cause`. Sightline's own errors pass through.
 */
export async function runStorage<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    if (isSightlineError(error)) throw error
    const sql = typeof error === 'object' && error !== null ? failedSql.get(error) : undefined
    const reason = error instanceof Error ? error.message : String(error)
    throw new StorageError(`${what} failed: ${reason}`, sql, { cause: error })
  }
}
