import type { CompiledQuery, DatabaseConnection, Driver, TransactionSettings } from 'kysely'
import type { ClickHouseExecutor } from '../dialect/clickhouse-executor.js'
import { RoutingConnection, type EventWriter } from './routing-connection.js'
import type { Route } from './routing-compiler.js'
import type { TableCopies } from './table-copies.js'
import type { PersonRows } from '../person-rows.js'

/**
 * The companion's driver, each connection paired with ClickHouse.
 * Transactions are the companion's. A commit first writes the transaction's
 * events to ClickHouse, then commits the companion: a ClickHouse that fails
 * the write fails the commit, and Kysely rolls the companion back, so
 * nothing is stored. A companion commit that fails after the write (a
 * conflict core retries) deletes those events again. Between the write and
 * the commit, readers may see the events before their persons.
 */
export class RoutingDriver implements Driver {
  constructor(
    private readonly companion: Driver,
    private readonly executor: ClickHouseExecutor,
    private readonly routes: WeakMap<CompiledQuery, Route>,
    private readonly events: EventWriter,
    private readonly copies: TableCopies,
    private readonly personRows: PersonRows,
    private readonly distributed: ReadonlySet<string>,
  ) {}

  init(): Promise<void> {
    return this.companion.init()
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await this.companion.acquireConnection()
    return new RoutingConnection(inner, this.executor, this.routes, this.events, this.copies, this.personRows, this.distributed)
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const routing = connection as RoutingConnection
    await this.companion.beginTransaction(routing.companion, settings)
    routing.began()
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const routing = connection as RoutingConnection
    const written = await routing.flush()
    try {
      await this.companion.commitTransaction(routing.companion)
    } catch (error) {
      await routing.unwrite(written)
      throw error
    } finally {
      routing.ended()
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const routing = connection as RoutingConnection
    routing.rolledBack()
    routing.ended()
    await this.companion.rollbackTransaction(routing.companion)
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.companion.releaseConnection((connection as RoutingConnection).companion)
  }

  async destroy(): Promise<void> {
    await this.companion.destroy()
    await this.executor.close()
  }
}
