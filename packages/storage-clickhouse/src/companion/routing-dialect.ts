import type { CompiledQuery, DatabaseIntrospector, Dialect, DialectAdapter, Driver, Kysely, QueryCompiler } from 'kysely'
import type { ClickHouseExecutor } from '../dialect/clickhouse-executor.js'
import { ClickHouseQueryCompiler } from '../dialect/clickhouse-query-compiler.js'
import { RoutingCompiler, type Route } from './routing-compiler.js'
import type { TableCopies } from './table-copies.js'
import type { PersonRows } from '../person-rows.js'
import { RoutingDriver } from './routing-driver.js'
import type { EventWriter } from './routing-connection.js'

/** The DateTime64 columns of ClickHouse's tables, which core compares with ISO 8601 texts. */
const TIME_COLUMNS: ReadonlySet<string> = new Set(['timestamp', 'inserted_at'])

/**
 * One Kysely dialect over two stores: the companion's (transactions,
 * migrations records, every management table) and ClickHouse for reads of
 * its tables. The adapter and introspector are the companion's, as Kysely's
 * migrator and transactions run there.
 */
export class RoutingDialect implements Dialect {
  readonly #routes = new WeakMap<CompiledQuery, Route>()

  constructor(
    private readonly companion: Dialect,
    private readonly executor: ClickHouseExecutor,
    private readonly events: EventWriter,
    private readonly copies: TableCopies,
    /** ClickHouse's person rows, caught up before a read when a write of them failed. */
    private readonly personRows: PersonRows,
    /** The Distributed tables of a cluster. Default: none, one server. */
    private readonly distributed: ReadonlySet<string> = new Set(),
  ) {}

  createDriver(): Driver {
    return new RoutingDriver(this.companion.createDriver(), this.executor, this.#routes, this.events, this.copies, this.personRows, this.distributed)
  }

  createQueryCompiler(): QueryCompiler {
    return new RoutingCompiler(new ClickHouseQueryCompiler(TIME_COLUMNS), this.companion.createQueryCompiler(), this.#routes)
  }

  createAdapter(): DialectAdapter {
    return this.companion.createAdapter()
  }

  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return this.companion.createIntrospector(db)
  }
}
