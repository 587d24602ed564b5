import { Migrator, sql } from 'kysely'
import type { Kysely, Migration } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { DuckDBDialect } from '../../src/dialect/index.js'
import { openTestDb } from './open-test-db.js'
import type { TestDb } from './open-test-db.js'

describe('DuckDBAdapter', () => {
  let t: TestDb

  beforeEach(async () => {
    t = await openTestDb()
  })

  afterEach(async () => {
    await t.close()
  })

  it('declares RETURNING and transactional DDL', () => {
    const adapter = new DuckDBDialect({ instance: t.instance }).createAdapter()

    expect(adapter.supportsReturning).toBe(true)
    expect(adapter.supportsTransactionalDdl).toBe(true)
  })

  it("runs Kysely's Migrator, whose lock needs no pg_advisory_lock", async () => {
    const migrations: Record<string, Migration> = {
      '001_person': {
        async up(db: Kysely<any>) {
          await db.schema.createTable('person').addColumn('id', 'integer', (col) => col.primaryKey()).execute()
        },
      },
      '002_person_name': {
        async up(db: Kysely<any>) {
          await db.schema.alterTable('person').addColumn('name', 'varchar').execute()
        },
      },
    }
    const migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } })

    const first = await migrator.migrateToLatest()
    const second = await migrator.migrateToLatest()

    expect(first.error).toBeUndefined()
    expect(first.results?.map((result) => [result.migrationName, result.status])).toEqual([
      ['001_person', 'Success'],
      ['002_person_name', 'Success'],
    ])
    expect(second.results).toEqual([])
    expect(await t.rawQuery("select column_name from information_schema.columns where table_name = 'person'")).toEqual([
      { column_name: 'id' },
      { column_name: 'name' },
    ])
  })

  it('applies a migration once when two migrators race, with no lock to serialise them', async () => {
    const provider = {
      getMigrations: async () => ({
        '001_counter': {
          async up(db: Kysely<any>) {
            await db.schema.createTable('counter').addColumn('n', 'integer').execute()
            await db.insertInto('counter').values({ n: 1 }).execute()
          },
        },
      }),
    }

    const outcomes = await Promise.all([
      new Migrator({ db: t.db, provider }).migrateToLatest(),
      new Migrator({ db: t.db, provider }).migrateToLatest(),
    ])

    // Either the second saw the first's commit, or DuckDB failed it on a write-write conflict.
    expect(outcomes.filter((outcome) => outcome.error === undefined).length).toBeGreaterThanOrEqual(1)
    for (const { error } of outcomes) {
      if (error !== undefined) {
        expect(String(error)).toMatch(/[Cc]onflict/)
      }
    }
    expect(await t.rawQuery('select name from kysely_migration')).toEqual([{ name: '001_counter' }])
    expect(await t.rawQuery('select n from counter')).toEqual([{ n: 1 }])
  })

  it('rolls back a failing migration as a whole', async () => {
    const migrator = new Migrator({
      db: t.db,
      provider: {
        getMigrations: async () => ({
          '001_broken': {
            async up(db: Kysely<any>) {
              await db.schema.createTable('half_done').addColumn('id', 'integer').execute()
              await sql`select * from missing_table`.execute(db)
            },
          },
        }),
      },
    })

    const { error } = await migrator.migrateToLatest()

    expect(String(error)).toMatch(/missing_table/)
    expect(await t.rawQuery("select count(*)::integer as n from information_schema.tables where table_name = 'half_done'")).toEqual([
      { n: 0 },
    ])
  })
})
