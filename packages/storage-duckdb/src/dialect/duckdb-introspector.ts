import { DEFAULT_MIGRATION_LOCK_TABLE, DEFAULT_MIGRATION_TABLE } from 'kysely'
import type {
  ColumnMetadata,
  DatabaseIntrospector,
  DatabaseMetadata,
  DatabaseMetadataOptions,
  Kysely,
  SchemaMetadata,
  TableMetadata,
} from 'kysely'
import { sql } from 'kysely'

interface RawColumn {
  schema: string
  table: string
  table_type: string
  column: string
  data_type: string
  is_nullable: string
  column_default: string | null
  comment: string | null
}

/**
 * Reads the current database's schemas, tables and views from DuckDB's
 * `information_schema`. Kysely's PostgresIntrospector cannot be reused:
 * it calls `pg_get_serial_sequence` and `has_schema_privilege`, which DuckDB
 * lacks.
 */
export class DuckDBIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<any>

  constructor(db: Kysely<any>) {
    this.#db = db
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const schemas = await this.#db
      .selectFrom('information_schema.schemata')
      .select('schema_name')
      .where('catalog_name', '=', sql<string>`current_database()`)
      .orderBy('schema_name')
      .execute()

    return schemas.map((schema) => ({ name: schema.schema_name }))
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    let query = this.#db
      .selectFrom('information_schema.columns as c')
      .innerJoin('information_schema.tables as t', (join) =>
        join
          .onRef('t.table_catalog', '=', 'c.table_catalog')
          .onRef('t.table_schema', '=', 'c.table_schema')
          .onRef('t.table_name', '=', 'c.table_name'),
      )
      .select([
        'c.table_schema as schema',
        'c.table_name as table',
        't.table_type',
        'c.column_name as column',
        'c.data_type',
        'c.is_nullable',
        'c.column_default',
        'c.column_comment as comment',
      ])
      .where('c.table_catalog', '=', sql<string>`current_database()`)
      .orderBy('c.table_schema')
      .orderBy('c.table_name')
      .orderBy('c.ordinal_position')

    if (!options.withInternalKyselyTables) {
      query = query.where('c.table_name', 'not in', [DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE])
    }

    return groupByTable((await query.execute()) as RawColumn[])
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) }
  }
}

function groupByTable(columns: readonly RawColumn[]): TableMetadata[] {
  const tables = new Map<string, TableMetadata & { columns: ColumnMetadata[] }>()

  for (const column of columns) {
    const key = JSON.stringify([column.schema, column.table])
    let table = tables.get(key)

    if (!table) {
      table = { name: column.table, schema: column.schema, isView: column.table_type === 'VIEW', columns: [] }
      tables.set(key, table)
    }

    table.columns.push({
      name: column.column,
      dataType: column.data_type,
      isNullable: column.is_nullable === 'YES',
      hasDefaultValue: column.column_default !== null,
      // DuckDB has no serial type: an auto-incrementing column defaults to a sequence.
      isAutoIncrementing: column.column_default?.startsWith('nextval(') ?? false,
      comment: column.comment ?? undefined,
    })
  }

  return [...tables.values()]
}
