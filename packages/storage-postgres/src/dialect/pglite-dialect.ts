import { PostgresAdapter, PostgresQueryCompiler } from 'kysely'
import type { DatabaseIntrospector, Dialect, DialectAdapter, Driver, Kysely, QueryCompiler } from 'kysely'
import type { PGliteDialectConfig } from './pglite-dialect-config.js'
import { PGliteDriver } from './pglite-driver.js'
import { SearchPathIntrospector } from './search-path-introspector.js'

/**
 * Kysely on PGlite, Postgres compiled to WASM and run in-process. SQL and
 * adapter are kysely's Postgres ones, introspection `SearchPathIntrospector`;
 * the driver is Sightline's. Rows follow Sightline's row contract (`typeParsers`).
 *
 * ```ts
 * const pglite = new PGlite()
 * const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) })
 * ```
 */
export class PGliteDialect implements Dialect {
  readonly #config: PGliteDialectConfig

  constructor(config: PGliteDialectConfig) {
    this.#config = Object.freeze({ ...config })
  }

  createDriver(): Driver {
    return new PGliteDriver(this.#config)
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler()
  }

  createAdapter(): DialectAdapter {
    return new PostgresAdapter()
  }

  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SearchPathIntrospector(db)
  }
}
