export { postgresStorage, type PostgresStorageOptions } from './postgres-storage.js'
export { PGliteDialect, createPgDialect, type PGliteLike, type PgPoolLike } from './dialect/index.js'
