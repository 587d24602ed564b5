import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { Kysely } from 'kysely'
import { drainPending, Session } from 'chdb'
import { ClickHouseDialect } from '@sightline/storage-clickhouse'

/**
 * A chDB session in a new temporary directory, and how to close it (chDB holds one data directory a process);
 * `reopen` closes the session and opens a new one on the same data, as a restarted process would.
 */
export function openChdb(): { readonly session: Session; reopen(): Promise<void>; close(): Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-chdb-test-'))
  let session = new Session(join(dir, 'data'))
  return {
    get session() {
      return session
    },
    async reopen() {
      session.close()
      await drainPending()
      session = new Session(join(dir, 'data'))
    },
    async close() {
      session.close()
      await drainPending()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/**
 * A Kysely on `ClickHouseDialect` over a chDB session of its own, for the
 * describe block that calls it: opened before its tests, closed after them.
 */
export function chdbKysely<DB = any>(): () => Kysely<DB> {
  let chdb: ReturnType<typeof openChdb> | undefined
  let db: Kysely<DB> | undefined
  beforeAll(() => {
    chdb = openChdb()
    db = new Kysely<DB>({ dialect: new ClickHouseDialect({ session: chdb.session }) })
  })
  afterAll(async () => {
    await db?.destroy()
    await chdb?.close()
  })
  return () => db!
}
