import { PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely'
import type { DatabaseIntrospector, Dialect, DialectAdapter, Driver, Kysely, QueryCompiler } from 'kysely'
import type { PGliteDialectConfig } from './pglite-dialect-config.js'
import { PGliteDriver } from './pglite-driver.js'

/**
 * Kysely on PGlite, Postgres compiled to WASM and run in-process. SQL,
 * adapter and introspection are kysely's Postgres ones; only the driver
 * differs. Rows follow Sightline's row contract (`typeParsers`).
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
    return new PostgresIntrospector(db)
  }
}
