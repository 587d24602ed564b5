export { DuckDBDialect } from './duckdb-dialect.js'
export type { DuckDBDialectConfig, DuckDBInstance, DuckDBRawConnection } from './duckdb-dialect-config.js'
export type { DuckDBConnection } from './duckdb-connection.js'
