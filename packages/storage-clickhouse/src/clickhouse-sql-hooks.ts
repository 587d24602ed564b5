import { sql, type Expression, type RawBuilder } from 'kysely'
import { SQL_NUMBER_MAX_LENGTH, SQL_NUMBER_PATTERN, SQL_TIMESTAMP_PATTERN, type SqlHooks, type UnorderedFilingInput } from '@sightline/core/storage'

// A zero mantissa: the texts whose double is legitimately 0 (1e-400 rounds to 0 but is not zero).
const ZERO_PATTERN = '^-?[0.]+([eE][-+]?[0-9]+)?$'

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
  // ClickHouse hashes every GROUP BY, whatever its keys.
  groupsByComputedKeys: true,
  // has() is 0, not null, for a null text.
  textInList: (text, values) => sql`if(isNull(${text}), NULL, has(${[...values]}, ${text}))`,
  epochMicros: (timestamp) => sql<number>`toUnixTimestamp64Micro(${timestamp})`,
  // addMonths counts in the value's zone; events' timestamps are UTC, any other value is read in UTC too.
  addMonths: (timestamp, months) => sql`addMonths(toTimeZone(${timestamp}, 'UTC'), toInt32(${months}))`,
  // A UUID orders by its second half first here (00000000-0000-0000-0000-000000000001 after 01000000-...): its text orders as the text.
  eventUuid: (uuid) => sql<string>`toString(${uuid})`,
  intDiv: (dividend, divisor) => sql<number>`intDiv(${dividend}, ${divisor})`,
  // quantileExactInclusive interpolates at (n - 1) * q (R7) and is null over no values.
  quantileCont: (value, q) => sql<number | null>`quantileExactInclusive(${sql.lit(quantileFraction(q))})(${value})`,
  // ClickHouse compares strings byte by byte.
  binaryText: (text) => text,
  // replaceRegexpAll reads `\N` as a group and `\\` as one backslash: doubling every backslash makes the text literal.
  regexReplace: (text, pattern, replacement) =>
    sql<string | null>`replaceRegexpAll(${text}, ${pattern}, ${replacement.replaceAll('\\', '\\\\')})`,
  sumBefore: (value, partition, ts, micros) => sumBefore(value, partition, ts, micros),
  // No LATERAL join in ClickHouse: an ARRAY JOIN of named tuples, read as alias.key and alias.value. Keys of anything but an object: none.
  jsonEntries: (json, alias) =>
    sql`array join arrayMap(k -> CAST((k, ${jsonTextOf(json, sql`k`)}), 'Tuple(key String, value Nullable(String))'), JSONExtractKeys(ifNull(${json}, ''))) as ${entriesAlias(alias)}`,
  unorderedFiling: (input) => unorderedFiling(input),
}

/**
 * `SqlHooks.jsonText` with the key as any expression: a bound parameter in
 * queries, a literal in the DDL of the materialized property columns (where
 * ClickHouse takes no parameters). Strings come unquoted, other values as
 * their JSON text; a missing key, JSON null and a document that is no JSON
 * are null. The document is parsed once, for the value's raw JSON text
 * (ClickHouse computes the repeated `JSONExtractRaw` once): '' when the key
 * is missing, `null` for JSON null, a quoted string unquoted by parsing that
 * text alone. Asking `JSONType` first, as before, parsed the document twice
 * per value: reading a property of 1M events took 184 -> 138 ms for numbers,
 * 210 -> 173 ms for strings, and the hot columns are these expressions too.
 */
export function jsonTextOf(json: Expression<unknown>, key: Expression<string>): RawBuilder<string | null> {
  const raw = sql`JSONExtractRaw(${json}, ${key})`
  return sql<string | null>`multiIf(${raw} = '' or ${raw} = 'null', NULL, startsWith(${raw}, '"'), JSONExtractString(${raw}), ${raw})`
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

/**
 * `SqlHooks.unorderedFiling` as one `arrayFold` per folded partition over its
 * rows in order (`groupArray`, sorted), then `ARRAY JOIN`ed and joined back.
 * The accumulator is per step the time of its newest event (`NONE` for none)
 * and the steps filed so far. Each event: forget the steps out of the window,
 * drain the oldest when all are in it, then file under the step of its mask
 * whose newest is oldest (`indexOf` of the minimum: the lowest step on a tie;
 * `NONE` sorts first). Time: one lambda call per event in sequence, each
 * O(steps) array work; the filed steps are copied at each call, so a
 * partition of L events also copies L²/2 bytes, as DuckDB's `list_reduce`.
 */
function unorderedFiling(input: UnorderedFilingInput): RawBuilder<unknown> {
  const n = input.steps
  const w = input.windowMicros
  if (!(Number.isSafeInteger(n) && n >= 1 && n <= 30)) throw new RangeError(`unorderedFiling: steps must be 1..30, got ${n}`)
  if (!(Number.isSafeInteger(w) && w >= 0)) throw new RangeError(`unorderedFiling: bad window ${w}`)
  const ref = (c: string) => sql.ref(c)
  const NONE = sql.raw('toInt64(-4611686018427387904)')
  const LAST = sql.raw('toInt64(4611686018427387904)')
  const t = sql`x.2`
  const m = sql`x.3`
  const k = sql`x.4`
  // Per step, its newest time still in the window of this event.
  const kept = sql`arrayMap(v -> if(v >= ${t} - ${sql.lit(w)}, v, ${NONE}), acc.1)`
  const done = sql`arrayCount(v -> v != ${NONE}, ${kept})`
  const drained = sql`if(${done} = ${sql.lit(n)}, arrayMap((v, i) -> if(i = indexOf(${kept}, arrayMin(${kept})), ${NONE}, v), ${kept}, arrayEnumerate(${kept})), ${kept})`
  const left = sql`arrayCount(v -> v != ${NONE}, ${drained})`
  const candidates = sql`arrayMap((v, i) -> if(bitTest(${m}, i - 1), v, ${LAST}), ${drained}, arrayEnumerate(${drained}))`
  const chosen = sql`if(${m} = 0 or (${k} = 0 and ${left} = 0) or arrayMin(${candidates}) = ${LAST}, 0, indexOf(${candidates}, arrayMin(${candidates})))`
  const newest = sql`if(${m} = 0, arrayWithConstant(${sql.lit(n)}, ${NONE}), arrayMap((v, i) -> if(i = ${chosen}, ${t}, v), ${drained}, arrayEnumerate(${drained})))`
  const initial = sql`CAST((arrayWithConstant(${sql.lit(n)}, ${NONE}), []), 'Tuple(Array(Int64), Array(UInt8))')`
  const step = sql`(${newest}, arrayPushBack(acc.2, toUInt8(${chosen})))`
  const partCols = sql.join(input.partition.map(ref))
  const events = sql`tuple(${ref(input.order)}, toInt64(${ref(input.ts)}), toInt64(${ref(input.mask)}), toInt64(${ref(input.carries)}))`
  const sorted = sql`select ${partCols}, arraySort(e -> e.1, groupArray(${events})) as xs from ${sql.table(input.from)} where ${ref(input.when)} = 1 group by ${partCols}`
  const folded = sql`select ${partCols}, arrayMap(e -> e.1, xs) as ords, arrayFold((acc, x) -> ${step}, xs, ${initial}).2 as steps from (${sorted}) as so`
  const rows = sql`select ${partCols}, ord, filed from (${folded}) as fo array join ords as ord, steps as filed`
  const on = sql.join(
    [...input.partition.map((c) => sql`r.${ref(c)} = f.${ref(c)}`), sql`r.${ref(input.order)} = f.ord`],
    sql` and `,
  )
  return sql`select r.*, coalesce(f.filed, 0) as ${ref(input.as)} from ${sql.table(input.from)} as r left join (${rows}) as f on ${on}`
}

/** The alias of `jsonEntries`' rows, written as is: the compiler's own name, never user text. */
function entriesAlias(alias: string): RawBuilder<unknown> {
  if (!/^[a-z_][a-z0-9_]*$/.test(alias)) throw new RangeError(`jsonEntries: bad alias ${JSON.stringify(alias)}`)
  return sql.raw(alias)
}

/** A quantile is a literal (ClickHouse takes an aggregate's level as a constant); only 0..1 is accepted. */
function quantileFraction(q: number): number {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`a quantile is between 0 and 1, got ${q}`)
  return q
}
