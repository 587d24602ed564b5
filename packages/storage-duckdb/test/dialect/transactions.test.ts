import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { openTestDb } from './open-test-db.js'
import type { TestDb } from './open-test-db.js'

describe('transactions', () => {
  let t: TestDb

  beforeEach(async () => {
    t = await openTestDb()
    await t.db.schema
      .createTable('item')
      .addColumn('id', 'integer', (col) => col.primaryKey())
      .addColumn('qty', 'integer')
      .execute()
  })

  afterEach(async () => {
    await t.close()
  })

  const count = async () => (await t.rawQuery('select count(*)::integer as n from item'))[0]?.n

  it('makes committed writes visible to other connections, and only after commit', async () => {
    await t.db.transaction().execute(async (trx) => {
      await trx.insertInto('item').values({ id: 1, qty: 1 }).execute()
      expect(await trx.selectFrom('item').select('id').execute()).toEqual([{ id: 1 }])
      expect(await count()).toBe(0)
    })

    expect(await count()).toBe(1)
  })

  it('rolls back when the callback throws, and rethrows the error', async () => {
    const failure = new Error('boom')

    await expect(
      t.db.transaction().execute(async (trx) => {
        await trx.insertInto('item').values({ id: 1, qty: 1 }).execute()
        throw failure
      }),
    ).rejects.toBe(failure)

    expect(await count()).toBe(0)
  })

  it('rolls back when a statement inside fails', async () => {
    await expect(
      t.db.transaction().execute(async (trx) => {
        await trx.insertInto('item').values({ id: 1, qty: 1 }).execute()
        await trx.insertInto('item').values({ id: 1, qty: 2 }).execute()
      }),
    ).rejects.toThrow(/[Dd]uplicate key/)

    expect(await count()).toBe(0)
  })

  it('commits and rolls back controlled transactions', async () => {
    const committed = await t.db.startTransaction().execute()
    await committed.insertInto('item').values({ id: 1, qty: 1 }).execute()
    await committed.commit().execute()

    const rolledBack = await t.db.startTransaction().execute()
    await rolledBack.insertInto('item').values({ id: 2, qty: 1 }).execute()
    await rolledBack.rollback().execute()

    expect(await t.rawQuery('select id from item')).toEqual([{ id: 1 }])
  })

  it('rolls back DDL too (transactional DDL)', async () => {
    await expect(
      t.db.transaction().execute(async (trx) => {
        await trx.schema.createTable('scratch').addColumn('id', 'integer').execute()
        throw new Error('undo')
      }),
    ).rejects.toThrow('undo')

    expect(await t.rawQuery("select count(*)::integer as n from information_schema.tables where table_name = 'scratch'")).toEqual([
      { n: 0 },
    ])
  })

  it('throws a clear error for an isolation level, which DuckDB cannot set', async () => {
    await expect(
      t.db
        .transaction()
        .setIsolationLevel('serializable')
        .execute(async () => {}),
    ).rejects.toThrow('DuckDB does not support isolation level "serializable"')
  })

  it('supports the read only access mode', async () => {
    await expect(
      t.db
        .transaction()
        .setAccessMode('read only')
        .execute(async (trx) => {
          await trx.insertInto('item').values({ id: 1, qty: 1 }).execute()
        }),
    ).rejects.toThrow(/read-only/)
  })

  it("leaves savepoints to Kysely's own not-supported error", async () => {
    const trx = await t.db.startTransaction().execute()

    await expect(trx.savepoint('before').execute()).rejects.toThrow(
      'The `savepoint` method is not supported by this driver',
    )
    await trx.rollback().execute()
  })

  it('fails the later of two transactions writing the same row (DuckDB is optimistic, it does not wait)', async () => {
    await t.db.insertInto('item').values({ id: 1, qty: 0 }).execute()
    const first = await t.db.startTransaction().execute()
    const second = await t.db.startTransaction().execute()

    await first.updateTable('item').set({ qty: 1 }).execute()
    await expect(second.updateTable('item').set({ qty: 2 }).execute()).rejects.toThrow(/[Cc]onflict/)

    await first.commit().execute()
    await second.rollback().execute()
    expect(await t.rawQuery('select qty from item')).toEqual([{ qty: 1 }])
  })
})
