import { CompiledQuery, type Dialect } from 'kysely'
import type { StorageAdapter, StorageDriver } from '@sightline/core/storage'
import { createPgDialect } from './dialect/pg-dialect.js'
import type { PgPoolLike } from './dialect/pg-dialect-config.js'
import { PGliteDialect } from './dialect/pglite-dialect.js'
import type { PGliteLike } from './dialect/pglite-dialect-config.js'
import { insertEvents } from './insert-events.js'
import { postgresMigrations } from './postgres-migrations.js'
import { postgresSqlHooks } from './postgres-sql-hooks.js'

interface SchemaOption {
  /**
   * A schema to keep Sightline's tables in, created if missing (letters,
   * digits and `_`, at most 63). Default: the connection's search path
   * (usually `public`).
   */
  readonly schema?: string
}

/** Where the Postgres storage connects: a server by URL or pool, or an embedded PGlite. */
export type PostgresStorageOptions = SchemaOption &
  (
    | { readonly connectionString: string }
    /** A pg Pool the host created (TLS, sizes); Sightline leaves it open on close. */
    | { readonly pool: PgPoolLike }
    /** A PGlite instance the host created; Sightline leaves it open on close. */
    | { readonly pglite: PGliteLike }
  )

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/

/**
 * Sightline on Postgres: a server through `pg`, or embedded through PGlite
 * (each an optional peer dependency, loaded only when used). Several
 * processes may share one database.
 */
export function postgresStorage(options: PostgresStorageOptions): StorageAdapter {
  const { schema } = options
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new TypeError(`postgresStorage: schema must match ${SCHEMA_NAME}, got ${JSON.stringify(schema)}`)
  }
  const makeDialect = (): Dialect =>
    'pglite' in options
      ? new PGliteDialect({ pglite: options.pglite, schema })
      : 'pool' in options
        ? createPgDialect({ pool: options.pool, schema })
        : createPgDialect({ connectionString: options.connectionString, schema })

  return {
    name: 'postgres',
    capabilities: { jsonColumnType: 'jsonb', multiProcess: true, rowLocks: true, propertySlots: true },
    sql: postgresSqlHooks,
    async open(): Promise<StorageDriver> {
      if (schema !== undefined) await createSchema(makeDialect(), schema)
      return {
        dialect: makeDialect(),
        migrations: postgresMigrations,
        insertEvents,
        isWriteConflict,
        schema,
        // The pool created from a URL is ended by Kysely's destroy; a host's pool or PGlite stays the host's.
        close: async () => {},
      }
    },
  }
}

/** Creates the schema on a short-lived connection, before any session puts it on its search path. */
async function createSchema(dialect: Dialect, schema: string): Promise<void> {
  const driver = dialect.createDriver()
  await driver.init()
  try {
    const connection = await driver.acquireConnection()
    try {
      // The name was validated against SCHEMA_NAME above: an identifier, safe to quote.
      await connection.executeQuery(CompiledQuery.raw(`create schema if not exists "${schema}"`))
    } finally {
      await driver.releaseConnection(connection)
    }
  } finally {
    await driver.destroy()
  }
}

/** unique_violation, serialization_failure, deadlock_detected: another writer won a race; running again resolves it. */
const CONFLICT_CODES = new Set(['23505', '40001', '40P01'])

function isWriteConflict(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined
  return typeof code === 'string' && CONFLICT_CODES.has(code)
}
