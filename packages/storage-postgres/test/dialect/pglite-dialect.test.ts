import { PGlite } from '@electric-sql/pglite'
import { Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PGliteDialect } from '../../src/dialect/index.js'
import { dialectContract } from './dialect-contract.js'
import type { TestDatabase } from './dialect-contract.js'

describe('PGliteDialect', () => {
  // PGlite takes a couple of seconds to start: one instance for the file.
  let pglite: PGlite
  let db: Kysely<TestDatabase>

  beforeAll(async () => {
    pglite = new PGlite()
    db = new Kysely<TestDatabase>({ dialect: new PGliteDialect({ pglite }) })
  })

  afterAll(async () => {
    await db?.destroy()
    await pglite?.close()
  })

  dialectContract(
    () => ({ db, raw: async (text, params) => (await pglite.query<Record<string, unknown>>(text, params)).rows }),
    { oneConnection: true, streams: true },
  )

  it('does not run a query sent meanwhile inside an open transaction', async () => {
    const trx = await db.startTransaction().execute()
    await trx.insertInto('items').values({ id: '00000000-0000-4000-8000-000000000001', name: 'inside' }).execute()
    // One through the dialect, one straight to PGlite: both must wait, then
    // run outside the transaction, so the rollback does not take them along.
    const viaDialect = db.insertInto('items').values({ id: '00000000-0000-4000-8000-000000000002', name: 'dialect' }).execute()
    const direct = pglite.query(`insert into items (id, name) values ('00000000-0000-4000-8000-000000000003', 'direct')`)
    await trx.rollback().execute()
    await Promise.all([viaDialect, direct])

    const names = await pglite.query<{ name: string }>('select name from items order by name')
    expect(names.rows).toEqual([{ name: 'dialect' }, { name: 'direct' }])
  })

  it('serialises concurrent read-modify-write transactions', async () => {
    await db.insertInto('items').values({ id: '00000000-0000-4000-8000-000000000001', name: 'counter' }).execute()
    const increment = () =>
      db.transaction().execute(async (trx) => {
        const { qty } = await trx.selectFrom('items').select('qty').where('name', '=', 'counter').executeTakeFirstOrThrow()
        await new Promise((resolve) => setTimeout(resolve, 1)) // invite interleaving
        await trx.updateTable('items').set({ qty: qty + 1 }).where('name', '=', 'counter').execute()
      })
    await Promise.all([...Array(20)].map(increment))
    const { qty } = await db.selectFrom('items').select('qty').where('name', '=', 'counter').executeTakeFirstOrThrow()
    expect(qty).toBe(20)
  })

  it('leaves the PGlite instance open on destroy unless told to close it', async () => {
    const borrowed = new Kysely<TestDatabase>({ dialect: new PGliteDialect({ pglite }) })
    await sql`select 1`.execute(borrowed)
    await borrowed.destroy()
    expect(pglite.closed).toBe(false)
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }])

    const own = new PGlite()
    const owner = new Kysely<TestDatabase>({ dialect: new PGliteDialect({ pglite: own, closeOnDestroy: true }) })
    await sql`select 1`.execute(owner)
    await owner.destroy()
    expect(own.closed).toBe(true)
  })

  it('refuses a closed PGlite instance', async () => {
    const closed = new PGlite()
    await closed.close()
    const stale = new Kysely<TestDatabase>({ dialect: new PGliteDialect({ pglite: closed }) })
    await expect(sql`select 1`.execute(stale)).rejects.toThrow(/closed/)
  })
})
