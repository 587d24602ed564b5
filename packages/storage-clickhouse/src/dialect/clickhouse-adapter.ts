import { DialectAdapterBase } from 'kysely'
import type { Kysely, MigrationLockOptions } from 'kysely'

/**
 * ClickHouse: `CREATE ... IF NOT EXISTS`, no transactional DDL, no RETURNING.
 * The migration lock is a no-op: ClickHouse has no locks; the adapter's
 * migrations are idempotent DDL (`IF NOT EXISTS`), so two migrators running
 * them at once leave the same schema.
 */
export class ClickHouseAdapter extends DialectAdapterBase {
  override get supportsCreateIfNotExists(): boolean {
    return true
  }

  override get supportsTransactionalDdl(): boolean {
    return false
  }

  override get supportsReturning(): boolean {
    return false
  }

  override async acquireMigrationLock(_db: Kysely<any>, _options: MigrationLockOptions): Promise<void> {}

  override async releaseMigrationLock(_db: Kysely<any>, _options: MigrationLockOptions): Promise<void> {}
}
