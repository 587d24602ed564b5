export { ClickHouseDialect } from './clickhouse-dialect.js'
export type { ChdbSession, ClickHouseClient, ClickHouseDialectConfig } from './clickhouse-dialect-config.js'
export type { ClickHouseExecutor, CompactResult } from './clickhouse-executor.js'
export { ClickHouseTransactionError } from './clickhouse-driver.js'
