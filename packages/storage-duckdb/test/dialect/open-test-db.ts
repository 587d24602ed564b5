import { DuckDBInstance } from '@duckdb/node-api'
import { Kysely } from 'kysely'

import { DuckDBDialect } from '../../src/dialect/index.js'
import type { DuckDBDialectConfig } from '../../src/dialect/index.js'

export interface TestDb {
  readonly instance: DuckDBInstance
  readonly db: Kysely<any>
  /** Reads through a node-api connection of its own, bypassing the dialect. */
  rawQuery(sql: string): Promise<Record<string, unknown>[]>
  close(): Promise<void>
}

/** An in-memory DuckDB database behind a Kysely with the DuckDB dialect. */
export async function openTestDb(config: Omit<DuckDBDialectConfig, 'instance'> = {}): Promise<TestDb> {
  const instance = await DuckDBInstance.create(':memory:')
  const db = new Kysely<any>({ dialect: new DuckDBDialect({ instance, ...config }) })
  const reader = await instance.connect()

  return {
    instance,
    db,
    async rawQuery(sql) {
      return (await reader.run(sql)).getRowObjectsJS()
    },
    async close() {
      await db.destroy()
      reader.disconnectSync()
      instance.closeSync()
    },
  }
}
