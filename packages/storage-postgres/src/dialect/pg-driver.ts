import { PostgresDriver } from 'kysely'
import type { DatabaseConnection, QueryCompiler } from 'kysely'
import { outsideQueryScope } from '@sightline/core/storage'

/**
 * kysely's Postgres driver, whose rollbacks run outside the analysis's query
 * scope: a cancelled analysis must still roll back, or its connection would go
 * back to the pool inside an aborted transaction.
 */
export class PgDriver extends PostgresDriver {
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await outsideQueryScope(() => super.rollbackTransaction(connection))
  }

  override async rollbackToSavepoint(
    connection: DatabaseConnection,
    savepointName: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await outsideQueryScope(() => super.rollbackToSavepoint(connection, savepointName, compileQuery))
  }
}
