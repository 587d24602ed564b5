import { CompiledQuery, type DatabaseConnection, type QueryResult } from 'kysely'
import type { EventRow } from '@sightline/core/storage'
import { ClickHouseConnection } from '../dialect/clickhouse-connection.js'
import type { Route } from './routing-compiler.js'
import type { TableCopies } from './table-copies.js'
import type { PersonRows } from '../person-rows.js'
import type { ClickHouseExecutor } from '../dialect/clickhouse-executor.js'

/** ClickHouse's columns that hold JSON text, read parsed as the companion's JSON columns are. */
const JSON_COLUMNS: ReadonlySet<string> = new Set(['properties'])

/** How the routing connection writes events to ClickHouse, and takes them back. */
export interface EventWriter {
  write(executor: ClickHouseExecutor, rows: ReadonlyArray<EventRow>): Promise<number>
  remove(executor: ClickHouseExecutor, rows: ReadonlyArray<EventRow>): Promise<void>
}

/**
 * One connection of the companion store paired with ClickHouse. Statements
 * go where the routing compiler compiled them for; a ClickHouse read first
 * refreshes the copies of the companion tables it names. Events written inside a
 * companion transaction wait here until it commits (ClickHouse has no
 * transactions to join): see `RoutingDriver.commitTransaction`.
 */
export class RoutingConnection implements DatabaseConnection {
  readonly #clickhouse: ClickHouseConnection
  #pending: EventRow[] | undefined
  #touched: Set<string> | undefined

  constructor(
    readonly companion: DatabaseConnection,
    readonly executor: ClickHouseExecutor,
    private readonly routes: WeakMap<CompiledQuery, Route>,
    private readonly events: EventWriter,
    private readonly copies: TableCopies,
    private readonly personRows: PersonRows,
    /** The Distributed tables of a cluster (empty on one server), which reads of them treat apart (`statementPlan`). */
    distributed: ReadonlySet<string>,
  ) {
    this.#clickhouse = new ClickHouseConnection(executor, JSON_COLUMNS, distributed)
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const route = this.routes.get(compiled)
    if (route?.side === 'clickhouse') {
      await this.catchUp()
      if (route.reads.size > 0) await this.copies.refresh(route.reads, this.companion)
      return this.#clickhouse.executeQuery(compiled)
    }
    const result = await this.companion.executeQuery<R>(compiled)
    if (route && route.writes.size > 0) this.#wrote(route.writes)
    return result
  }

  async *streamQuery<R>(compiled: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    const route = this.routes.get(compiled)
    if (route?.side !== 'clickhouse') {
      yield* this.companion.streamQuery<R>(compiled, chunkSize)
      if (route && route.writes.size > 0) this.#wrote(route.writes)
      return
    }
    await this.catchUp()
    if (route.reads.size > 0) await this.copies.refresh(route.reads, this.companion)
    yield* this.#clickhouse.streamQuery<R>(compiled, chunkSize)
  }

  /**
   * Brings ClickHouse's person rows to the companion's when they may be behind (`PersonRows.catchUp`);
   * nothing inside a companion transaction, whose uncommitted rows it would read. Resolves to whether it
   * read the companion's committed rows.
   */
  async catchUp(): Promise<boolean> {
    if (!this.personRows.behind || this.#pending !== undefined) return false
    return this.personRows.catchUp(async (query) => (await this.companion.executeQuery<Record<string, unknown>>(CompiledQuery.raw(query))).rows)
  }

  // Stale at once (a read later in the same transaction sees its writes) and again when the transaction ends,
  // committed or not: a refresh in between may have copied its uncommitted rows.
  #wrote(tables: ReadonlySet<string>): void {
    this.copies.changed(tables)
    if (this.#touched) for (const t of tables) this.#touched.add(t)
  }

  /** Marks the start of a companion transaction: events wait for its commit. */
  began(): void {
    this.#pending = []
    this.#touched = new Set()
  }

  /** The transaction ended: the copies of the tables it wrote are stale. */
  ended(): void {
    if (this.#touched) this.copies.changed(this.#touched)
    this.#touched = undefined
  }

  /** Writes `rows` to ClickHouse now, or at the commit of the open transaction. Resolves to the rows taken. */
  async insertEvents(rows: ReadonlyArray<EventRow>): Promise<number> {
    if (this.#pending === undefined) return this.events.write(this.executor, rows)
    this.#pending.push(...rows)
    return rows.length
  }

  /**
   * Ends the transaction's wait: its events go to ClickHouse, and the rows
   * written are returned so that `unwrite` can take them back.
   */
  async flush(): Promise<ReadonlyArray<EventRow>> {
    const rows = this.#pending ?? []
    this.#pending = undefined
    if (rows.length > 0) await this.events.write(this.executor, rows)
    return rows
  }

  /** Deletes rows `flush` wrote, when the companion's commit failed after it. */
  async unwrite(rows: ReadonlyArray<EventRow>): Promise<void> {
    if (rows.length > 0) await this.events.remove(this.executor, rows)
  }

  /** After a rollback: the transaction's events are dropped. */
  rolledBack(): void {
    this.#pending = undefined
  }
}
