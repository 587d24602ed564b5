/**
 * One test body for every driver of the Postgres storage: called inside a
 * `describe` whose `beforeAll` opened the harness. Effects are checked
 * through `raw`, reads that bypass the dialect under test.
 */
import { Migrator, sql } from 'kysely'
import type { ColumnType, Generated, Kysely } from 'kysely'
import { beforeAll, beforeEach, expect, it } from 'vitest'
import { CancellableQueryScope } from '../../../core/src/query/execution/cancellation.js'

export interface TestDatabase {
  items: { id: string; name: string; qty: Generated<number> }
  typed: {
    id: number
    i2: number | null
    i4: number | null
    i8: number | null
    num: number | null
    f4: number | null
    f8: number | null
    b: boolean | null
    t: string | null
    vc: string | null
    u: string | null
    tstz: string | null
    ts: string | null
    d: string | null
    // pg sends a JS array as a Postgres array, so JSON goes in as text.
    j: ColumnType<unknown, string | null, never>
    jb: ColumnType<unknown, string | null, never>
    a_text: (string | null)[] | null
    a_int8: number[] | null
    a_tstz: string[] | null
    a_uuid: string[] | null
  }
}

export interface DialectHarness {
  readonly db: Kysely<TestDatabase>
  /** A query through the driver itself, not the dialect. */
  readonly raw: (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>
}

const ID = {
  a: '00000000-0000-4000-8000-00000000000a',
  b: '00000000-0000-4000-8000-00000000000b',
  c: '00000000-0000-4000-8000-00000000000c',
}

const HOSTILE = `Robert'); drop table items; -- "quoted" \\backslash\\ $1 ? {a,b} NULL \u00e9\u2713\n\ttab`

/** What differs between the drivers under test, as facts the body asks about. */
export interface DialectTraits {
  /** One connection shared by all callers (PGlite), rather than a pool. */
  readonly oneConnection: boolean
  /** Whether `stream()` works; kysely's pg driver needs a pg-cursor for it. */
  readonly streams: boolean
}

export function dialectContract(harness: () => DialectHarness, traits: DialectTraits): void {
  const db = () => harness().db
  const raw = (text: string, params?: unknown[]) => harness().raw(text, params)
  const names = async () => (await raw('select name from items order by name')).map((row) => row['name'])

  beforeAll(async () => {
    await db().schema.dropTable('items').ifExists().execute()
    await db().schema.dropTable('typed').ifExists().execute()
    await db()
      .schema.createTable('items')
      .addColumn('id', 'uuid', (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull().unique())
      .addColumn('qty', 'int8', (col) => col.notNull().defaultTo(0))
      .execute()
    await sql`
      create table typed (
        id int4 primary key, i2 int2, i4 int4, i8 int8, num numeric, f4 float4, f8 float8,
        b bool, t text, vc varchar(20), u uuid, tstz timestamptz, ts timestamp, d date,
        j json, jb jsonb, a_text text[], a_int8 int8[], a_tstz timestamptz[], a_uuid uuid[]
      )`.execute(db())
  })

  beforeEach(async () => {
    await sql`truncate items, typed`.execute(db())
  })

  it('inserts, reads, updates and deletes through the query builder', async () => {
    const inserted = await db()
      .insertInto('items')
      .values([
        { id: ID.a, name: 'apple', qty: 3 },
        { id: ID.b, name: 'banana' },
      ])
      .returning(['id', 'name', 'qty'])
      .execute()
    expect(inserted).toEqual([
      { id: ID.a, name: 'apple', qty: 3 },
      { id: ID.b, name: 'banana', qty: 0 },
    ])

    expect(await db().selectFrom('items').select('name').where('qty', '>', 1).execute()).toEqual([{ name: 'apple' }])

    const updated = await db().updateTable('items').set({ qty: 7 }).where('id', '=', ID.b).executeTakeFirstOrThrow()
    expect(updated.numUpdatedRows).toBe(1n)
    expect(await raw('select qty::text as qty from items where id = $1', [ID.b])).toEqual([{ qty: '7' }])

    const deleted = await db().deleteFrom('items').where('id', '=', ID.a).executeTakeFirstOrThrow()
    expect(deleted.numDeletedRows).toBe(1n)
    expect(await names()).toEqual(['banana'])
  })

  it('counts rows as numbers', async () => {
    await db().insertInto('items').values({ id: ID.a, name: 'apple' }).execute()
    const row = await db().selectFrom('items').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()
    expect(row).toEqual({ n: 1 }) // count(*) is int8
  })

  it('skips a conflicting insert with ON CONFLICT DO NOTHING', async () => {
    await db().insertInto('items').values({ id: ID.a, name: 'apple', qty: 1 }).execute()
    const result = await db()
      .insertInto('items')
      .values({ id: ID.a, name: 'apricot', qty: 9 })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .execute()
    expect(result).toEqual([])
    expect(await raw('select name, qty::int4 as qty from items')).toEqual([{ name: 'apple', qty: 1 }])
  })

  it('updates a conflicting row with ON CONFLICT DO UPDATE', async () => {
    await db().insertInto('items').values({ id: ID.a, name: 'apple', qty: 1 }).execute()
    const result = await db()
      .insertInto('items')
      .values({ id: ID.a, name: 'apple', qty: 4 })
      .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ qty: eb('items.qty', '+', eb.ref('excluded.qty')) })))
      .returning(['id', 'qty'])
      .execute()
    expect(result).toEqual([{ id: ID.a, qty: 5 }])
  })

  it('makes a committed transaction visible', async () => {
    await db()
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('items').values({ id: ID.a, name: 'apple' }).execute()
        await trx.insertInto('items').values({ id: ID.b, name: 'banana' }).execute()
      })
    expect(await names()).toEqual(['apple', 'banana'])
  })

  it('leaves nothing of a transaction whose callback throws', async () => {
    const run = db()
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('items').values({ id: ID.a, name: 'apple' }).execute()
        throw new Error('boom')
      })
    await expect(run).rejects.toThrow('boom')
    expect(await names()).toEqual([])
  })

  it('rolls back the whole transaction when a statement fails', async () => {
    const run = db()
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('items').values({ id: ID.a, name: 'apple' }).execute()
        await trx.insertInto('items').values({ id: ID.b, name: 'apple' }).execute() // unique name
      })
    await expect(run).rejects.toThrow(/unique|duplicate/i)
    expect(await names()).toEqual([])
    // The connection is usable afterwards.
    await db().insertInto('items').values({ id: ID.c, name: 'cherry' }).execute()
    expect(await names()).toEqual(['cherry'])
  })

  it('commits and rolls back controlled transactions, with savepoints', async () => {
    const trx = await db().startTransaction().setIsolationLevel('serializable').execute()
    await trx.insertInto('items').values({ id: ID.a, name: 'apple' }).execute()
    const sp = await trx.savepoint('before banana').execute()
    await sp.insertInto('items').values({ id: ID.b, name: 'banana' }).execute()
    await sp.rollbackToSavepoint('before banana').execute()
    const level = await sql<{ level: string }>`select current_setting('transaction_isolation') as level`.execute(trx)
    expect(level.rows).toEqual([{ level: 'serializable' }])
    await trx.commit().execute()
    expect(await names()).toEqual(['apple'])

    const discarded = await db().startTransaction().execute()
    await discarded.insertInto('items').values({ id: ID.c, name: 'cherry' }).execute()
    await discarded.rollback().execute()
    expect(await names()).toEqual(['apple'])
  })

  it('keeps an open transaction from queries outside it', async () => {
    const trx = await db().startTransaction().execute()
    await trx.insertInto('items').values({ id: ID.a, name: 'apple' }).execute()
    let settled = false
    const outside = db()
      .selectFrom('items')
      .select('name')
      .execute()
      .finally(() => (settled = true))

    if (traits.oneConnection) {
      // The only connection is the transaction's: the query waits for it to end.
      await sleep(50)
      expect(settled).toBe(false)
      await trx.commit().execute()
      expect(await outside).toEqual([{ name: 'apple' }])
    } else {
      // Another connection, which must not see the uncommitted row.
      expect(await outside).toEqual([])
      await trx.commit().execute()
    }
  })

  it('normalises every covered type to its contract form', async () => {
    await db()
      .insertInto('typed')
      .values({
        id: 1,
        i2: -32768,
        i4: 2147483647,
        i8: Number.MAX_SAFE_INTEGER,
        num: 12345.678,
        f4: 1.5,
        f8: 0.1,
        b: true,
        t: 'héllo ✓',
        vc: 'varchar',
        u: 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11',
        tstz: '2026-01-01T10:00:00.123456Z',
        ts: '2026-01-01 10:00:00.5',
        d: '2026-02-28',
        j: JSON.stringify({ a: [1, 'x', null] }),
        jb: JSON.stringify({ b: { c: true }, list: [1, 2] }),
        a_text: ['a', 'b c', 'NULL', null, 'quote"back\\slash', '{}', '', 'comma,here'],
        a_int8: [1, -2, Number.MAX_SAFE_INTEGER],
        a_tstz: ['2026-01-01T10:00:00Z', '2026-06-01T00:00:00.5+02:00'],
        a_uuid: [ID.a, ID.b],
      })
      .execute()
    await db().insertInto('typed').values({ id: 2 }).execute()

    const rows = await db().selectFrom('typed').selectAll().orderBy('id').execute()
    expect(rows).toEqual([
      {
        id: 1,
        i2: -32768,
        i4: 2147483647,
        i8: 9007199254740991,
        num: 12345.678,
        f4: 1.5,
        f8: 0.1,
        b: true,
        t: 'héllo ✓',
        vc: 'varchar',
        u: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
        tstz: '2026-01-01T10:00:00.123456Z',
        ts: '2026-01-01T10:00:00.500000Z',
        d: '2026-02-28',
        j: { a: [1, 'x', null] },
        jb: { b: { c: true }, list: [1, 2] },
        a_text: ['a', 'b c', 'NULL', null, 'quote"back\\slash', '{}', '', 'comma,here'],
        a_int8: [1, -2, 9007199254740991],
        a_tstz: ['2026-01-01T10:00:00.000000Z', '2026-05-31T22:00:00.500000Z'],
        a_uuid: [ID.a, ID.b],
      },
      {
        id: 2,
        ...Object.fromEntries(Object.keys(rows[0]!).filter((k) => k !== 'id').map((k) => [k, null])),
      },
    ])
    // What was stored, read without the dialect's parsers.
    expect(
      await raw(
        `select tstz = '2026-01-01 10:00:00.123456+00' as tstz_ok, i8::text as i8, a_text[4] is null as null_ok,
                a_text[3] as null_string from typed where id = 1`,
      ),
    ).toEqual([{ tstz_ok: true, i8: '9007199254740991', null_ok: true, null_string: 'NULL' }])
  })

  it('runs its sessions without JIT compilation (analyses compiled longer than they ran)', async () => {
    const row = await sql<{ jit: string }>`select current_setting('jit') as jit`.execute(db())
    expect(row.rows).toEqual([{ jit: 'off' }])
  })

  it("plans an analysis's statements without nested loops, and only those", async () => {
    const nestloop = async () => (await sql<{ v: string }>`select current_setting('enable_nestloop') as v`.execute(db())).rows[0]!.v
    expect(await nestloop()).toBe('on')
    // Core runs every analysis in a query scope; two statements, as an analysis runs several.
    const inside = await new CancellableQueryScope().run(async () => [await nestloop(), await nestloop()])
    expect(inside).toEqual(['off', 'off'])
    expect(await nestloop()).toBe('on')
  })

  it('pads whole-second timestamps to six fractional digits', async () => {
    await db().insertInto('typed').values({ id: 1, tstz: '2026-01-01T10:00:00Z' }).execute()
    const row = await db().selectFrom('typed').select('tstz').executeTakeFirstOrThrow()
    expect(row).toEqual({ tstz: '2026-01-01T10:00:00.000000Z' })
  })

  it('reads timestamps in another session zone, BC and infinite ones', async () => {
    const rows = await db()
      .transaction()
      .execute(async (trx) => {
        await sql`set local time zone 'Asia/Kolkata'`.execute(trx)
        return (
          await sql<Record<string, unknown>>`
            select '2026-01-01 10:00:00.123456+00'::timestamptz as kolkata,
                   current_setting('TimeZone') as zone,
                   '0044-03-15 12:00:00+00 BC'::timestamptz as bc,
                   '0044-03-15 BC'::date as bc_date,
                   'infinity'::timestamptz as inf,
                   '-infinity'::date as minus_inf,
                   '10000-01-01 00:00:00'::timestamp as far`.execute(trx)
        ).rows
      })
    expect(rows).toEqual([
      {
        kolkata: '2026-01-01T10:00:00.123456Z',
        zone: 'Asia/Kolkata',
        bc: '-000043-03-15T12:00:00.000000Z',
        bc_date: '-000043-03-15',
        inf: 'infinity',
        minus_inf: '-infinity',
        far: '+010000-01-01T00:00:00.000000Z',
      },
    ])
    // SET LOCAL ended with the transaction: the session is back on UTC.
    const zone = await sql<{ zone: string }>`select current_setting('TimeZone') as zone`.execute(db())
    expect(zone.rows).toEqual([{ zone: 'UTC' }])
  })

  it('raises a RangeError for an int8 beyond 2^53 and for inexact numerics', async () => {
    await expect(sql`select 9007199254740993::int8 as big`.execute(db())).rejects.toThrow(RangeError)
    await expect(sql`select array[1, 9007199254740993]::int8[] as big`.execute(db())).rejects.toThrow(RangeError)
    await expect(sql`select -9007199254740992::int8 as big`.execute(db())).rejects.toThrow(RangeError)
    await expect(sql`select 10::numeric / 3 as third`.execute(db())).rejects.toThrow(RangeError)
    // The connection is usable afterwards, and the limits themselves pass.
    const ok = await sql`select 9007199254740991::int8 as max, (10 / 3::float8) as third, 2.50::numeric as n`.execute(db())
    expect(ok.rows).toEqual([{ max: 9007199254740991, third: 10 / 3, n: 2.5 }])
  })

  it('binds arrays: = ANY($1::text[]) and unnest bulk inserts', async () => {
    const ids = [ID.a, ID.b, ID.c]
    const values = ['apple', HOSTILE, 'a,b {c} "d"']
    const inserted = await sql<{ id: string }>`
      insert into items (id, name) select * from unnest(${ids}::uuid[], ${values}::text[]) returning id`.execute(db())
    expect(inserted.rows.map((row) => row.id).sort()).toEqual(ids)
    expect(inserted.numAffectedRows).toBe(3n)

    const found = await db()
      .selectFrom('items')
      .select(['id', 'name'])
      .where(sql<boolean>`name = any(${[HOSTILE, 'a,b {c} "d"', 'missing']}::text[])`)
      .orderBy('id')
      .execute()
    expect(found).toEqual([
      { id: ID.b, name: HOSTILE },
      { id: ID.c, name: 'a,b {c} "d"' },
    ])
    expect(await raw('select name from items where id = $1', [ID.b])).toEqual([{ name: HOSTILE }])
  })

  it('round-trips a hostile string as data', async () => {
    await db().insertInto('items').values({ id: ID.a, name: HOSTILE }).execute()
    expect(await db().selectFrom('items').select('name').where('name', '=', HOSTILE).execute()).toEqual([
      { name: HOSTILE },
    ])
    expect(await sql<{ v: string }>`select ${HOSTILE}::text as v`.execute(db()).then((r) => r.rows)).toEqual([
      { v: HOSTILE },
    ])
    expect(await raw(`select count(*)::int4 as n from information_schema.tables where table_name = 'items'`)).toEqual([
      { n: 1 },
    ])
  })

  it("runs kysely's Migrator, whose lock and transaction share one connection", async () => {
    const migrator = new Migrator({
      db: db(),
      migrationTableName: 'dialect_test_migration',
      migrationLockTableName: 'dialect_test_migration_lock',
      provider: {
        getMigrations: async () => ({
          '0001_notes': {
            up: async (trx) => {
              await trx.schema.createTable('notes').addColumn('id', 'int4', (col) => col.primaryKey()).execute()
            },
            down: async (trx) => {
              await trx.schema.dropTable('notes').execute()
            },
          },
        }),
      },
    })
    const up = await migrator.migrateToLatest()
    expect(up.error).toBeUndefined()
    expect(up.results?.map((r) => [r.migrationName, r.status])).toEqual([['0001_notes', 'Success']])
    expect(await raw(`select to_regclass('notes') is not null as exists`)).toEqual([{ exists: true }])

    const down = await migrator.migrateDown()
    expect(down.error).toBeUndefined()
    expect(await raw(`select to_regclass('notes') is not null as exists`)).toEqual([{ exists: false }])
  })

  it(traits.streams ? 'streams rows' : 'refuses to stream without a cursor', async () => {
    await db()
      .insertInto('items')
      .values([
        { id: ID.a, name: 'apple' },
        { id: ID.b, name: 'banana' },
      ])
      .execute()
    const stream = db().selectFrom('items').select('name').orderBy('name').stream(1)
    if (!traits.streams) {
      await expect(stream.next()).rejects.toThrow(/cursor/)
      return
    }
    const seen: string[] = []
    for await (const row of stream) seen.push(row.name)
    expect(seen).toEqual(['apple', 'banana'])
  })
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
