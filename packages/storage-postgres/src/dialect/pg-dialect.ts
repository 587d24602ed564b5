import { PostgresDialect } from 'kysely'
import type { DatabaseIntrospector, Driver, Kysely, PostgresDialectConfig } from 'kysely'
import { createPgDialectConfig } from './pg-dialect-config.js'
import type { PgDialectOptions } from './pg-dialect-config.js'
import { PgDriver } from './pg-driver.js'
import { SearchPathIntrospector } from './search-path-introspector.js'

/**
 * Kysely on a Postgres server through pg, with rows under Sightline's row
 * contract. pg is an optional peer dependency, imported only when a
 * `connectionString` is given.
 *
 * ```ts
 * const db = new Kysely<Database>({ dialect: createPgDialect({ connectionString: process.env.DATABASE_URL! }) })
 * ```
 */
export function createPgDialect(options: PgDialectOptions & { readonly schema?: string }): PostgresDialect {
  return new PgDialect(createPgDialectConfig(options))
}

/** kysely's `PostgresDialect` with `PgDriver`, whose rollbacks survive a cancelled analysis, and `SearchPathIntrospector`. */
class PgDialect extends PostgresDialect {
  readonly #config: PostgresDialectConfig

  constructor(config: PostgresDialectConfig) {
    super(config)
    this.#config = config
  }

  override createDriver(): Driver {
    return new PgDriver(this.#config)
  }

  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SearchPathIntrospector(db)
  }
}
