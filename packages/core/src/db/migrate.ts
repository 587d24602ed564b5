import { Migrator, type Kysely, type Migration } from 'kysely'
import { StorageError } from '../errors.js'
import type { StorageAdapter, StorageDriver } from '../storage.js'
import { coreMigrations } from './core-migrations.js'

/**
 * Brings the database to the newest schema: core's migrations, then the
 * adapter's. Idempotent: applied migrations are recorded and skipped.
 */
export async function migrateToLatest(db: Kysely<any>, adapter: StorageAdapter, driver: StorageDriver): Promise<void> {
  const migrations: Record<string, Migration> = { ...coreMigrations(adapter.capabilities, adapter.sql), ...driver.migrations }
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'sightline_migrations',
    migrationLockTableName: 'sightline_migrations_lock',
    // Without it Kysely looks for its tables in every schema, and a second Sightline schema in the same database fools it.
    ...(driver.schema !== undefined && { migrationTableSchema: driver.schema }),
    // Core's and the adapter's names interleave alphabetically; order is by name.
    allowUnorderedMigrations: true,
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')
    throw new StorageError(`${adapter.name}: migration ${failed?.migrationName ?? '(unknown)'} failed`, undefined, { cause: error })
  }
  if (driver.afterMigrations && results?.some((r) => r.status === 'Success')) {
    try {
      await driver.afterMigrations(db)
    } catch (cause) {
      throw new StorageError(`${adapter.name}: the step after migrations failed`, undefined, { cause })
    }
  }
}
