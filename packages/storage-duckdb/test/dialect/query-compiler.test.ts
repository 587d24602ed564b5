import { sql } from 'kysely'
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { openTestDb } from './open-test-db.js'
import type { TestDb } from './open-test-db.js'

interface Database {
  doc: { id: number; name: string; body: { tags: string[]; owner: { name: string } | null } }
}

// Each override is checked twice: the SQL it compiles to, and its result on DuckDB.
describe('DuckDBQueryCompiler', () => {
  let t: TestDb
  let db: Kysely<Database>

  beforeAll(async () => {
    t = await openTestDb()
    db = t.db
    await t.db.schema
      .createTable('doc')
      .addColumn('id', 'integer', (col) => col.primaryKey())
      .addColumn('name', 'varchar')
      .addColumn('body', 'json')
      .execute()
    await db
      .insertInto('doc')
      .values([
        { id: 1, name: 'abc', body: { tags: ['x', 'y', 'z'], owner: { name: 'Ada' } } },
        { id: 2, name: 'ABD', body: { tags: [], owner: null } },
      ])
      .execute()
  })

  afterAll(async () => {
    await t.close()
  })

  describe('regular expressions keep their Postgres meaning (a match anywhere)', () => {
    it.each([
      ['~', 'b', 'regexp_matches("name", $1)', [1]],
      ['~*', 'b', "regexp_matches(\"name\", $1, 'i')", [1, 2]],
      ['!~', 'b', '(not regexp_matches("name", $1))', [2]],
      ['!~*', 'B', "(not regexp_matches(\"name\", $1, 'i'))", []],
    ] as const)('%s', async (operator, pattern, expectedSql, expectedIds) => {
      const query = db.selectFrom('doc').select('id').where('name', operator, pattern).orderBy('id')

      expect(query.compile().sql).toBe(`select "id" from "doc" where ${expectedSql} order by "id"`)
      expect((await query.execute()).map((row) => row.id)).toEqual(expectedIds)
    })

    it("differs from DuckDB's own ~, which must match the whole string", async () => {
      const { rows } = await sql`select 'abc' ~ 'b' as duckdb_tilde`.execute(t.db)

      expect(rows).toEqual([{ duckdb_tilde: false }])
    })
  })

  describe('JSON traversal', () => {
    it('spaces the -> chain so that a negative index is not read as an operator ->-', async () => {
      const query = db
        .selectFrom('doc')
        .select((eb) => eb.ref('body', '->').key('tags').at(-1).as('last_tag'))
        .where('id', '=', 1)

      expect(query.compile().sql).toBe('select "body" -> \'tags\' -> -1 as "last_tag" from "doc" where "id" = $1')
      expect(await query.execute()).toEqual([{ last_tag: 'z' }])
    })

    it('compiles ->> with keys as Postgres does, giving text', async () => {
      const query = db
        .selectFrom('doc')
        .select((eb) => eb.ref('body', '->').key('owner').key('name').as('owner'))
        .select((eb) => eb.ref('body', '->>').key('owner').as('owner_text'))
        .where('id', '=', 1)

      expect(await query.execute()).toEqual([{ owner: 'Ada', owner_text: '{"name":"Ada"}' }])
    })

    it("spells Kysely's JSON path .at('last') as DuckDB's [#-1]", async () => {
      const query = db
        .selectFrom('doc')
        .select((eb) => eb.ref('body', '->>$').key('tags').at('last').as('last_tag'))
        .where('id', '=', 1)

      expect(query.compile().sql).toBe('select "body"->>\'$."tags"[#-1]\' as "last_tag" from "doc" where "id" = $1')
      expect(await query.execute()).toEqual([{ last_tag: 'z' }])
    })
  })

  describe('Postgres spellings DuckDB accepts unchanged', () => {
    it('ilike and not ilike', async () => {
      const query = db.selectFrom('doc').select('id').where('name', 'ilike', 'ab_').where('name', 'not ilike', '%c')

      expect(query.compile().sql).toBe('select "id" from "doc" where "name" ilike $1 and "name" not ilike $2')
      expect(await query.execute()).toEqual([{ id: 2 }])
    })

    it('DISTINCT ON', async () => {
      const query = db
        .selectFrom('doc')
        .distinctOn(sql`lower(left(name, 2))`)
        .select('id')
        .orderBy(sql`lower(left(name, 2))`)
        .orderBy('id', 'desc')

      expect(query.compile().sql).toBe(
        'select distinct on (lower(left(name, 2))) "id" from "doc" order by lower(left(name, 2)), "id" desc',
      )
      expect(await query.execute()).toEqual([{ id: 2 }])
    })

    it('$n placeholders, LIMIT and OFFSET parameters, and starts-with ^@', async () => {
      const query = db.selectFrom('doc').select('id').where('name', '^@', 'ab').orderBy('id').limit(1).offset(0)

      expect(query.compile().sql).toBe('select "id" from "doc" where "name" ^@ $1 order by "id" limit $2 offset $3')
      expect(await query.execute()).toEqual([{ id: 1 }])
    })

    it('string literals with a quote, from sql.lit', async () => {
      expect((await sql`select ${sql.lit("it's")} as text`.execute(t.db)).rows).toEqual([{ text: "it's" }])
    })
  })

  describe('what DuckDB rejects (left to its error, no silent rewrite)', () => {
    it('FOR UPDATE', async () => {
      await expect(t.db.selectFrom('doc').select('id').forUpdate().execute()).rejects.toThrow(/locking clause/)
    })
  })

  it('divides integers to a DOUBLE, where Postgres truncates (a difference the caller must cast for)', async () => {
    expect((await sql`select 7 / 2 as ratio, 7 // 2 as quotient`.execute(t.db)).rows).toEqual([{ ratio: 3.5, quotient: 3 }])
  })
})
