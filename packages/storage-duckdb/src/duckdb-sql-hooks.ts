import { sql, type Expression, type RawBuilder } from 'kysely'
import { SQL_NUMBER_MAX_LENGTH, SQL_NUMBER_PATTERN, SQL_TIMESTAMP_PATTERN, type ListHooks, type SqlHooks, type TaggedListHooks, type TaggedListShape, type UnorderedFilingInput } from '@sightline/core/storage'

/**
 * A JSON Pointer (RFC 6901) to a top-level key. DuckDB's JSONPath form
 * (`$."key"`) cannot name the empty key; a pointer names every string once
 * `~` and `/` are escaped, and it is bound as a parameter like any value.
 */
export const jsonPointer = (key: string): string => '/' + key.replaceAll('~', '~0').replaceAll('/', '~1')

// A zero mantissa: the texts whose double is legitimately 0 (1e-400 rounds to 0 but is not zero).
const ZERO_PATTERN = '^-?[0.]+([eE][-+]?[0-9]+)?$'

/** DuckDB's spelling of the dialect hooks. */
/** Lists up to this long are read with `list_contains` (an empty list included, which keeps null for null). */
const SMALL_LIST = 16

export const duckdbSqlHooks: SqlHooks = {
  jsonText: (json, key) => sql<string | null>`json_extract_string(${json}, ${jsonPointer(key)})`,
  // With a list of paths DuckDB parses the document once for all of them (a bound list, as textInList binds).
  jsonTexts: (json, keys) => sql`json_extract_string(${json}, ${keys.map(jsonPointer)})`,
  // DuckDB's `~` must match the whole text; regexp_matches finds a match anywhere (RE2).
  regexMatch: (text, pattern) => sql`regexp_matches(${text}, ${pattern})`,
  textToDouble: (text) => {
    const d = sql`try_cast(${text} as double)`
    return sql<number | null>`(case when length(${text}) <= ${sql.lit(SQL_NUMBER_MAX_LENGTH)} and regexp_full_match(${text}, ${sql.lit(SQL_NUMBER_PATTERN)}) then (case when (${d} = 0 and regexp_full_match(${text}, ${sql.lit(ZERO_PATTERN)})) or (abs(${d}) > 1e-300 and abs(${d}) < 1e300) then ${d} end) end)`
  },
  textToTimestamp: (text) =>
    sql<Date | null>`(case when regexp_full_match(${text}, ${sql.lit(SQL_TIMESTAMP_PATTERN)}) then try_cast(replace(rtrim(${text}, 'Z'), 'T', ' ') as timestamp) end)`,
  // list_contains copies its list for every row: past a few values a semi join against the unnested list
  // is many times faster (1,000 values over 1M events: 15-110 ms against 340-750 ms, on a loaded machine).
  textInList: (text, values) =>
    values.length <= SMALL_LIST ? sql`list_contains(${[...values]}, ${text})` : sql`(${text} in (select unnest(cast(${[...values]} as varchar[]))))`,
  epochMicros: (timestamp) => sql<number>`epoch_us(${timestamp})`,
  // A timestamptz plus months counts in the session's zone (the host's, by default): through UTC wall time instead.
  addMonths: (timestamp, months) => sql`((${timestamp} at time zone 'UTC' + to_months(cast(${months} as integer))) at time zone 'UTC')`,
  // DuckDB's `/` on integers gives a double; `//` divides integers.
  // Its uuid type orders as the uuid's text.
  eventUuid: (uuid) => uuid as Expression<string>,
  intDiv: (dividend, divisor) => sql<number>`((${dividend}) // (${divisor}))`,
  quantileCont: (value, q) => sql<number | null>`quantile_cont(${value}, ${sql.lit(quantileFraction(q))})`,
  // DuckDB's default collation is binary.
  binaryText: (text) => text,
  // RE2's rewrite string reads `\\` as one backslash and `\N` as a group: doubling every backslash makes it literal.
  regexReplace: (text, pattern, replacement) =>
    sql<string | null>`regexp_replace(${text}, ${pattern}, ${replacement.replaceAll('\\', '\\\\')}, 'g')`,
  // json_keys lists an object's keys (none for other values); a pointer built in SQL names each key as jsonText does.
  sumBefore: (value, partition, ts, micros) =>
    sql<number | null>`${value === null ? sql`count(*)` : sql`sum(${value})`} over (partition by ${partition} order by ${ts} range between unbounded preceding and ${sql.lit(positiveMicros(micros))} preceding)`,
  jsonEntries: (json, alias) =>
    sql`cross join lateral (select k as key, json_extract_string(${json}, '/' || replace(replace(k, '~', '~0'), '/', '~1')) as value from (select unnest(json_keys(${json})) as k) as jk) as ${entriesAlias(alias)}`,
  unorderedFiling: (input) => unorderedFiling(input),
  // DuckDB hashes joins of CTEs; each running window aggregate costs a pass of its own.
  hashesIntermediateJoins: true,
  // DuckDB hashes every GROUP BY, whatever its keys.
  groupsByComputedKeys: true,
  // Narrower window sorts; DuckDB materializes the events' CTE the codes need.
  codesPathNames: true,
  lists: duckdbListHooks(),
  // `as not materialized` is DuckDB's spelling too: the step lists' events are read twice rather than stored.
  inlinesCtes: true,
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

/** A quantile is a literal (an aggregate's fraction cannot be a bound parameter everywhere); only 0..1 is accepted. */
function quantileFraction(q: number): number {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`a quantile is between 0 and 1, got ${q}`)
  return q
}

/**
 * `SqlHooks.unorderedFiling` as one `list_reduce` per folded partition over
 * its rows in order, then unnested and joined back. `list_reduce` wants the
 * accumulator of the elements' type, so both are one struct: the event
 * (`t`, `m`, `k`), per step its newest time (`n1..`), the step the previous
 * event was filed under and its time (`c`, `tc`), the previous event's least
 * key (`g`: the step its drain emptied, when every step was in the window),
 * and the steps of the events before it, one character each (`o`). The
 * previous event's filing and drain are applied lazily, when the next one
 * reads the state, so every field is a small expression (linear in the
 * steps), never one that repeats the whole choice.
 *
 * Time: one lambda call per event, in sequence within a partition (DuckDB
 * runs the calls of many partitions side by side); `o` is copied at each
 * call, so a partition of L events also copies L²/2 bytes.
 */
function unorderedFiling(input: UnorderedFilingInput): RawBuilder<unknown> {
  const n = input.steps
  const w = input.windowMicros
  if (!(Number.isSafeInteger(n) && n >= 1 && n <= 30)) throw new RangeError(`unorderedFiling: steps must be 1..30, got ${n}`)
  if (!(Number.isSafeInteger(w) && w >= 0)) throw new RangeError(`unorderedFiling: bad window ${w}`)
  const steps = Array.from({ length: n }, (_, i) => i + 1)
  const lit = (v: number) => sql.lit(v)
  const ref = (c: string) => sql.ref(c)
  const partCols = sql.join(input.partition.map(ref))
  // The state the previous event left, with its filing and its drain applied.
  const newest = (s: number) =>
    sql`(case when acc.c = ${lit(s)} then acc.tc when acc.g >= 64 and acc.g % 64 = ${lit(s)} then null else acc.${sql.raw(`n${s}`)} end)`
  // A step in the window keys (newest - low + 1) * 64 + s, any other s: the least key is the step to file under.
  const low = sql`(x.t - ${lit(w)})`
  const key = (s: number) => sql`(case when ${newest(s)} >= ${low} then (${newest(s)} - ${low} + 1) * 64 + ${lit(s)} else ${lit(s)} end)`
  // Step attribution refuses an event when no step is in the window after the drain (one step: always).
  const refused = n === 1 ? sql`(x.k = 0)` : sql`(x.k = 0 and greatest(${sql.join(steps.map(key))}) < 64)`
  const mine = sql.join(steps.map((s) => sql`(case when (x.m & ${lit(2 ** (s - 1))}) <> 0 then ${key(s)} end)`))
  const chosen = sql`(case when x.m = 0 or ${refused} then 0 else least(${mine}) % 64 end)`
  const shape = (fields: Record<string, RawBuilder<unknown>>) =>
    sql`{${sql.join(Object.entries(fields).map(([name, v]) => sql`${sql.lit(name)}: ${v}`))}}`
  const state = (t: RawBuilder<unknown>, m: RawBuilder<unknown>, k: RawBuilder<unknown>, ns: (s: number) => RawBuilder<unknown>, c: RawBuilder<unknown>, tc: RawBuilder<unknown>, g: RawBuilder<unknown>, o: RawBuilder<unknown>) =>
    shape({ t, m, k, ...Object.fromEntries(steps.map((s) => [`n${s}`, ns(s)])), c, tc, g, o })
  const zero = sql`cast(0 as bigint)`
  const none = () => sql`cast(null as bigint)`
  const empty = sql`cast('' as varchar)`
  const element = state(sql`cast(${ref(input.ts)} as bigint)`, sql`cast(${ref(input.mask)} as bigint)`, sql`cast(${ref(input.carries)} as bigint)`, none, zero, zero, zero, empty)
  const step = state(
    zero,
    zero,
    zero,
    (s) => sql`(case when x.m = 0 then null else ${newest(s)} end)`,
    chosen,
    sql`x.t`,
    sql`(case when x.m = 0 then 0 else least(${sql.join(steps.map(key))}) end)`,
    sql`acc.o || chr(cast(48 + acc.c as integer))`,
  )
  const initial = state(zero, zero, zero, none, zero, zero, zero, empty)
  // `o` starts with the initial state's 0 and lacks the last event's step.
  const folded = sql`select ${partCols}, list(${ref(input.order)} order by ${ref(input.order)}) as ords,
      list_reduce(list(${element} order by ${ref(input.order)}), lambda acc, x: ${step}, ${initial}) as st
    from ${sql.table(input.from)} where ${ref(input.when)} = 1 group by ${partCols}`
  const filed = sql`list_transform(string_split(substr(st.o, 2) || chr(cast(48 + st.c as integer)), ''), lambda ch: ascii(ch) - 48)`
  const rows = sql`select ${partCols}, unnest(ords) as ord, unnest(${filed}) as filed from (${folded}) as fo`
  const on = sql.join(
    [...input.partition.map((c) => sql`r.${ref(c)} = f.${ref(c)}`), sql`r.${ref(input.order)} = f.ord`],
    sql` and `,
  )
  return sql`select r.*, coalesce(f.filed, 0) as ${ref(input.as)} from ${sql.table(input.from)} as r left join (${rows}) as f on ${on}`
}

/** Names the list hooks give struct fields: the compiler's own (`t1`, ...), checked before they are spliced. */
const FIELD = /^[a-z][a-z0-9]*$/
const fieldName = (name: string): string => {
  if (!FIELD.test(name)) throw new Error(`list hooks: bad field name ${name}`)
  return name
}
const field = (name: string): RawBuilder<unknown> => sql.raw(fieldName(name))

/**
 * `SqlHooks.lists` in DuckDB: `list` aggregates, lambdas, and `arg_max` over
 * structs (compared field by field). An unsorted `list` costs a hash
 * aggregate; `list(... order by ...)` sorted each group and was slower
 * (10M events, the ordered funnel's lists: 20% more), and nothing here
 * needs the order.
 */
function duckdbListHooks(): ListHooks {
  return {
    listOf: (value, condition) => sql`coalesce(list(${value}) filter (where ${condition}), [])`,
    one: (value) => sql`list_value(${value})`,
    leastBetween: (list, after, upTo) => sql<number | null>`list_min(list_filter(${list}, lambda x: x > ${after} and x <= ${upTo}))`,
    size: (list) => sql<number>`len(${list})`,
    countOf: (list, value) => sql<number>`len(list_filter(${list}, lambda x: x = ${value}))`,
    unnest: (list) => sql<number>`unnest(${list})`,
    argMax: (fields, keys) =>
      sql`arg_max(struct_pack(${sql.join(fields.map(([name, value]) => sql`${field(name)} := ${value}`))}), struct_pack(${sql.join(keys.map((k, i) => sql`${field(`k${i}`)} := ${k}`))}))`,
    field: (record, name) => sql<number | null>`struct_extract(${record}, ${sql.lit(fieldName(name))})`,
    tagged: duckdbTaggedLists(),
  }
}

/**
 * `ListHooks.tagged` in DuckDB: each element one BIGINT, `(value - from) *
 * 2^tagBits + tag`, read back by its remainder and quotient. Five filtered
 * `list` aggregates cost 2.3x one unfiltered `list` and five `list_filter`s
 * of it (a 5-step funnel's lists at 10M events, 0.23 against 0.10 s of CPU);
 * a list of structs or two parallel lists measured slower than the packed
 * integers. Null where `to - from` and the tag do not fit in 63 bits (a
 * funnel of 20 steps over 100 days still does).
 */
function duckdbTaggedLists(): TaggedListHooks {
  return {
    listOf: (value, tag, shape) => {
      const m = multiplier(shape)
      return m === null ? null : sql`list((${value} - ${sql.lit(shape.from)}) * ${sql.lit(m)} + ${tag})`
    },
    withTag: (list, shape, test) => {
      const m = multiplier(shape)
      if (m === null) throw new RangeError(`tagged lists: ${JSON.stringify(shape)} does not fit a BIGINT element`)
      // x >= 0 (every value is at least `from`), so % and // are the remainder and quotient.
      return sql`list_transform(list_filter(${list}, lambda x: ${test(sql<number>`(x % ${sql.lit(m)})`)}), lambda x: x // ${sql.lit(m)} + ${sql.lit(shape.from)})`
    },
  }
}

/** 2^tagBits, when every element of `shape` fits a BIGINT; null otherwise. The literals are the compiler's numbers, checked here. */
function multiplier(shape: TaggedListShape): number | null {
  const { from, to, tagBits } = shape
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || to < from || !Number.isInteger(tagBits) || tagBits < 1 || tagBits > 30) return null
  const m = 2 ** tagBits
  return (BigInt(to) - BigInt(from) + 1n) * BigInt(m) - 1n <= 2n ** 63n - 1n ? m : null
}
