export { DuckDBDialect } from './duckdb-dialect.js'
export type { DuckDBDialectConfig, DuckDBInstance, DuckDBRawConnection, DuckDBRawPrepared } from './duckdb-dialect-config.js'
export type { DuckDBConnection } from './duckdb-connection.js'
