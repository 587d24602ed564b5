import { sql } from 'kysely'
import { SQL_NUMBER_MAX_LENGTH, SQL_NUMBER_PATTERN, SQL_TIMESTAMP_PATTERN, type SqlHooks } from '@sightline/core/storage'

/**
 * A JSON Pointer (RFC 6901) to a top-level key. DuckDB's JSONPath form
 * (`$."key"`) cannot name the empty key; a pointer names every string once
 * `~` and `/` are escaped, and it is bound as a parameter like any value.
 */
export const jsonPointer = (key: string): string => '/' + key.replaceAll('~', '~0').replaceAll('/', '~1')

// A zero mantissa: the texts whose double is legitimately 0 (1e-400 rounds to 0 but is not zero).
const ZERO_PATTERN = '^-?[0.]+([eE][-+]?[0-9]+)?$'

/** DuckDB's spelling of the dialect hooks. */
export const duckdbSqlHooks: SqlHooks = {
  jsonText: (json, key) => sql<string | null>`json_extract_string(${json}, ${jsonPointer(key)})`,
  // DuckDB's `~` must match the whole text; regexp_matches finds a match anywhere (RE2).
  regexMatch: (text, pattern) => sql`regexp_matches(${text}, ${pattern})`,
  textToDouble: (text) => {
    const d = sql`try_cast(${text} as double)`
    return sql<number | null>`(case when length(${text}) <= ${sql.lit(SQL_NUMBER_MAX_LENGTH)} and regexp_full_match(${text}, ${sql.lit(SQL_NUMBER_PATTERN)}) then (case when (${d} = 0 and regexp_full_match(${text}, ${sql.lit(ZERO_PATTERN)})) or (abs(${d}) > 1e-300 and abs(${d}) < 1e300) then ${d} end) end)`
  },
  textToTimestamp: (text) =>
    sql<Date | null>`(case when regexp_full_match(${text}, ${sql.lit(SQL_TIMESTAMP_PATTERN)}) then try_cast(replace(rtrim(${text}, 'Z'), 'T', ' ') as timestamp) end)`,
  textInList: (text, values) => sql`list_contains(${[...values]}, ${text})`,
  epochMicros: (timestamp) => sql<number>`epoch_us(${timestamp})`,
  // DuckDB's `/` on integers gives a double; `//` divides integers.
  intDiv: (dividend, divisor) => sql<number>`(${dividend} // ${divisor})`,
  quantileCont: (value, q) => sql<number | null>`quantile_cont(${value}, ${sql.lit(quantileFraction(q))})`,
  // DuckDB's default collation is binary.
  binaryText: (text) => text,
  // RE2's rewrite string reads `\\` as one backslash and `\N` as a group: doubling every backslash makes it literal.
  regexReplace: (text, pattern, replacement) =>
    sql<string | null>`regexp_replace(${text}, ${pattern}, ${replacement.replaceAll('\\', '\\\\')}, 'g')`,
  // json_keys lists an object's keys (none for other values); a pointer built in SQL names each key as jsonText does.
  jsonEntries: (json) =>
    sql`(select k as key, json_extract_string(${json}, '/' || replace(replace(k, '~', '~0'), '/', '~1')) as value from (select unnest(json_keys(${json})) as k) as jk)`,
}

/** A quantile is a literal (an aggregate's fraction cannot be a bound parameter everywhere); only 0..1 is accepted. */
function quantileFraction(q: number): number {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`a quantile is between 0 and 1, got ${q}`)
  return q
}
