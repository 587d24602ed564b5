/**
 * Introspection reads the search path's schemas only, and says of their
 * tables what kysely's own Postgres introspection says.
 */
import { PGlite } from '@electric-sql/pglite'
import { Kysely, PostgresIntrospector } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { PGliteDialect } from '../../src/dialect/index.js'

let pglite: PGlite
beforeAll(async () => {
  pglite = await PGlite.create()
  await pglite.exec(`
    create schema mine; create schema other;
    create table mine.items (id serial primary key, name text not null, note text default 'x', code integer generated always as identity);
    comment on column mine.items.note is 'a note';
    create view mine.names as select name from mine.items;
    create table other.elsewhere (id integer);`)
})
afterAll(async () => pglite?.close())

it("lists the search path's tables only, with kysely's metadata for each", async () => {
  const db = new Kysely<any>({ dialect: new PGliteDialect({ pglite, schema: 'mine' }) })
  try {
    const ours = await db.introspection.getTables()
    expect(ours.map((t) => `${t.schema}.${t.name}`)).toEqual(['mine.items', 'mine.names'])
    const kyselys = (await new PostgresIntrospector(db).getTables()).filter((t) => t.schema === 'mine')
    expect(ours).toEqual(kyselys)
    // What the comparison rests on, written out: serial and identity columns auto-increment, the rest do not.
    const items = ours.find((t) => t.name === 'items')!
    expect(items.columns.map((c) => [c.name, c.isAutoIncrementing, c.isNullable, c.hasDefaultValue, c.comment ?? null])).toEqual([
      ['id', true, false, true, null],
      ['name', false, false, false, null],
      ['note', false, true, true, 'a note'],
      ['code', true, false, false, null],
    ])
    expect(ours.find((t) => t.name === 'names')!.isView).toBe(true)
  } finally {
    await db.destroy()
  }
})
