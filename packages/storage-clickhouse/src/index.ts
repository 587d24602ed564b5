export { clickhouseStorage, type ClickHouseStorageOptions, type ClickHouseTarget, type ClusterOption } from './clickhouse-storage.js'
export { clickhouseSqlHooks } from './clickhouse-sql-hooks.js'
export { ClickHouseDialect, ClickHouseTransactionError, type ChdbSession, type ClickHouseClient, type ClickHouseDialectConfig } from './dialect/index.js'
