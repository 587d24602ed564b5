import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Kysely } from 'kysely'

import type { DuckDBConnection } from '../../src/dialect/index.js'
import { openTestDb } from './open-test-db.js'
import type { TestDb } from './open-test-db.js'

/** Appends rows through the node-api Appender on the connection that runs `db` (a transaction's). */
async function appendEvents(db: Kysely<any>, names: readonly string[]): Promise<void> {
  await db.getExecutor().provideConnection(async (connection) => {
    const appender = await (connection as DuckDBConnection).raw.createAppender('event')

    for (const [i, name] of names.entries()) {
      appender.appendInteger(i)
      appender.appendVarchar(name)
      appender.endRow()
    }

    appender.flushSync()
    appender.closeSync()
  })
}

describe('the Appender through DuckDBConnection.raw', () => {
  let t: TestDb

  beforeEach(async () => {
    t = await openTestDb()
    await t.db.schema.createTable('event').addColumn('id', 'integer').addColumn('name', 'varchar').execute()
  })

  afterEach(async () => {
    await t.close()
  })

  const count = async () => (await t.rawQuery('select count(*)::integer as n from event'))[0]?.n

  it('writes into the transaction: invisible outside until commit, then committed with it', async () => {
    await t.db.transaction().execute(async (trx) => {
      await appendEvents(trx, ['a', 'b', 'c'])

      expect(await trx.selectFrom('event').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirst()).toEqual({ n: 3 })
      expect(await count()).toBe(0)
    })

    expect(await count()).toBe(3)
  })

  it('is rolled back with the transaction', async () => {
    await expect(
      t.db.transaction().execute(async (trx) => {
        await trx.insertInto('event').values({ id: 100, name: 'through Kysely' }).execute()
        await appendEvents(trx, ['a', 'b'])
        throw new Error('abort ingestion')
      }),
    ).rejects.toThrow('abort ingestion')

    expect(await count()).toBe(0)
  })

  it('is rolled back by an explicit ROLLBACK after flushSync', async () => {
    const trx = await t.db.startTransaction().execute()
    await appendEvents(trx, ['a', 'b'])
    await trx.rollback().execute()

    expect(await count()).toBe(0)
  })

  it('does not cover rows still buffered when the transaction ends: they land later, outside it', async () => {
    const trx = await t.db.startTransaction().execute()
    const appender = await trx.getExecutor().provideConnection(async (connection) =>
      (connection as DuckDBConnection).raw.createAppender('event'),
    )
    appender.appendInteger(1)
    appender.appendVarchar('buffered')
    appender.endRow()

    await trx.rollback().execute()
    expect(await count()).toBe(0)

    // closeSync flushes, now in autocommit: the row survives the rollback.
    appender.closeSync()
    expect(await count()).toBe(1)
  })
})
