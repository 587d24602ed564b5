/**
 * Several dialects on one PGlite instance, as two engines with their own
 * schemas in one embedded database: PGlite has one session, so each driver's
 * `search_path` must be the one in force whenever it runs a statement.
 */
import { PGlite } from '@electric-sql/pglite'
import { Kysely, sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { CancellableQueryScope } from '../../../core/src/query/execution/cancellation.js'
import { PGliteDialect } from '../../src/dialect/index.js'

interface Db {
  notes: { text: string }
}

let pglite: PGlite
beforeAll(async () => {
  pglite = await PGlite.create()
  await pglite.exec('create schema a; create schema b; create table a.notes (text text); create table b.notes (text text); create table public.notes (text text)')
})
afterAll(async () => pglite?.close())

const texts = async (schema: string) => (await pglite.query<{ text: string }>(`select text from ${schema}.notes order by text`)).rows.map((r) => r.text)

it('each driver writes and reads its own schema, whichever driver ran last', async () => {
  const a = new Kysely<Db>({ dialect: new PGliteDialect({ pglite, schema: 'a' }) })
  const b = new Kysely<Db>({ dialect: new PGliteDialect({ pglite, schema: 'b' }) })
  const plain = new Kysely<Db>({ dialect: new PGliteDialect({ pglite }) })
  try {
    // Each driver sets its path when it starts; the last to start used to hold the session for all.
    await a.selectFrom('notes').selectAll().execute()
    await b.selectFrom('notes').selectAll().execute()
    await plain.selectFrom('notes').selectAll().execute()

    await a.insertInto('notes').values({ text: 'from a' }).execute()
    await b.insertInto('notes').values({ text: 'from b' }).execute()
    await plain.insertInto('notes').values({ text: 'from the default path' }).execute()
    // Interleaved: a transaction of a, with b's statements sent meanwhile.
    await Promise.all([
      a.transaction().execute(async (trx) => {
        await trx.insertInto('notes').values({ text: 'a, in a transaction' }).execute()
        await sql`select pg_sleep(0.01)`.execute(trx)
        await trx.insertInto('notes').values({ text: 'a, later in it' }).execute()
      }),
      b.insertInto('notes').values({ text: 'b, meanwhile' }).execute(),
    ])

    expect(await texts('a')).toEqual(['a, in a transaction', 'a, later in it', 'from a'])
    expect(await texts('b')).toEqual(['b, meanwhile', 'from b'])
    expect(await texts('public')).toEqual(['from the default path'])
    expect((await a.selectFrom('notes').select('text').orderBy('text').execute()).map((r) => r.text)).toEqual(['a, in a transaction', 'a, later in it', 'from a'])
    expect((await plain.selectFrom('notes').select('text').execute()).map((r) => r.text)).toEqual(['from the default path'])
  } finally {
    await Promise.all([a.destroy(), b.destroy(), plain.destroy()])
  }
})

it("one driver's analysis planner is the session's: another driver's statement outside an analysis, and the host after close, plan as before", async () => {
  const a = new Kysely<Db>({ dialect: new PGliteDialect({ pglite, schema: 'a' }) })
  const b = new Kysely<Db>({ dialect: new PGliteDialect({ pglite, schema: 'b' }) })
  const nestloop = sql<{ v: string }>`select current_setting('enable_nestloop') as v`
  try {
    await pglite.query('set enable_nestloop = on')
    // a's analysis takes the planner settings, and b's analysis finds them taken (it must not record 'off' as the value to put back).
    expect((await new CancellableQueryScope().run(() => nestloop.execute(a))).rows).toEqual([{ v: 'off' }])
    expect((await new CancellableQueryScope().run(() => nestloop.execute(b))).rows).toEqual([{ v: 'off' }])
    expect((await nestloop.execute(b)).rows).toEqual([{ v: 'on' }])
    // Taken again, then the engine closes: the host's instance gets its planner back.
    expect((await new CancellableQueryScope().run(() => nestloop.execute(a))).rows).toEqual([{ v: 'off' }])
  } finally {
    await Promise.all([a.destroy(), b.destroy()])
  }
  expect((await pglite.query<{ v: string }>("select current_setting('enable_nestloop') as v")).rows).toEqual([{ v: 'on' }])
})

it('an analysis transaction that rolls back takes its planner settings with it, and the next analysis sets them again', async () => {
  const a = new Kysely<Db>({ dialect: new PGliteDialect({ pglite, schema: 'a' }) })
  const nestloop = sql<{ v: string }>`select current_setting('enable_nestloop') as v`
  try {
    await pglite.query('set enable_nestloop = on')
    const failed = new CancellableQueryScope().run(() =>
      a.transaction().execute(async (trx) => {
        expect((await nestloop.execute(trx)).rows).toEqual([{ v: 'off' }])
        throw new Error('rolled back')
      }),
    )
    await expect(failed).rejects.toThrow('rolled back')
    // The rollback put 'on' back; the next analysis must not take the settings for held.
    expect((await new CancellableQueryScope().run(() => nestloop.execute(a))).rows).toEqual([{ v: 'off' }])
    expect((await nestloop.execute(a)).rows).toEqual([{ v: 'on' }])
  } finally {
    await a.destroy()
  }
})
