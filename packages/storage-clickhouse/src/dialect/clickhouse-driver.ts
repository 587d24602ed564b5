import type { DatabaseConnection, Driver } from 'kysely'
import { ClickHouseConnection } from './clickhouse-connection.js'
import type { ClickHouseExecutor } from './clickhouse-executor.js'

/** Thrown for a transaction on ClickHouse, which has none (its `BEGIN` answers NOT_IMPLEMENTED). */
export class ClickHouseTransactionError extends Error {
  override readonly name = 'ClickHouseTransactionError'
  constructor() {
    super('ClickHouse has no transactions: write what must be atomic to a transactional store')
  }
}

/**
 * Kysely's driver over one executor. Connections are views of the executor
 * (ClickHouse needs no pool on the client side: chDB serialises a session's
 * queries, and `@clickhouse/client` keeps its own HTTP agent).
 */
export class ClickHouseDriver implements Driver {
  readonly #executor: ClickHouseExecutor

  constructor(executor: ClickHouseExecutor) {
    this.#executor = executor
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new ClickHouseConnection(this.#executor)
  }

  async beginTransaction(): Promise<void> {
    throw new ClickHouseTransactionError()
  }

  async commitTransaction(): Promise<void> {
    throw new ClickHouseTransactionError()
  }

  async rollbackTransaction(): Promise<void> {
    throw new ClickHouseTransactionError()
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    await this.#executor.close()
  }
}
