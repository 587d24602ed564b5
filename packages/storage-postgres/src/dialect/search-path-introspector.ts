import { DEFAULT_MIGRATION_LOCK_TABLE, DEFAULT_MIGRATION_TABLE, sql } from 'kysely'
import type { DatabaseIntrospector, DatabaseMetadata, DatabaseMetadataOptions, Kysely, SchemaMetadata, TableMetadata } from 'kysely'

interface ColumnRow {
  schema: string
  table: string
  table_type: string
  column: string
  not_null: boolean
  has_default: boolean
  auto_incrementing: boolean
  type: string
  type_schema: string
  column_description: string | null
}

/**
 * kysely's Postgres introspection limited to the schemas of the connection's
 * search path, and without a function that looks a schema up by name.
 *
 * kysely's `PostgresIntrospector` lists the tables of every schema of the
 * database and calls `has_schema_privilege(name)` and
 * `pg_get_serial_sequence('schema.table')` on each: a schema another session
 * drops meanwhile (another tenant, another test) makes the lookup fail with
 * "schema ... does not exist", and Sightline's migrations (kysely's Migrator
 * introspects to find its table) failed with it. Here every test is by oid,
 * and only the search path's schemas are read, which is also what an engine
 * confined to its schema should see.
 */
export class SearchPathIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<any>

  constructor(db: Kysely<any>) {
    this.#db = db
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(this.#db)
    return rows.map((r) => ({ name: r.name }))
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const internal = options.withInternalKyselyTables ? sql`` : sql`and c.relname not in (${DEFAULT_MIGRATION_TABLE}, ${DEFAULT_MIGRATION_LOCK_TABLE})`
    const { rows } = await sql<ColumnRow>`
      select ns.nspname as schema, c.relname as table, c.relkind as table_type, a.attname as column,
        a.attnotnull as not_null, a.atthasdef as has_default, typ.typname as type, dtns.nspname as type_schema,
        col_description(a.attrelid, a.attnum) as column_description,
        (a.attidentity <> '' or exists (
          select 1 from pg_catalog.pg_depend as d join pg_catalog.pg_class as s on s.oid = d.objid and s.relkind = 'S'
          where d.classid = 'pg_catalog.pg_class'::regclass and d.refobjid = c.oid and d.refobjsubid = a.attnum and d.deptype in ('a', 'i')
        )) as auto_incrementing
      from pg_catalog.pg_attribute as a
      join pg_catalog.pg_class as c on a.attrelid = c.oid
      join pg_catalog.pg_namespace as ns on c.relnamespace = ns.oid
      join pg_catalog.pg_type as typ on a.atttypid = typ.oid
      join pg_catalog.pg_namespace as dtns on typ.typnamespace = dtns.oid
      where c.relkind in ('r', 'v', 'p') and ns.nspname = any (current_schemas(false))
        and has_schema_privilege(ns.oid, 'USAGE') and a.attnum >= 0 and not a.attisdropped ${internal}
      order by ns.nspname, c.relname, a.attnum`.execute(this.#db)
    const tables = new Map<string, { name: string; schema: string; isView: boolean; columns: TableMetadata['columns'][number][] }>()
    for (const r of rows) {
      const key = `${r.schema}.${r.table}`
      let table = tables.get(key)
      if (!table) tables.set(key, (table = { name: r.table, schema: r.schema, isView: r.table_type === 'v', columns: [] }))
      table.columns.push({
        name: r.column,
        dataType: r.type,
        dataTypeSchema: r.type_schema,
        isNullable: !r.not_null,
        hasDefaultValue: r.has_default,
        isAutoIncrementing: r.auto_incrementing,
        comment: r.column_description ?? undefined,
      })
    }
    return [...tables.values()]
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) }
  }
}
