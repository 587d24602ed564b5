import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { openTestDb } from './open-test-db.js'
import type { TestDb } from './open-test-db.js'

// Expected values are written out by hand from the SQL literals.
describe('row normalisation', () => {
  let t: TestDb

  beforeAll(async () => {
    t = await openTestDb()
  })

  afterAll(async () => {
    await t.close()
  })

  const selectOne = async (expression: string) =>
    (await sql<{ v: unknown }>`select ${sql.raw(expression)} as v`.execute(t.db)).rows[0]?.v

  describe('integers and decimals become numbers', () => {
    it.each([
      ['(-128)::TINYINT', -128],
      ['32767::SMALLINT', 32767],
      ['(-2147483648)::INTEGER', -2147483648],
      ['255::UTINYINT', 255],
      ['65535::USMALLINT', 65535],
      ['4294967295::UINTEGER', 4294967295],
      ['9007199254740991::BIGINT', 9007199254740991],
      ['(-9007199254740991)::BIGINT', -9007199254740991],
      ['9007199254740991::UBIGINT', 9007199254740991],
      ['123::HUGEINT', 123],
      ['123::UHUGEINT', 123],
      ['1.25::DECIMAL(10,2)', 1.25],
      ['-0.1::DECIMAL(18,3)', -0.1],
      ['12345678901234.56::DECIMAL(38,2)', 12345678901234.56],
    ])('%s', async (expression, expected) => {
      expect(await selectOne(expression)).toBe(expected)
    })

    it('gives count(*) (BIGINT) and sum of integers (HUGEINT) as numbers', async () => {
      const { rows } = await sql`select count(*) as n, sum(x) as total from (values (1), (2), (3)) t(x)`.execute(t.db)
      expect(rows).toEqual([{ n: 3, total: 6 }])
    })

    it.each([
      ['9007199254740992::BIGINT', '9007199254740992'],
      ['(-9007199254740992)::BIGINT', '-9007199254740992'],
      ['18446744073709551615::UBIGINT', '18446744073709551615'],
      ['170141183460469231731687303715884105727::HUGEINT', '170141183460469231731687303715884105727'],
    ])('throws a RangeError naming the column for %s, beyond MAX_SAFE_INTEGER', async (expression, digits) => {
      const query = sql`select ${sql.raw(expression)} as big_column`.execute(t.db)

      await expect(query).rejects.toThrow(RangeError)
      await expect(sql`select ${sql.raw(expression)} as big_column`.execute(t.db)).rejects.toThrow(
        `column "big_column": integer ${digits} is beyond Number.MAX_SAFE_INTEGER`,
      )
    })

    it('throws a RangeError naming the column for a DECIMAL with more digits than a number holds', async () => {
      await expect(sql`select 123456789012345678.5::DECIMAL(38,1) as amount`.execute(t.db)).rejects.toThrow(
        /^column "amount": DECIMAL 123456789012345678.5 has more digits than a number holds/,
      )
    })
  })

  describe('scalars', () => {
    it.each([
      ['1.5::DOUBLE', 1.5],
      ['-0.25::FLOAT', -0.25],
      ["'NaN'::DOUBLE", Number.NaN],
      ['true', true],
      ['false', false],
      ["'héllo'::VARCHAR", 'héllo'],
      ["'b'::ENUM('a', 'b')", 'b'],
      ["'6F9619FF-8B86-D011-B42D-00C04FC964FF'::UUID", '6f9619ff-8b86-d011-b42d-00c04fc964ff'],
      ['NULL', null],
      ['NULL::INTEGER', null],
      ['NULL::TIMESTAMPTZ', null],
      ['NULL::JSON', null],
    ])('%s', async (expression, expected) => {
      expect(await selectOne(expression)).toEqual(expected)
    })

    it('gives BLOB as a Uint8Array', async () => {
      const value = await selectOne("'\\x00\\xFFab'::BLOB")

      expect(value).toBeInstanceOf(Uint8Array)
      expect([...(value as Uint8Array)]).toEqual([0x00, 0xff, 0x61, 0x62])
    })
  })

  describe('timestamps become ISO 8601 UTC with six fractional digits', () => {
    it.each([
      ["TIMESTAMPTZ '2026-01-01 10:00:00.123456+00'", '2026-01-01T10:00:00.123456Z'],
      ["TIMESTAMPTZ '2026-01-01 12:00:00.123456+02'", '2026-01-01T10:00:00.123456Z'],
      ["TIMESTAMP '2026-01-01 10:00:00.123456'", '2026-01-01T10:00:00.123456Z'],
      ["TIMESTAMP '2026-01-01 10:00:00'", '2026-01-01T10:00:00.000000Z'],
      ["TIMESTAMP '1969-12-31 23:59:59.999999'", '1969-12-31T23:59:59.999999Z'],
      ["TIMESTAMP '1900-02-28 00:00:00.000001'", '1900-02-28T00:00:00.000001Z'],
      ["TIMESTAMP_S '2026-01-01 10:00:07'", '2026-01-01T10:00:07.000000Z'],
      ["TIMESTAMP_MS '2026-01-01 10:00:00.123'", '2026-01-01T10:00:00.123000Z'],
      ["TIMESTAMP_NS '2026-01-01 10:00:00.123456'", '2026-01-01T10:00:00.123456Z'],
      ["'infinity'::TIMESTAMPTZ", 'infinity'],
      ["'-infinity'::TIMESTAMP", '-infinity'],
    ])('%s', async (expression, expected) => {
      expect(await selectOne(expression)).toBe(expected)
    })

    it('reads back exactly the instant written as an ISO string, to the microsecond', async () => {
      await t.db.schema.createTable('ts_round_trip').addColumn('at', 'timestamptz').execute()
      await t.db.insertInto('ts_round_trip').values({ at: '2026-01-01T10:00:00.123456Z' }).execute()

      expect(await t.db.selectFrom('ts_round_trip').select('at').execute()).toEqual([
        { at: '2026-01-01T10:00:00.123456Z' },
      ])
    })

    it('refuses a TIMESTAMP_NS with sub-microsecond digits rather than truncating them', async () => {
      await expect(sql`select TIMESTAMP_NS '2026-01-01 10:00:00.123456789' as at_ns`.execute(t.db)).rejects.toThrow(
        /^column "at_ns": TIMESTAMP_NS/,
      )
    })
  })

  describe('dates become YYYY-MM-DD', () => {
    it.each([
      ["DATE '2026-01-02'", '2026-01-02'],
      ["DATE '1969-12-31'", '1969-12-31'],
      ["DATE '0001-01-01'", '0001-01-01'],
      ["'infinity'::DATE", 'infinity'],
    ])('%s', async (expression, expected) => {
      expect(await selectOne(expression)).toBe(expected)
    })
  })

  describe('JSON is parsed', () => {
    it.each([
      [`'{"a":{"b":[1,"x",null,true]}}'::JSON`, { a: { b: [1, 'x', null, true] } }],
      [`'[1,2]'::JSON`, [1, 2]],
      [`'42'::JSON`, 42],
      [`'"text"'::JSON`, 'text'],
      [`'null'::JSON`, null],
      [`{'a': 1}::JSON`, { a: 1 }],
    ])('%s', async (expression, expected) => {
      expect(await selectOne(expression)).toEqual(expected)
    })

    it('parses JSON read from a JSON column, but leaves a JSON-looking VARCHAR alone', async () => {
      await t.db.schema.createTable('json_values').addColumn('j', 'json').addColumn('s', 'varchar').execute()
      await t.db.insertInto('json_values').values({ j: '{"k":[1]}', s: '{"k":[1]}' }).execute()

      expect(await t.db.selectFrom('json_values').selectAll().execute()).toEqual([{ j: { k: [1] }, s: '{"k":[1]}' }])
    })

    it('parses the result of ->, which is JSON, and leaves ->>, which is VARCHAR', async () => {
      const { rows } = await sql`select j -> 'a' as arrow, j ->> 'a' as text from (select '{"a":{"b":1}}'::JSON as j)`.execute(
        t.db,
      )
      expect(rows).toEqual([{ arrow: { b: 1 }, text: '{"b":1}' }])
    })
  })

  describe('nested types', () => {
    it.each([
      ['[1, 2, NULL]', [1, 2, null]],
      ["['a', 'b']", ['a', 'b']],
      ['[]::INTEGER[]', []],
      ["[TIMESTAMP '2026-01-01 10:00:00.5']", ['2026-01-01T10:00:00.500000Z']],
      ['[[1], [2, 3]]', [[1], [2, 3]]],
      [`['{"a":1}'::JSON]`, [{ a: 1 }]],
      ['[1, 2]::INTEGER[2]', [1, 2]],
      ["{'n': 1::BIGINT, 's': 'x', 'd': DATE '2026-01-02', 'inner': {'u': NULL}}", { n: 1, s: 'x', d: '2026-01-02', inner: { u: null } }],
      [`{'j': '[true]'::JSON}`, { j: [true] }],
      ["MAP {'k1': 1, 'k2': 2}", { k1: 1, k2: 2 }],
      ["MAP {'__proto__': 1}", JSON.parse('{"__proto__": 1}')],
      ["MAP {1: 'a', 2: 'b'}", [{ key: 1, value: 'a' }, { key: 2, value: 'b' }]],
    ])('%s', async (expression, expected) => {
      expect(await selectOne(expression)).toEqual(expected)
    })

    it('keeps a "__proto__" map key as data', async () => {
      const value = (await selectOne("MAP {'__proto__': 1}")) as object

      expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
      expect(Object.keys(value)).toEqual(['__proto__'])
    })

    it('names the column when a value inside a nested type is out of range', async () => {
      await expect(sql`select [9007199254740992::BIGINT] as ids`.execute(t.db)).rejects.toThrow(/^column "ids"/)
    })
  })

  it('throws a TypeError naming the column for a type outside the contract', async () => {
    await expect(sql`select INTERVAL 1 DAY as span`.execute(t.db)).rejects.toThrow(
      /^column "span" has type INTERVAL, which the row contract does not cover/,
    )
  })

  it('keeps the last value of a duplicated column name, as pg does', async () => {
    expect((await sql`select 1 as a, 2 as a`.execute(t.db)).rows).toEqual([{ a: 2 }])
  })
})
