import { CompiledQuery } from 'kysely'
import type { DatabaseConnection, Driver, TransactionSettings } from 'kysely'
import { outsideQueryScope } from '@sightline/core/storage'

import { DuckDBConnection } from './duckdb-connection.js'
import type { DuckDBDialectConfig } from './duckdb-dialect-config.js'

const DEFAULT_POOL_SIZE = 4

interface Waiter {
  resolve(connection: DuckDBConnection): void
  reject(error: unknown): void
}

/**
 * Pools up to `poolSize` connections of one DuckDB instance. They are opened
 * on demand; an acquire beyond the pool waits, first come first served, for a
 * release.
 *
 * Savepoints are left unimplemented because DuckDB has none: Kysely then
 * throws its own "not supported by this driver" error.
 */
export class DuckDBDriver implements Driver {
  readonly #config: DuckDBDialectConfig
  readonly #poolSize: number
  readonly #idle: DuckDBConnection[] = []
  readonly #waiters: Waiter[] = []
  // Connections open or opening, idle or not.
  #size = 0
  #destroyed = false
  #drained?: () => void

  constructor(config: DuckDBDialectConfig) {
    this.#config = Object.freeze({ ...config })
    this.#poolSize = config.poolSize ?? DEFAULT_POOL_SIZE

    if (!Number.isInteger(this.#poolSize) || this.#poolSize < 1) {
      throw new RangeError(`poolSize must be a positive integer, got ${this.#poolSize}`)
    }
  }

  async init(): Promise<void> {
    // Connections open on first use.
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.#destroyed) {
      throw new Error('driver has already been destroyed')
    }

    const idle = this.#idle.pop()

    if (idle) {
      return idle
    }

    if (this.#size < this.#poolSize) {
      return this.#open()
    }

    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }))
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    if (settings.isolationLevel) {
      throw new Error(
        `DuckDB does not support isolation level "${settings.isolationLevel}": its transactions always run under snapshot isolation`,
      )
    }

    const accessMode = settings.accessMode ? ` ${settings.accessMode.toUpperCase()}` : ''
    await connection.executeQuery(CompiledQuery.raw(`BEGIN TRANSACTION${accessMode}`))
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('COMMIT'))
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      // Outside the analysis's scope: a cancelled one must still roll back,
      // or its connection would go back to the pool inside a failed transaction.
      await outsideQueryScope(() => connection.executeQuery(CompiledQuery.raw('ROLLBACK')))
    } catch (error) {
      // A COMMIT that failed (a write-write conflict) has already ended the
      // transaction; Kysely then rolls back, and DuckDB's refusal would hide
      // the commit's own error, which is the one the caller needs.
      if (error instanceof Error && /no transaction is active/i.test(error.message)) return
      throw error
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const duckdbConnection = connection as DuckDBConnection

    if (this.#destroyed) {
      this.#close(duckdbConnection)
      return
    }

    const waiter = this.#waiters.shift()

    if (waiter) {
      waiter.resolve(duckdbConnection)
    } else {
      this.#idle.push(duckdbConnection)
    }
  }

  /**
   * Closes the idle connections at once and the others as they are released,
   * resolving when all are closed. The instance stays open: it is the caller's.
   */
  async destroy(): Promise<void> {
    if (this.#destroyed) {
      return
    }

    this.#destroyed = true
    const error = new Error('driver has already been destroyed')

    for (const waiter of this.#waiters.splice(0)) {
      waiter.reject(error)
    }

    for (const connection of this.#idle.splice(0)) {
      this.#close(connection)
    }

    if (this.#size > 0) {
      await new Promise<void>((resolve) => {
        this.#drained = resolve
      })
    }
  }

  async #open(): Promise<DuckDBConnection> {
    this.#size++
    let connection: DuckDBConnection | undefined

    try {
      connection = new DuckDBConnection(await this.#config.instance.connect())
      await this.#config.onCreateConnection?.(connection)

      // `destroy` was called while the connection was opening.
      if (this.#destroyed) {
        throw new Error('driver has already been destroyed')
      }

      return connection
    } catch (error) {
      if (connection) {
        this.#close(connection)
      } else {
        this.#size--
        this.#drainedCheck()
      }

      // The failed open freed a place in the pool: whoever waits for one
      // would otherwise wait for a release that may never come.
      const waiter = this.#waiters.shift()

      if (waiter) {
        this.#open().then(waiter.resolve, waiter.reject)
      }

      throw error
    }
  }

  #close(connection: DuckDBConnection): void {
    this.#size--

    try {
      connection.closeSync()
    } finally {
      this.#drainedCheck()
    }
  }

  #drainedCheck(): void {
    if (this.#size === 0) {
      this.#drained?.()
    }
  }
}
