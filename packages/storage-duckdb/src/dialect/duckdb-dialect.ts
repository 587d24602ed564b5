import type { DatabaseIntrospector, Dialect, DialectAdapter, Driver, Kysely, QueryCompiler } from 'kysely'

import { DuckDBAdapter } from './duckdb-adapter.js'
import type { DuckDBDialectConfig } from './duckdb-dialect-config.js'
import { DuckDBDriver } from './duckdb-driver.js'
import { DuckDBIntrospector } from './duckdb-introspector.js'
import { DuckDBQueryCompiler } from './duckdb-query-compiler.js'

/**
 * Kysely dialect for DuckDB through `@duckdb/node-api`.
 *
 * ```ts
 * import { DuckDBInstance } from '@duckdb/node-api'
 *
 * const instance = await DuckDBInstance.create('analytics.duckdb')
 * const db = new Kysely<Database>({ dialect: new DuckDBDialect({ instance }) })
 * ```
 */
export class DuckDBDialect implements Dialect {
  readonly #config: DuckDBDialectConfig

  constructor(config: DuckDBDialectConfig) {
    this.#config = config
  }

  createDriver(): Driver {
    return new DuckDBDriver(this.#config)
  }

  createQueryCompiler(): QueryCompiler {
    return new DuckDBQueryCompiler()
  }

  createAdapter(): DialectAdapter {
    return new DuckDBAdapter()
  }

  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new DuckDBIntrospector(db)
  }
}
