export { PGliteDialect } from './pglite-dialect.js'
export type {
  PGliteDialectConfig,
  PGliteLike,
  PGliteQueryOptions,
  PGliteResults,
  PGliteTransactionLike,
} from './pglite-dialect-config.js'
export { createPgDialect } from './pg-dialect.js'
export { createPgDialectConfig } from './pg-dialect-config.js'
export type { PgDialectOptions, PgGetTypeParser, PgPoolClientLike, PgPoolLike } from './pg-dialect-config.js'
export { PgTypeOid, typeParsers } from './type-parsers.js'
export type { TypeParser } from './type-parsers.js'
export { sessionSettings, sessionSettingsQuery } from './session-settings.js'
