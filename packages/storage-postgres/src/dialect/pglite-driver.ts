import { createQueryId, IdentifierNode, RawNode } from 'kysely'
import type { DatabaseConnection, Driver, QueryCompiler, TransactionSettings } from 'kysely'
import { activeQueryScope, outsideQueryScope } from '@sightline/core/storage'
import { PGliteConnection } from './pglite-connection.js'
import type { PGliteDialectConfig } from './pglite-dialect-config.js'
import { DEFAULT_PATH_QUERY, pgliteSession, pgliteSettings, type PGliteSession } from './pglite-session.js'

/**
 * Drives PGlite's single connection. kysely acquires the connection for one
 * query, or for a whole transaction (BEGIN to COMMIT or ROLLBACK); the mutex
 * makes every other caller wait until it is released, so nothing interleaves
 * into an open transaction. The mutex is the instance's (see `PGliteSession`):
 * drivers sharing an instance take turns, and each finds its own settings.
 */
export class PGliteDriver implements Driver {
  readonly #config: PGliteDialectConfig
  readonly #session: PGliteSession
  /** The session key of this driver's settings: its schema, or '' for the default path. */
  readonly #key: string
  #connection: PGliteConnection | undefined

  constructor(config: PGliteDialectConfig) {
    this.#config = Object.freeze({ ...config })
    this.#session = pgliteSession(config.pglite)
    this.#key = config.schema ?? ''
  }

  async init(): Promise<void> {
    const { pglite } = this.#config
    if (pglite.closed) throw new Error('the PGlite instance is already closed')

    const connection = new PGliteConnection(pglite, this.#session)
    await this.#session.mutex.lock()
    try {
      // kysely initialises on the first query, which may be an analysis's: its
      // cancel must not fail the setup that other callers wait for too.
      await outsideQueryScope(() => this.#applySettings(connection))
    } finally {
      this.#session.mutex.unlock()
    }
    this.#connection = connection
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#session.mutex.lock()
    const connection = this.#connection
    if (!connection) {
      this.#session.mutex.unlock()
      throw new Error('the PGlite driver has been destroyed')
    }
    try {
      if (this.#session.current !== this.#key) await outsideQueryScope(() => this.#applySettings(connection))
      // An analysis's planner settings stay for the analyses that follow (two statements per analysis
      // statement cost PGlite about a seventh of the funnel examples' CPU) and go before anything else.
      if (!activeQueryScope()) await outsideQueryScope(() => connection.restorePlanner())
    } catch (error) {
      this.#session.mutex.unlock()
      throw error
    }
    return connection
  }

  async releaseConnection(): Promise<void> {
    this.#session.mutex.unlock()
  }

  /** Puts this driver's settings on the session. Called holding the instance's mutex. */
  async #applySettings(connection: PGliteConnection): Promise<void> {
    const session = this.#session
    if (session.defaultPath === undefined) {
      const { rows } = await connection.executeQuery<{ path: string }>(DEFAULT_PATH_QUERY)
      session.defaultPath = rows[0]!.path
    }
    // Unknown until the statement has run: a failure may have left either.
    session.current = undefined
    await connection.executeQuery(pgliteSettings(this.#config.schema, session.defaultPath))
    session.current = this.#key
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await asPGlite(connection).beginTransaction(settings)
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await asPGlite(connection).commitTransaction()
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await asPGlite(connection).rollbackTransaction()
  }

  async savepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await connection.executeQuery(compileQuery(savepointCommand('savepoint', name), createQueryId()))
  }

  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    // Outside the analysis's scope: a cancelled one must still undo its work.
    await outsideQueryScope(() => connection.executeQuery(compileQuery(savepointCommand('rollback to', name), createQueryId())))
  }

  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await connection.executeQuery(compileQuery(savepointCommand('release', name), createQueryId()))
  }

  /**
   * Waits for the query or transaction in progress, then closes the PGlite
   * instance only if `closeOnDestroy` is set. Safe to call twice.
   */
  async destroy(): Promise<void> {
    await this.#session.mutex.lock()
    try {
      const connection = this.#connection
      if (!connection) return
      this.#connection = undefined
      const { pglite, closeOnDestroy = false } = this.#config
      // An instance left open stays the host's: it gets its planner back as it was.
      if (!pglite.closed && !closeOnDestroy) await connection.restorePlanner()
      if (closeOnDestroy && !pglite.closed) await pglite.close()
    } finally {
      // Waiters wake to find no connection and fail.
      this.#session.mutex.unlock()
    }
  }
}

function asPGlite(connection: DatabaseConnection): PGliteConnection {
  if (connection instanceof PGliteConnection) return connection
  throw new TypeError('expected the connection this driver handed out')
}

// A RawNode with an IdentifierNode, so that kysely quotes the savepoint name.
function savepointCommand(command: string, name: string): RawNode {
  return RawNode.createWithChildren([RawNode.createWithSql(`${command} `), IdentifierNode.create(name)])
}
