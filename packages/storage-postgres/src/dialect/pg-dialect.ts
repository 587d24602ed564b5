import { PostgresDialect } from 'kysely'
import { createPgDialectConfig } from './pg-dialect-config.js'
import type { PgDialectOptions } from './pg-dialect-config.js'

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
  return new PostgresDialect(createPgDialectConfig(options))
}
