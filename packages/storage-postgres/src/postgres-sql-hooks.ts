import { sql, type Expression, type RawBuilder } from 'kysely'
import { SQL_NUMBER_MAX_LENGTH, SQL_NUMBER_PATTERN, SQL_TIMESTAMP_PATTERN, type SqlHooks, type UnorderedFilingInput } from '@sightline/core/storage'

/**
 * Postgres's spelling of the dialect hooks. Casts that would raise on bad
 * input are guarded by nested CASEs: Postgres does not promise the order in
 * which AND evaluates, but a CASE only evaluates the branch it takes.
 * (`pg_input_is_valid` would be simpler but needs Postgres 16.)
 */
export const postgresSqlHooks: SqlHooks = {
  jsonText: (json, key) => sql<string | null>`(${json} ->> cast(${key} as text))`,
  regexMatch: (text, pattern) => sql`(${text} ~ cast(${pattern} as text))`,
  textToDouble: (text) => {
    // The pattern allows at most 64 characters and a 3-digit exponent, which numeric always holds.
    const n = sql`cast(${text} as numeric)`
    return sql<number | null>`(case when length(${text}) <= ${sql.lit(SQL_NUMBER_MAX_LENGTH)} and ${text} ~ ${sql.lit(SQL_NUMBER_PATTERN)} then (case when ${n} = 0 or (abs(${n}) > 1e-300 and abs(${n}) < 1e300) then cast(${n} as double precision) end) end)`
  },
  textToTimestamp: (text) => {
    // The pattern checks each field's range; the day is checked by adding it to the
    // first of the month and seeing whether the month changed (2024-02-30 -> March).
    const day = sql`(cast(substr(${text}, 1, 8) || '01' as date) + (cast(substr(${text}, 9, 2) as integer) - 1))`
    return sql<Date | null>`(case when ${text} ~ ${sql.lit(SQL_TIMESTAMP_PATTERN)} then (case when to_char(${day}, 'MM') = substr(${text}, 6, 2) then cast(replace(rtrim(${text}, 'Z'), 'T', ' ') as timestamp) end) end)`
  },
  textInList: (text, values) => sql`(${text} = any(cast(${[...values]} as text[])))`,
  // extract() returns numeric since Postgres 14: exact to the microsecond.
  epochMicros: (timestamp) => sql<number>`cast(extract(epoch from ${timestamp}) * 1000000 as bigint)`,
  // A binary search of the starts and the end, bound as one array (width_bucket: 0 before the first
  // threshold, i from the i-th): timestamp comparisons only, where bucketIndexSql's CASE computes the
  // numeric epoch in each branch it tries.
  bucketIndex: (timestamp, starts, end) =>
    sql<number>`cast(width_bucket(${timestamp}, cast(${[...starts, end].map((d) => d.toISOString())} as timestamptz[])) - 1 as bigint)`,
  // Sessions run in UTC (session-settings.ts), but a timestamptz plus months counts in the session's zone: UTC said outright.
  addMonths: (timestamp, months) =>
    sql`((${timestamp} at time zone 'UTC' + make_interval(months => cast(${months} as integer))) at time zone 'UTC')`,
  // Its uuid type orders as the uuid's text.
  eventUuid: (uuid) => uuid as Expression<string>,
  intDiv: (dividend, divisor) => sql<number>`(cast(${dividend} as bigint) / cast(${divisor} as bigint))`,
  quantileCont: (value, q) => sql<number | null>`percentile_cont(${sql.lit(quantileFraction(q))}) within group (order by ${value})`,
  // A database's default collation may be a locale's (en_US.UTF-8 sorts 'B' after 'a'); "C" compares bytes.
  binaryText: (text) => sql<string | null>`(${text} collate "C")`,
  // Postgres reads `\N` and `\&` in the replacement as matches and `\\` as one backslash: doubling every backslash makes it literal.
  regexReplace: (text, pattern, replacement) =>
    sql<string | null>`regexp_replace(${text}, cast(${pattern} as text), cast(${replacement.replaceAll('\\', '\\\\')} as text), 'g')`,
  // jsonb_each_text raises on a non-object: those give no rows, as on DuckDB.
  sumBefore: (value, partition, ts, micros) =>
    sql<number | null>`${value === null ? sql`count(*)` : sql`sum(${value})`} over (partition by ${partition} order by ${ts} range between unbounded preceding and ${sql.lit(positiveMicros(micros))} preceding)`,
  jsonEntries: (json, alias) =>
    sql`cross join lateral (select key, value from jsonb_each_text(case when jsonb_typeof(${json}) = 'object' then ${json} else cast('{}' as jsonb) end)) as ${entriesAlias(alias)}`,
  unorderedFiling: (input) => unorderedFiling(input),
}

/** A frame offset is a literal the compiler computed; only a positive safe integer is accepted. */
function positiveMicros(micros: number): number {
  if (!(Number.isSafeInteger(micros) && micros >= 1)) throw new RangeError(`sumBefore: micros must be a positive integer, got ${micros}`)
  return micros
}

/** The alias of `jsonEntries`' rows, written as is: the compiler's own name, never user text. */
function entriesAlias(alias: string): RawBuilder<unknown> {
  if (!/^[a-z_][a-z0-9_]*$/.test(alias)) throw new RangeError(`jsonEntries: bad alias ${JSON.stringify(alias)}`)
  return sql.raw(alias)
}

/** A quantile is a literal (an ordered-set aggregate's fraction must be constant); only 0..1 is accepted. */
function quantileFraction(q: number): number {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`a quantile is between 0 and 1, got ${q}`)
  return q
}

/**
 * `SqlHooks.unorderedFiling` as a running window aggregate,
 * `sightline_unordered_filing` (migration postgres_0002): one call of its
 * plpgsql transition per folded row, linear in the steps, in the order of the
 * partition's sort; its state is per step the newest time, plus the step the
 * last row was filed under. FILTER skips the rows of partitions not folded.
 */
function unorderedFiling(input: UnorderedFilingInput): RawBuilder<unknown> {
  const n = input.steps
  const w = input.windowMicros
  if (!(Number.isSafeInteger(n) && n >= 1 && n <= 30)) throw new RangeError(`unorderedFiling: steps must be 1..30, got ${n}`)
  if (!(Number.isSafeInteger(w) && w >= 0)) throw new RangeError(`unorderedFiling: bad window ${w}`)
  const ref = (c: string) => sql.ref(`r.${c}`)
  const folds = sql`${ref(input.when)} = 1`
  const fold = sql`sightline_unordered_filing(cast(${ref(input.ts)} as bigint), cast(${ref(input.mask)} as bigint), cast(${ref(input.carries)} as integer), ${sql.lit(n)}, cast(${sql.lit(w)} as bigint))
    filter (where ${folds}) over (partition by ${sql.join(input.partition.map(ref))} order by ${ref(input.order)} rows between unbounded preceding and current row)`
  return sql`select r.*, (case when ${folds} then ${fold} else 0 end) as ${sql.ref(input.as)} from ${sql.table(input.from)} as r`
}
