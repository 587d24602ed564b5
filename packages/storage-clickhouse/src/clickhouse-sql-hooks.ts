import { sql, type Expression, type RawBuilder } from 'kysely'
import { SQL_NUMBER_MAX_LENGTH, SQL_NUMBER_PATTERN, SQL_TIMESTAMP_PATTERN, type SqlHooks } from '@sightline/core/storage'

// A zero mantissa: the texts whose double is legitimately 0 (1e-400 rounds to 0 but is not zero).
const ZERO_PATTERN = '^-?[0.]+([eE][-+]?[0-9]+)?$'

/** Thrown by a hook ClickHouse cannot spell in the shape the port asks for. */
export class ClickHouseHookUnsupportedError extends Error {
  override readonly name = 'ClickHouseHookUnsupportedError'
}

/**
 * ClickHouse's spelling of the dialect hooks. JSON documents are `String`
 * columns read with the `JSONExtract*` functions (simdjson); user text
 * (keys, patterns, lists) is bound as query parameters.
 */
export const clickhouseSqlHooks: SqlHooks = {
  jsonText: (json, key) => jsonTextOf(json, sql`${key}`),
  // match() finds a match anywhere (RE2), and is null for a null text.
  regexMatch: (text, pattern) => sql`match(${text}, ${pattern})`,
  textToDouble: (text) => {
    const d = sql`toFloat64OrNull(${text})`
    return sql<number | null>`if(length(${text}) <= ${sql.lit(SQL_NUMBER_MAX_LENGTH)} and match(${text}, ${sql.lit(SQL_NUMBER_PATTERN)}), multiIf(${d} = 0 and match(${text}, ${sql.lit(ZERO_PATTERN)}), ${d}, abs(${d}) > 1e-300 and abs(${d}) < 1e300, ${d}, NULL), NULL)`
  },
  // The pattern admits only real-looking dates; parseDateTime64BestEffortOrNull refuses a day the month lacks (toDateTime64OrNull would roll it over).
  textToTimestamp: (text) =>
    sql<Date | null>`if(match(${text}, ${sql.lit(SQL_TIMESTAMP_PATTERN)}), parseDateTime64BestEffortOrNull(${text}, 6, 'UTC'), NULL)`,
  // has() is 0, not null, for a null text.
  textInList: (text, values) => sql`if(isNull(${text}), NULL, has(${[...values]}, ${text}))`,
  epochMicros: (timestamp) => sql<number>`toUnixTimestamp64Micro(${timestamp})`,
  // addMonths counts in the value's zone; events' timestamps are UTC, any other value is read in UTC too.
  addMonths: (timestamp, months) => sql`addMonths(toTimeZone(${timestamp}, 'UTC'), toInt32(${months}))`,
  intDiv: (dividend, divisor) => sql<number>`intDiv(${dividend}, ${divisor})`,
  // quantileExactInclusive interpolates at (n - 1) * q (R7) and is null over no values.
  quantileCont: (value, q) => sql<number | null>`quantileExactInclusive(${sql.lit(quantileFraction(q))})(${value})`,
  // ClickHouse compares strings byte by byte.
  binaryText: (text) => text,
  // replaceRegexpAll reads `\N` as a group and `\\` as one backslash: doubling every backslash makes the text literal.
  regexReplace: (text, pattern, replacement) =>
    sql<string | null>`replaceRegexpAll(${text}, ${pattern}, ${replacement.replaceAll('\\', '\\\\')})`,
  sumBefore: (value, partition, ts, micros) => sumBefore(value, partition, ts, micros),
  jsonEntries: () => {
    throw new ClickHouseHookUnsupportedError('jsonEntries: ClickHouse has no LATERAL join; its spelling is arrayJoin(JSONExtractKeysAndValuesRaw(json)) in the select list')
  },
  unorderedFiling: () => {
    throw new ClickHouseHookUnsupportedError('unorderedFiling: the fold is not written for ClickHouse yet (arrayFold over groupArray is the candidate)')
  },
}

/**
 * `SqlHooks.jsonText` with the key as any expression: a bound parameter in
 * queries, a literal in the DDL of the materialized property columns (where
 * ClickHouse takes no parameters). JSONType is 'Null' for a missing key and
 * for JSON null; strings come unquoted, other values as their JSON text.
 */
export function jsonTextOf(json: Expression<unknown>, key: Expression<string>): RawBuilder<string | null> {
  return sql<string | null>`multiIf(JSONType(${json}, ${key}) = 'String', JSONExtractString(${json}, ${key}), JSONType(${json}, ${key}) = 'Null', NULL, JSONExtractRaw(${json}, ${key}))`
}

/**
 * `SqlHooks.sumBefore` within ClickHouse's RANGE offsets, which must fit in
 * 32 bits (a funnel window of two weeks is 1.2e12 microseconds): the frame
 * runs over whole seconds, and the one second the bound `ts - micros` falls
 * in is read from an array of its rows' sub-second parts (and values). The
 * bound's second is `micros` seconds (rounded down) before the row's, or one
 * more when the row's sub-second part is below the rest: two frames each.
 * Windows sharing partition and order, ClickHouse sorts once.
 */
function sumBefore(value: Expression<unknown> | null, partition: Expression<unknown>, ts: Expression<unknown>, micros: number): RawBuilder<number | null> {
  if (!(Number.isSafeInteger(micros) && micros >= 1)) throw new RangeError(`sumBefore: micros must be a positive integer, got ${micros}`)
  const SECOND = 1_000_000
  const whole = Math.floor(micros / SECOND)
  const rest = micros % SECOND
  if (whole + 2 > 2 ** 32 - 1) throw new RangeError(`sumBefore: ${micros} microseconds is beyond ClickHouse's RANGE offsets`)
  // Shifted by 10^16 microseconds (317 years): the seconds and their parts of times since 1900 are then non-negative.
  const shifted = sql`(toInt64(${ts}) + 10000000000000000)`
  const sec = sql`intDiv(${shifted}, ${sql.lit(SECOND)})`
  const frac = sql`(${shifted} % ${sql.lit(SECOND)})`
  const over = (frame: RawBuilder<unknown>) => sql`over (partition by ${partition} order by ${sec} range between ${frame})`
  const upTo = (seconds: number) => sql`coalesce(${value === null ? sql`count()` : sql`sum(${value})`} ${over(sql`unbounded preceding and ${sql.lit(seconds)} preceding`)}, 0)`
  const within = (seconds: number, bound: RawBuilder<unknown>) => {
    const frame = over(sql`${sql.lit(seconds)} preceding and ${sql.lit(seconds)} preceding`)
    return value === null
      ? sql`arrayCount(x -> x <= ${bound}, groupArray(${frac}) ${frame})`
      : sql`arraySum(x -> if(x.1 <= ${bound}, x.2, 0), groupArray((${frac}, ${value})) ${frame})`
  }
  const sameSecond = sql`(${upTo(whole + 1)} + ${within(whole, sql`${frac} - ${sql.lit(rest)}`)})`
  if (rest === 0) return sql<number | null>`${sameSecond}`
  const secondBefore = sql`(${upTo(whole + 2)} + ${within(whole + 1, sql`${frac} + ${sql.lit(SECOND - rest)}`)})`
  return sql<number | null>`if(${frac} >= ${sql.lit(rest)}, ${sameSecond}, ${secondBefore})`
}

/** A quantile is a literal (ClickHouse takes an aggregate's level as a constant); only 0..1 is accepted. */
function quantileFraction(q: number): number {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`a quantile is between 0 and 1, got ${q}`)
  return q
}
