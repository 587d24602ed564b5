import type { CompiledQuery, DatabaseConnection, QueryResult, TransactionSettings } from 'kysely'
import { activeQueryScope, runInterruptible } from '@sightline/core/storage'
import type { PGliteLike, PGliteQueryOptions, PGliteTransactionLike } from './pglite-dialect-config.js'
import type { PGliteSession } from './pglite-session.js'
import { analysisPlanner, restorePlanner } from './analysis-planner.js'
import { typeParsers } from './type-parsers.js'

const QUERY_OPTIONS: PGliteQueryOptions = Object.freeze({ rowMode: 'object', parsers: typeParsers })

// As kysely's PostgresDriver: only these commands report affected rows.
const ROW_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE'])

interface OpenTransaction {
  readonly tx: PGliteTransactionLike
  /** Lets PGlite's transaction callback return: `true` commits, `false` rolls back. */
  readonly finish: (commit: boolean) => void
  /** Settles when PGlite has run COMMIT or ROLLBACK; rejects with its error. */
  readonly settled: Promise<void>
  /** Whether `analysisPlanner` ran inside it: a rollback undoes it, and the session must know. */
  plannerSet: boolean
}

/**
 * PGlite's one connection. Not safe for concurrent use: `PGliteDriver` hands
 * it to one caller at a time.
 *
 * PGlite cannot stop a statement it has started: it runs Postgres on the
 * JavaScript thread (unless it is PGlite's worker client), and nothing else
 * in the process, a timer or a cancel request, runs until the statement ends.
 * A cancelled or timed-out analysis therefore stops between statements: the
 * one running finishes and its result is discarded, and the next ones of that
 * analysis fail at once without running.
 */
export class PGliteConnection implements DatabaseConnection {
  readonly #pglite: PGliteLike
  readonly #session: PGliteSession
  #transaction: OpenTransaction | undefined

  constructor(pglite: PGliteLike, session: PGliteSession) {
    this.#pglite = pglite
    this.#session = session
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    // Let due timers and incoming requests run first, so that a timeout or a
    // cancel that fell during the previous statement stops this one from starting.
    const client = this.#transaction?.tx ?? this.#pglite
    if (activeQueryScope()) {
      await yieldToEventLoop()
      if (this.#session.plannerBefore === undefined) {
        const { rows } = await client.query<{ before: string }>(analysisPlanner.sql, [], QUERY_OPTIONS)
        this.#session.plannerBefore = rows[0]!.before
        if (this.#transaction) this.#transaction.plannerSet = true
      }
    }
    const result = await runInterruptible(undefined, () => client.query<R>(compiledQuery.sql, [...compiledQuery.parameters], QUERY_OPTIONS))
    const counts = result.command === undefined || ROW_COMMANDS.has(result.command)
    const count = counts ? (result.rowCount ?? result.affectedRows) : undefined
    return { rows: result.rows, numAffectedRows: count === undefined ? undefined : BigInt(count) }
  }

  /**
   * Puts back the planner settings an analysis's statements took, if the
   * session holds them: called by the driver before a statement outside any
   * analysis, and when it is destroyed.
   */
  async restorePlanner(): Promise<void> {
    const before = this.#session.plannerBefore
    if (before === undefined) return
    this.#session.plannerBefore = undefined
    const { sql, parameters } = restorePlanner(before)
    await this.#pglite.query(sql, [...parameters], QUERY_OPTIONS)
  }

  /**
   * Fetches every row, then yields them `chunkSize` at a time: PGlite has no
   * cursor, and a portal left open would hold its only connection anyway.
   */
  async *streamQuery<R>(compiledQuery: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    const { rows } = await this.executeQuery<R>(compiledQuery)
    const size = chunkSize !== undefined && chunkSize > 0 ? chunkSize : Math.max(rows.length, 1)
    for (let start = 0; start < rows.length; start += size) {
      yield { rows: rows.slice(start, start + size) }
    }
  }

  /**
   * Opens a transaction through PGlite's `transaction()`, whose lock also
   * holds off queries sent to the instance directly, outside this dialect.
   * Its callback stays pending until `commit` or `rollback` lets it return.
   */
  async beginTransaction(settings: TransactionSettings): Promise<void> {
    if (this.#transaction) throw new Error('a transaction is already open on this PGlite connection')

    let finish!: (commit: boolean) => void
    const decided = new Promise<boolean>((resolve) => (finish = resolve))
    let settled!: Promise<void>
    const tx = await new Promise<PGliteTransactionLike>((resolve, reject) => {
      settled = this.#pglite.transaction(async (tx) => {
        resolve(tx)
        if (!(await decided)) await tx.rollback()
      })
      // Rejects here only if BEGIN failed; later errors surface in commit or rollback.
      settled.catch(reject)
    })

    const transaction: OpenTransaction = { tx, finish, settled, plannerSet: false }
    this.#transaction = transaction

    const characteristics = transactionCharacteristics(settings)
    if (characteristics) {
      try {
        // Valid as the first statement after BEGIN, which PGlite has sent.
        await tx.query(`set transaction ${characteristics}`)
      } catch (error) {
        await this.rollbackTransaction().catch(() => {})
        throw error
      }
    }
  }

  /** Commits; rejects if Postgres rolled back instead (the transaction had failed). */
  async commitTransaction(): Promise<void> {
    const transaction = this.#transaction
    if (!transaction) throw new Error('no transaction is open on this PGlite connection')
    this.#transaction = undefined
    transaction.finish(true)
    try {
      await transaction.settled
    } catch (error) {
      this.#plannerUndone(transaction)
      throw error
    }
  }

  /** Rolls back. Safe to call when no transaction is open (kysely does, after a failed commit). */
  async rollbackTransaction(): Promise<void> {
    const transaction = this.#transaction
    if (!transaction) return
    this.#transaction = undefined
    transaction.finish(false)
    try {
      await transaction.settled
    } finally {
      this.#plannerUndone(transaction)
    }
  }

  /** A transaction that did not commit took back the planner settings set inside it: the session no longer holds them. */
  #plannerUndone(transaction: OpenTransaction): void {
    if (transaction.plannerSet) this.#session.plannerBefore = undefined
  }
}

// kysely validated both settings against its own lists of keywords.
function transactionCharacteristics({ isolationLevel, accessMode }: TransactionSettings): string {
  return [isolationLevel && `isolation level ${isolationLevel}`, accessMode].filter(Boolean).join(' ')
}

// A timer, not setImmediate: timers that fell due during a blocking statement run before it.
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))
