import { CompiledQuery, sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { openTestDb } from './open-test-db.js'
import type { TestDb } from './open-test-db.js'

describe('parameter binding', () => {
  let t: TestDb

  beforeEach(async () => {
    t = await openTestDb()
  })

  afterEach(async () => {
    await t.close()
  })

  const bind = async (value: unknown) =>
    (await sql<{ v: unknown; type: string }>`select ${value} as v, typeof(${value}) as type`.execute(t.db)).rows[0]

  it.each([
    ['a string', 'héllo', { v: 'héllo', type: 'VARCHAR' }],
    ['an empty string', '', { v: '', type: 'VARCHAR' }],
    ['a small integer', 42, { v: 42, type: 'INTEGER' }],
    ['a negative integer', -7, { v: -7, type: 'INTEGER' }],
    ['an integer beyond 32 bits', 2 ** 40, { v: 2 ** 40, type: 'BIGINT' }],
    ['a fraction', 1.5, { v: 1.5, type: 'DOUBLE' }],
    ['true', true, { v: true, type: 'BOOLEAN' }],
    ['false', false, { v: false, type: 'BOOLEAN' }],
    ['null', null, { v: null, type: '"NULL"' }],
    ['a bigint', 10n, { v: 10, type: 'BIGINT' }],
    ['a Date', new Date('2026-01-01T10:00:00.123Z'), { v: '2026-01-01T10:00:00.123000Z', type: 'TIMESTAMP WITH TIME ZONE' }],
    ['a string array', ['a', 'b'], { v: ['a', 'b'], type: 'VARCHAR[]' }],
    ['an empty array', [], { v: [], type: '"NULL"[]' }],
    ['a number array, widened', [1, 2.5], { v: [1, 2.5], type: 'DOUBLE[]' }],
    ['an array with nulls', [null, 'x'], { v: [null, 'x'], type: 'VARCHAR[]' }],
  ])('binds %s', async (_, value, expected) => {
    expect(await bind(value)).toEqual(expected)
  })

  it('binds a bigint beyond 64 bits as HUGEINT', async () => {
    const { rows } = await sql`select typeof(${2n ** 70n}) as type, ${2n ** 70n} = 1180591620717411303424::HUGEINT as same`.execute(
      t.db,
    )

    expect(rows).toEqual([{ type: 'HUGEINT', same: true }])
  })

  it('binds a Uint8Array as BLOB', async () => {
    const row = await bind(new Uint8Array([0, 255, 97]))

    expect(row?.type).toBe('BLOB')
    expect([...(row?.v as Uint8Array)]).toEqual([0, 255, 97])
  })

  it('binds a plain object as JSON text, which a JSON column stores and returns parsed', async () => {
    await t.db.schema.createTable('doc').addColumn('body', 'json').execute()
    const body = { name: 'Ada', tags: ['x'], nested: { n: 1, none: null } }

    await t.db.insertInto('doc').values({ body }).execute()

    expect(await t.db.selectFrom('doc').select('body').execute()).toEqual([{ body }])
    expect(await t.rawQuery('select body::varchar as text from doc')).toEqual([{ text: JSON.stringify(body) }])
    expect(await bind({ a: 1 })).toEqual({ v: '{"a":1}', type: 'VARCHAR' })
  })

  it('matches a string array with = ANY($1) and IN (SELECT unnest($1))', async () => {
    await t.db.schema.createTable('tag').addColumn('name', 'varchar').execute()
    await t.db.insertInto('tag').values([{ name: 'a' }, { name: 'b' }, { name: 'c' }]).execute()

    const anyOf = await t.db
      .selectFrom('tag')
      .select('name')
      .where('name', '=', sql<string>`any(${['a', 'c']})`)
      .orderBy('name')
      .execute()
    const inUnnest = await t.db
      .selectFrom('tag')
      .select('name')
      .where('name', 'in', sql<string>`(select unnest(${['b']}))`)
      .execute()
    const none = await t.db
      .selectFrom('tag')
      .select('name')
      .where('name', '=', sql<string>`any(${[]})`)
      .execute()

    expect(anyOf).toEqual([{ name: 'a' }, { name: 'c' }])
    expect(inUnnest).toEqual([{ name: 'b' }])
    expect(none).toEqual([])
    expect((await sql`select 3 = any(${[]}) as hit, 3 = any(${[1, 3]}) as hit_number`.execute(t.db)).rows).toEqual([
      { hit: false, hit_number: true },
    ])
  })

  it('binds a Date as an instant, whatever the session time zone', async () => {
    const local = await openTestDb({
      onCreateConnection: async (connection) => {
        await connection.executeQuery(CompiledQuery.raw("SET TimeZone = 'America/New_York'"))
      },
    })

    try {
      const { rows } = await sql`select ${new Date('2026-07-01T12:00:00.000Z')} as at, TIMESTAMPTZ '2026-07-01 08:00:00-04' as literal, current_setting('TimeZone') as zone`.execute(
        local.db,
      )

      expect(rows).toEqual([
        { at: '2026-07-01T12:00:00.000000Z', literal: '2026-07-01T12:00:00.000000Z', zone: 'America/New_York' },
      ])
    } finally {
      await local.close()
    }
  })

  it('round-trips a hostile string as data, never as SQL', async () => {
    const hostile = "'; DROP TABLE x; --"
    await t.db.schema.createTable('x').addColumn('name', 'varchar').execute()

    const query = t.db.insertInto('x').values({ name: hostile })
    expect(query.compile().sql).toBe('insert into "x" ("name") values ($1)')
    await query.execute()

    expect(await t.db.selectFrom('x').select('name').where('name', '=', hostile).execute()).toEqual([{ name: hostile }])
    expect(await t.rawQuery('select name from x')).toEqual([{ name: hostile }])
  })

  it('throws a TypeError naming the parameter for a value it cannot bind', async () => {
    await expect(sql`select ${new Map([['a', 1]])} as v`.execute(t.db)).rejects.toThrow(
      'parameter $1: cannot bind a Map to DuckDB',
    )
    await expect(sql`select ${1} as a, ${['a', 1]} as v`.execute(t.db)).rejects.toThrow(
      'parameter $2: cannot bind a list mixing VARCHAR and INTEGER',
    )
    await expect(sql`select ${new Date(Number.NaN)} as v`.execute(t.db)).rejects.toThrow('parameter $1: invalid Date')
  })
})
