import { Migrator, sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { openTestDb } from './open-test-db.js'
import type { TestDb } from './open-test-db.js'

describe('DuckDBIntrospector', () => {
  let t: TestDb

  beforeEach(async () => {
    t = await openTestDb()
  })

  afterEach(async () => {
    await t.close()
  })

  it('lists schemas, tables and views with their columns', async () => {
    await sql`create sequence person_id`.execute(t.db)
    await t.db.schema.createSchema('archive').execute()
    await t.db.schema
      .createTable('person')
      .addColumn('id', 'integer', (col) => col.primaryKey().defaultTo(sql`nextval('person_id')`))
      .addColumn('name', 'varchar', (col) => col.notNull())
      .addColumn('profile', 'json')
      .execute()
    await sql`comment on column person.name is 'display name'`.execute(t.db)
    await t.db.schema.createView('person_names').as(t.db.selectFrom('person').select('name')).execute()
    await t.db.schema.createTable('archive.old').addColumn('at', 'timestamptz', (col) => col.defaultTo(sql`now()`)).execute()

    expect(await t.db.introspection.getSchemas()).toEqual([{ name: 'archive' }, { name: 'main' }])
    expect(await t.db.introspection.getTables()).toEqual([
      {
        name: 'old',
        schema: 'archive',
        isView: false,
        columns: [
          { name: 'at', dataType: 'TIMESTAMP WITH TIME ZONE', isNullable: true, hasDefaultValue: true, isAutoIncrementing: false, comment: undefined },
        ],
      },
      {
        name: 'person',
        schema: 'main',
        isView: false,
        columns: [
          { name: 'id', dataType: 'INTEGER', isNullable: false, hasDefaultValue: true, isAutoIncrementing: true, comment: undefined },
          { name: 'name', dataType: 'VARCHAR', isNullable: false, hasDefaultValue: false, isAutoIncrementing: false, comment: 'display name' },
          { name: 'profile', dataType: 'JSON', isNullable: true, hasDefaultValue: false, isAutoIncrementing: false, comment: undefined },
        ],
      },
      {
        name: 'person_names',
        schema: 'main',
        isView: true,
        columns: [
          { name: 'name', dataType: 'VARCHAR', isNullable: true, hasDefaultValue: false, isAutoIncrementing: false, comment: undefined },
        ],
      },
    ])
  })

  it("hides Kysely's migration tables unless asked", async () => {
    await new Migrator({ db: t.db, provider: { getMigrations: async () => ({}) } }).migrateToLatest()

    expect(await t.db.introspection.getTables()).toEqual([])
    expect((await t.db.introspection.getTables({ withInternalKyselyTables: true })).map((table) => table.name)).toEqual([
      'kysely_migration',
      'kysely_migration_lock',
    ])
  })
})
