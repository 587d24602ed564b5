import { Kysely } from 'kysely'
import { afterAll, beforeAll } from 'vitest'
import type { SqlHooks } from '@sightline/core/storage'
import type { ConformanceTarget } from '../conformance/target.js'

/**
 * A Kysely on a fresh database of `target`, through the adapter's own
 * dialect, and the adapter's hooks: for the describe block that calls it,
 * opened before its tests and closed after them. For contract tests of one
 * dialect hook, which need no Sightline tables.
 */
export function dialectDb(target: ConformanceTarget): { db(): Kysely<any>; hooks(): SqlHooks } {
  let db: Kysely<any> | undefined
  let hooks: SqlHooks | undefined
  let close: (() => Promise<void>) | undefined
  beforeAll(async () => {
    const fresh = await target.fresh()
    const adapter = fresh.storage()
    // ClickHouse: straight to ClickHouse, where the hooks' SQL runs (a statement naming no events would go to the companion).
    const direct = await fresh.analysisDatabase?.()
    const driver = direct === undefined ? await adapter.open() : undefined
    db = new Kysely<any>({ dialect: direct?.dialect ?? driver!.dialect })
    hooks = direct?.sql ?? adapter.sql
    close = async () => {
      await db!.destroy()
      await driver?.close()
      await fresh.dispose()
    }
  })
  afterAll(() => close?.())
  return { db: () => db!, hooks: () => hooks! }
}
