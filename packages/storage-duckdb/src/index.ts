export { duckdbStorage, type DuckDBStorageOptions } from './duckdb-storage.js'
export { DuckDBDialect, type DuckDBDialectConfig } from './dialect/index.js'
