import { describe, expect, it } from 'vitest'
import { DummyDriver, Kysely, sql, type DatabaseIntrospector, type Dialect } from 'kysely'
import { sqlCast } from '@sightline/core/storage'
import { ClickHouseQueryCompiler } from '../src/dialect/clickhouse-query-compiler.js'
import { ClickHouseAdapter } from '../src/dialect/clickhouse-adapter.js'
import { chdbKysely } from './open-chdb.js'

interface Db {
  t: { id: number; name: string; at: string }
}

/** Compiles with no database, as kysely's DummyDriver does. */
const offline = (timeColumns?: ReadonlySet<string>) =>
  new Kysely<Db>({
    dialect: {
      createAdapter: () => new ClickHouseAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: () => ({}) as DatabaseIntrospector,
      createQueryCompiler: () => new ClickHouseQueryCompiler(timeColumns),
    } satisfies Dialect,
  })

describe('ClickHouseQueryCompiler', () => {
  it('binds values as typed ClickHouse parameters, never in the text', () => {
    const q = offline()
      .selectFrom('t')
      .select('id')
      .where('name', '=', "x' or 1=1 --")
      .where('id', 'in', [1, 2])
      .where(sql<boolean>`${2.5} > ${true}`)
      .compile()
    expect(q.sql).toBe('select "id" from "t" where "name" = {p1:String} and "id" in ({p2:Int64}, {p3:Int64}) and {p4:Float64} > {p5:Bool}')
    expect(q.parameters).toEqual(["x' or 1=1 --", 1, 2, '2.5', true])
  })

  it('types arrays, dates, bigints and nulls', () => {
    const q = sql`select ${['a', null]}, ${[]}, ${new Date('2026-01-02T03:04:05.678Z')}, ${12n}, ${null}`.compile(offline())
    expect(q.sql).toBe("select {p1:Array(Nullable(String))}, {p2:Array(String)}, {p3:DateTime64(6, 'UTC')}, {p4:Int64}, {p5:Nullable(String)}")
    expect(q.parameters).toEqual([['a', null], [], '2026-01-02 03:04:05.678000', '12', null])
  })

  it('escapes backslashes and quotes in identifiers and literals, as ClickHouse reads them', () => {
    const q = sql`select ${sql.lit("a\\'b")} as ${sql.id('c"\\d')}`.compile(offline())
    expect(q.sql).toBe(`select 'a\\\\\\'b' as "c\\"\\\\d"`)
  })

  it('spells the regex operators with match()', () => {
    const q = offline().selectFrom('t').select('id').where('name', '~*', 'ab').where('name', '!~', 'c').compile()
    expect(q.sql).toBe(`select "id" from "t" where match("name", concat('(?i)', {p1:String})) and (not match("name", {p2:String}))`)
  })

  it('binds a text compared with a time column as a DateTime64', () => {
    const q = offline(new Set(['at']))
      .selectFrom('t')
      .select('id')
      .where('at', '>', '2026-02-02T00:00:00.000001Z')
      .where('name', '>', '2026-02-02T00:00:00Z')
      .compile()
    expect(q.sql).toBe(`select "id" from "t" where "at" > {p1:DateTime64(6, 'UTC')} and "name" > {p2:String}`)
    expect(q.parameters).toEqual(['2026-02-02 00:00:00.000001', '2026-02-02T00:00:00Z'])
  })

  it("doubles the backslash of a LIKE's escape '\\' that core wrote, and leaves bound values alone", () => {
    const q = sql`select x like ${"escape '\\'"} escape '\\' from e`.compile(offline())
    expect(q.sql).toBe("select x like {p1:String} escape '\\\\' from e")
    expect(q.parameters).toEqual(["escape '\\'"])
  })

  it("spells core's casts (sqlCast) to Postgres types ClickHouse lacks with ClickHouse's types; raw text is its author's", () => {
    const q = sql`select ${sqlCast('2026-01-01T00:00:00Z', 'timestamptz')}, ${sqlCast(sql`1`, 'float8')}, cast(2 as bigint), ${sqlCast(sql`md5(cast(x as text))`, 'uuid')}, e.uuid as uuid from e`.compile(offline())
    expect(q.sql).toBe("select cast({p1:String} as DateTime64(6, 'UTC')), cast(1 as Float64), cast(2 as bigint), cast(md5(cast(x as text)) as UUID), e.uuid as uuid from e")
  })
})

describe('ClickHouseDialect on chDB', () => {
  const db = chdbKysely<Db>()

  it('round-trips hostile text through parameters and literals', async () => {
    const hostile = "it's \\'quoted\\' -- ; drop table t \n\t{p1:String} é 🎉"
    const { rows } = await sql<{ a: string; b: string }>`select ${hostile} as a, ${sql.lit(hostile)} as b`.execute(db())
    expect(rows).toEqual([{ a: hostile, b: hostile }])
  })

  it('creates, writes and reads a table through the builders, with the row contract', async () => {
    await sql`create table t (id Int64, name String, at DateTime64(6, 'UTC')) engine = MergeTree order by id`.execute(db())
    await sql`insert into t values (${9007199254740991}, ${'a'}, ${'2026-01-01 10:00:00.123456'}), (${2}, ${'b'}, ${'2026-01-01 00:00:00'})`.execute(db())
    const rows = await db().selectFrom('t').selectAll().orderBy('id').execute()
    expect(rows).toEqual([
      { id: 2, name: 'b', at: '2026-01-01T00:00:00.000000Z' },
      { id: 9007199254740991, name: 'a', at: '2026-01-01T10:00:00.123456Z' },
    ])
    const [n] = await db().selectFrom('t').select((eb) => eb.fn.countAll<number>().as('n')).where('name', 'in', ['a', 'z']).execute()
    expect(n).toEqual({ n: 1 })
    await expect(sql`select toInt64(9007199254740993) as big`.execute(db())).rejects.toThrow(/big: 9007199254740993 has no exact number/)
  })

  it('refuses transactions, which ClickHouse lacks', async () => {
    await expect(db().transaction().execute(async () => 1)).rejects.toThrow(/ClickHouse has no transactions/)
  })
})
