import { rewriteFirstArguments } from './sql-text.js'

// Postgres type names core writes in casts that ClickHouse lacks or reads otherwise (its TIMESTAMP is DateTime, whole
// seconds). ClickHouse's type names are case-sensitive but for SQL's aliases: the others core writes (text, varchar,
// bigint, integer, double precision, boolean, date) are such aliases; `uuid` is not.
const TYPES: Readonly<Record<string, string>> = {
  timestamptz: "DateTime64(6, 'UTC')",
  float8: 'Float64',
  uuid: 'UUID',
}

const CAST_TYPE = /(\sas\s+)(timestamptz|float8|uuid)(\s*)$/i

/**
 * Compiled SQL with the type of every `cast(x as T)` whose T is a Postgres
 * name ClickHouse lacks spelled as ClickHouse's type. Only the type that ends
 * a cast's argument is read: `x as uuid` elsewhere (an alias) is left alone.
 * An interim until core states those casts through a dialect hook.
 */
export function postgresCastTypes(sql: string): string {
  if (!/\bcast\s*\(/i.test(sql)) return sql
  return rewriteFirstArguments(sql, /^cast\s*\(/i, (argument) =>
    argument.replace(CAST_TYPE, (_, as: string, type: string, space: string) => `${as}${TYPES[type.toLowerCase()]}${space}`),
  )
}
