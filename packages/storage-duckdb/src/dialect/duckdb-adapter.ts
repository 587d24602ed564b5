import { PostgresAdapter } from 'kysely'
import type { Kysely, MigrationLockOptions } from 'kysely'

/**
 * DuckDB's capabilities are Postgres's (RETURNING, transactional DDL), except
 * for the migration lock.
 */
export class DuckDBAdapter extends PostgresAdapter {
  /**
   * A no-op: DuckDB has no advisory locks (`pg_advisory_lock`), and none is
   * needed across processes because a DuckDB database file is opened for
   * writing by one process at a time. Two migrators in the same process do
   * not apply a migration twice either: Kysely migrates inside one
   * transaction, and DuckDB fails the later of two conflicting transactions
   * instead of waiting (the failed one's `up` may have run, then rolled back).
   */
  override async acquireMigrationLock(_db: Kysely<any>, _options: MigrationLockOptions): Promise<void> {}

  /** A no-op, as `acquireMigrationLock` takes no lock. */
  override async releaseMigrationLock(_db: Kysely<any>, _options: MigrationLockOptions): Promise<void> {}
}
