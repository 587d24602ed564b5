/**
 * The conformance harness opens each case on a target's `migrated()`: a copy
 * of a database migrated once per process, instead of migrating a new one.
 * That is only sound if the copy is what migrating gives: the same tables,
 * columns, constraints, sequences, views, functions and migration records.
 * Each target's copy is held here against a newly migrated database.
 */
import { describe, expect, test } from 'vitest'
import { Kysely, sql } from 'kysely'
import { createSightline } from '@sightline/core'
import type { ConformanceTarget, FreshDatabase } from '../conformance/target.js'
import { duckdbFile, duckdbMemory } from './duckdb.js'
import { clickhouseTarget } from './clickhouse.js'

/** DuckDB's catalog (of the database `raw` reads, or a ClickHouse target's companion), each list sorted. */
async function duckdbCatalog(db: FreshDatabase): Promise<Record<string, unknown>> {
  const list = async (query: string) => (await db.raw<Record<string, unknown>>(query)).map((row) => JSON.stringify(row)).sort()
  const here = `database_name = current_database()`
  return {
    tables: await list(`select table_name, sql from duckdb_tables() where ${here}`),
    columns: await list(`select table_name, column_name, column_index, data_type, column_default, is_nullable from duckdb_columns() where ${here}`),
    constraints: await list(`select table_name, constraint_type, constraint_text from duckdb_constraints() where ${here}`),
    indexes: await list(`select index_name, table_name, sql from duckdb_indexes() where ${here}`),
    sequences: await list(`select sequence_name, start_value, increment_by, cast(last_value as text) as last_value from duckdb_sequences() where ${here}`),
    views: await list(`select view_name, sql from duckdb_views() where ${here} and not internal`),
    macros: await list(`select function_name, cast(macro_definition as text) as m from duckdb_functions() where ${here} and not internal`),
    migrations: await list('select name from sightline_migrations'),
  }
}

/** ClickHouse's own catalog of the session's database, through the dialect analyses run on. */
async function clickhouseCatalog(db: FreshDatabase): Promise<Record<string, unknown>> {
  const analysis = await db.analysisDatabase!()
  const k = new Kysely<any>({ dialect: analysis.dialect })
  try {
    const list = async (query: ReturnType<typeof sql>) => ((await query.execute(k)).rows as Record<string, unknown>[]).map((row) => JSON.stringify(row)).sort()
    return {
      tables: await list(sql`select name, engine, replaceRegexpAll(create_table_query, '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}', 'uuid') as q from system.tables where database = currentDatabase()`),
      columns: await list(sql`select table, name, type, default_kind, default_expression, position from system.columns where database = currentDatabase()`),
      functions: await list(sql`select name, create_query from system.functions where origin = 'SQLUserDefined'`),
    }
  } finally {
    await k.destroy()
  }
}

async function catalogs(target: ConformanceTarget, db: FreshDatabase): Promise<Record<string, unknown>> {
  return { duckdb: await duckdbCatalog(db), ...(target === clickhouseTarget && { clickhouse: await clickhouseCatalog(db) }) }
}

for (const target of [duckdbMemory, duckdbFile, clickhouseTarget]) {
  describe(target.name, () => {
    test('a migrated copy has the catalog of a database the engine migrated, and nothing left to migrate', async () => {
      const migrated = await target.fresh()
      let expected: Record<string, unknown>
      try {
        await (await createSightline({ storage: migrated.storage() })).close()
        expected = await catalogs(target, migrated)
      } finally {
        await migrated.dispose()
      }
      const copy = await target.migrated!()
      try {
        // Read before an engine opens the copy, where one can be (a migration the copy lacked would run at open):
        // ClickHouse's catalog is read through analysisDatabase(), which opens one, after the companion's records.
        const actual = await catalogs(target, copy)
        expect(actual).toEqual(expected)
        expect((expected.duckdb as { tables: unknown[] }).tables.length).toBeGreaterThan(10)
        await (await createSightline({ storage: copy.storage() })).close()
        expect(await catalogs(target, copy)).toEqual(expected)
      } finally {
        await copy.dispose()
      }
    })
  })
}
