import type { CompiledQuery, DatabaseConnection, QueryResult } from 'kysely'
import type { EventRow } from '@sightline/core/storage'
import { ClickHouseConnection } from '../dialect/clickhouse-connection.js'
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
 * go where the routing compiler compiled them for. Events written inside a
 * companion transaction wait here until it commits (ClickHouse has no
 * transactions to join): see `RoutingDriver.commitTransaction`.
 */
export class RoutingConnection implements DatabaseConnection {
  readonly #clickhouse: ClickHouseConnection
  #pending: EventRow[] | undefined

  constructor(
    readonly companion: DatabaseConnection,
    readonly executor: ClickHouseExecutor,
    private readonly clickhouseBound: WeakSet<CompiledQuery>,
    private readonly events: EventWriter,
  ) {
    this.#clickhouse = new ClickHouseConnection(executor, JSON_COLUMNS)
  }

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return this.clickhouseBound.has(compiled) ? this.#clickhouse.executeQuery(compiled) : this.companion.executeQuery(compiled)
  }

  streamQuery<R>(compiled: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.clickhouseBound.has(compiled) ? this.#clickhouse.streamQuery(compiled, chunkSize) : this.companion.streamQuery(compiled, chunkSize)
  }

  /** Marks the start of a companion transaction: events wait for its commit. */
  began(): void {
    this.#pending = []
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
