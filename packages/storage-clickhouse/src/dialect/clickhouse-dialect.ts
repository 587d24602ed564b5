import type { DatabaseIntrospector, Dialect, DialectAdapter, Driver, Kysely, QueryCompiler } from 'kysely'
import { ClickHouseAdapter } from './clickhouse-adapter.js'
import type { ClickHouseDialectConfig } from './clickhouse-dialect-config.js'
import { ClickHouseDriver } from './clickhouse-driver.js'
import type { ClickHouseExecutor } from './clickhouse-executor.js'
import { ClickHouseIntrospector } from './clickhouse-introspector.js'
import { ClickHouseQueryCompiler } from './clickhouse-query-compiler.js'
import { chdbExecutor } from './chdb-executor.js'
import { clientExecutor } from './client-executor.js'

/**
 * Kysely dialect for ClickHouse, embedded through chDB or on a server
 * through `@clickhouse/client`: one compiler, two drivers.
 *
 * ```ts
 * import { Session } from 'chdb'
 *
 * const db = new Kysely<Database>({ dialect: new ClickHouseDialect({ session: new Session('analytics') }) })
 * ```
 */
export class ClickHouseDialect implements Dialect {
  readonly executor: ClickHouseExecutor

  constructor(config: ClickHouseDialectConfig) {
    this.executor = 'session' in config ? chdbExecutor(config.session) : clientExecutor(config.client)
  }

  createDriver(): Driver {
    return new ClickHouseDriver(this.executor)
  }

  createQueryCompiler(): QueryCompiler {
    return new ClickHouseQueryCompiler()
  }

  createAdapter(): DialectAdapter {
    return new ClickHouseAdapter()
  }

  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new ClickHouseIntrospector(db)
  }
}
