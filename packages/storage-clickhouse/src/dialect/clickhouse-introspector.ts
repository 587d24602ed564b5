import { sql } from 'kysely'
import type { DatabaseIntrospector, DatabaseMetadataOptions, Kysely, SchemaMetadata, TableMetadata } from 'kysely'

/** Tables and columns of the current database, from `system.columns`. */
export class ClickHouseIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<any>

  constructor(db: Kysely<any>) {
    this.#db = db
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select name from system.databases`.execute(this.#db)
    return rows.map((r) => ({ name: r.name }))
  }

  async getTables(_options?: DatabaseMetadataOptions): Promise<TableMetadata[]> {
    const { rows } = await sql<{ table: string; name: string; type: string; default_kind: string; comment: string; engine: string }>`
      select c.table as table, c.name as name, c.type as type, c.default_kind as default_kind, c.comment as comment, t.engine as engine
      from system.columns as c inner join system.tables as t on t.database = c.database and t.name = c.table
      where c.database = currentDatabase() order by c.table, c.position`.execute(this.#db)
    const tables = new Map<string, TableMetadata & { columns: TableMetadata['columns'][number][] }>()
    for (const r of rows) {
      let table = tables.get(r.table)
      if (!table) tables.set(r.table, (table = { name: r.table, isView: /View$/.test(r.engine), columns: [] }))
      table.columns.push({
        name: r.name,
        dataType: r.type,
        isNullable: r.type.startsWith('Nullable('),
        isAutoIncrementing: false,
        hasDefaultValue: r.default_kind !== '',
        comment: r.comment === '' ? undefined : r.comment,
      })
    }
    return [...tables.values()]
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<{ tables: TableMetadata[] }> {
    return { tables: await this.getTables(options) }
  }
}
