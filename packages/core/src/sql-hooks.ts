/**
 * The SQL spellings an adapter gives core (`StorageAdapter.sql`): dialect
 * hooks, the list functions of step-list funnels, and the texts numbers and
 * timestamps must spell to be read. Part of the storage port
 * (`@sightline/core/storage` re-exports it).
 */
import type { Expression, SqlBool } from 'kysely'

/**
 * The text a number must spell for `SqlHooks.textToDouble`: an optional minus,
 * decimal digits with an optional point, an optional exponent of at most three digits. No spaces, `+`,
 * `Infinity` or `NaN`, so every database reads the same texts as numbers.
 */
export const SQL_NUMBER_PATTERN = '^-?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]{1,3})?$'

/**
 * The text a timestamp must spell for `SqlHooks.textToTimestamp`: `YYYY-MM-DD`
 * (years 1000 to 9999), optionally `T` or a space and `HH:MM[:SS[.ffffff]]`,
 * optionally `Z`. Offsets other than `Z` are not read.
 */
export const SQL_TIMESTAMP_PATTERN =
  '^[1-9][0-9]{3}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])([T ]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9]([.][0-9]{1,6})?)?)?Z?$'

/** The longest text `textToDouble` reads; longer texts are not numbers (a bound on the work and on Postgres's numeric). */
export const SQL_NUMBER_MAX_LENGTH = 64

/**
 * Dialect hooks: SQL fragments whose spelling differs per database, built with
 * Kysely's `sql` tag. Every user-given string is a bound parameter, never spliced.
 */
export interface SqlHooks {
  /**
   * The text of top-level key `key` of the JSON document `json` (strings without
   * quotes, other scalars in JSON spelling); null when the key is missing or JSON null.
   */
  jsonText(json: Expression<unknown>, key: string): Expression<string | null>
  /**
   * Optional: the texts of several top-level keys of one JSON document read
   * in one pass over it, as a list whose item `i` (1-based, read as
   * `list[i]`) is `jsonText(json, keys[i - 1])`; null when `json` is null.
   * For a database that parses a stored document at each read (DuckDB: three
   * named person properties of 83,610 persons, one read instead of three cut
   * a correlation by a quarter). Default: one `jsonText` per key.
   */
  jsonTexts?(json: Expression<unknown>, keys: ReadonlyArray<string>): Expression<unknown>
  /** True when `pattern` (RE2 syntax) matches anywhere in `text`; null when `text` is null. */
  regexMatch(text: Expression<string | null>, pattern: string): Expression<SqlBool | null>
  /**
   * `text` as a double when it matches `SQL_NUMBER_PATTERN`, is at most
   * `SQL_NUMBER_MAX_LENGTH` long and is zero or between 1e-300 and 1e300 in
   * magnitude; otherwise null, never an error.
   */
  textToDouble(text: Expression<string | null>): Expression<number | null>
  /**
   * `text` as a timestamp without time zone when it matches
   * `SQL_TIMESTAMP_PATTERN` and names a real date; otherwise null, never an error.
   */
  textToTimestamp(text: Expression<string | null>): Expression<Date | null>
  /** True when `text` equals one of `values`, bound as one array parameter; null when `text` is null. */
  textInList(text: Expression<string | null>, values: ReadonlyArray<string>): Expression<SqlBool | null>
  /**
   * Microseconds since the Unix epoch of a `timestamptz` value, as a 64-bit
   * integer. Queries bucket and compare these integers instead of converting
   * every row's time zone (shared/reference/performance.md: 1.7x the floor
   * against 15x for `date_trunc`).
   */
  epochMicros(timestamp: Expression<unknown>): Expression<number>
  /**
   * The instant `months` calendar months after the `timestamptz` value
   * `timestamp`, counted on its UTC date whatever the session's time zone:
   * the time of day kept, the day clamped to the target month's last (31
   * January plus one month is 28 or 29 February), as ClickHouse's `addMonths`
   * on PostHog's UTC timestamps. `months` is a positive integer, bound as a
   * parameter; results before the year 10000 only.
   */
  addMonths(timestamp: Expression<unknown>, months: number): Expression<unknown>
  /**
   * An event's uuid as analyses carry it: equal for equal uuids, and ordered
   * as the uuid's text (lower-case hex), which is how funnels and paths order
   * events at one instant. DuckDB's and Postgres's uuids order so already;
   * ClickHouse's UUID compares its second half first.
   */
  eventUuid(uuid: Expression<unknown>): Expression<string>
  /**
   * Optional: the index into `starts` (increasing instants) of the bucket
   * holding the `timestamptz` value `timestamp`, as a 64-bit integer: -1
   * before `starts[0]`, `i` from `starts[i]` up to the next start (`end` for
   * the last bucket), an index past the last bucket at or after `end`. For a
   * database where epoch microseconds cost per row (Postgres's `extract`
   * gives a numeric); default: `bucketIndexSql`, integer arithmetic on
   * `epochMicros`.
   */
  bucketIndex?(timestamp: Expression<unknown>, starts: ReadonlyArray<Date>, end: Date): Expression<number>
  /** `floor(dividend / divisor)` for 64-bit integers with `dividend >= 0` and `divisor > 0`, as an integer. */
  intDiv(dividend: Expression<number>, divisor: Expression<number>): Expression<number>
  /**
   * Aggregate: the `q` quantile (0 <= q <= 1) of a group's non-null `value`s,
   * interpolated linearly at position (n - 1) * q of the sorted values, as a
   * double; null when the group has none.
   */
  quantileCont(value: Expression<number | null>, q: number): Expression<number | null>
  /**
   * `text` as a sort key that orders by code point (UTF-8 byte order),
   * whatever the database's collation: for orders that must agree across
   * databases (funnel breakdown ranking ties).
   */
  binaryText(text: Expression<string | null>): Expression<string | null>
  /**
   * `text` with every match of `pattern` (RE2 syntax; leftmost, not
   * overlapping, scanning on after each match) replaced by `replacement`,
   * taken literally: no group references (`\1`, `\&`). Both are bound
   * parameters. Null when `text` is null. Paths' cleaning rules.
   */
  regexReplace(text: Expression<string | null>, pattern: string, replacement: string): Expression<string | null>
  /**
   * Window function over a time range: per row, the sum of `value` (the count
   * of rows when `value` is null) over the rows of its partition (`partition`,
   * a PARTITION BY list of columns) whose `ts` (epoch microseconds, a 64-bit
   * integer) is at most its own `ts` minus `micros` (an integer, 1 or more);
   * null or 0 when none is. Funnel windows: a RANGE frame, whose offset
   * ClickHouse caps at 32 bits (71 minutes in microseconds).
   */
  sumBefore(value: Expression<unknown> | null, partition: Expression<unknown>, ts: Expression<unknown>, micros: number): Expression<number | null>
  /**
   * A join to follow a FROM list and its joins, giving each row one row per
   * top-level key of the JSON object `json`, read as `alias.key` and
   * `alias.value` (`alias`: lower-case letters, digits, `_`): `value` spelled
   * as `jsonText` spells it (null for JSON null). No rows when `json` is null
   * or not an object. Funnel correlation's "every property" (`$all`).
   */
  jsonEntries(json: Expression<unknown>, alias: string): Expression<unknown>
  /**
   * Unordered funnels' filing of step events (funnels.md §5, PostHog's
   * `unordered_steps.rs`), a sequential fold: a SELECT of every row of
   * relation `input.from` with all its columns plus `input.as`, the 1-based
   * step each row's event is filed under, or 0 (exclusion, refused, or not folded).
   * See `UnorderedFilingInput` for the rule; the fold restarts per partition.
   */
  unorderedFiling(input: UnorderedFilingInput): Expression<unknown>
  /**
   * Whether the planner hashes a join between two of a statement's
   * intermediate results (CTEs, grouped subqueries) instead of nesting loops
   * over them. Compilers then read a row's attributes from another row by a
   * join where several window aggregates would carry them (an ordered
   * funnel's latest path: DuckDB computes each running aggregate with its
   * own pass). Default false: Postgres estimates a grouped CTE at one row,
   * and the same join, looped, took an ordered 3-step funnel at 1M events
   * from 0.1 s to 3.7 s.
   */
  readonly hashesIntermediateJoins?: boolean
  /**
   * Whether grouping by a computed key (an expression over a join, such as
   * a person's `PERSON_KEY` from the overrides) is planned as well as
   * grouping by a column. Retention counts then group events by that key
   * instead of by distinct id with the persons looked up after grouping
   * (DuckDB, 10M events: daily recurring retention 108 -> 70 ms, weekly 277
   * -> 209). Default false: Postgres cannot estimate an expression's
   * distinct values, sorted instead of hashing, spilled to disk, and
   * first-time retention at 1M events took 400 -> 455 ms.
   */
  readonly groupsByComputedKeys?: boolean
  /**
   * Whether paths code their node names as integers, from a dictionary of
   * the names the events hold, before the window passes sort them with
   * their payload (path-items.ts). It needs the events as a CTE computed once
   * though read twice. DuckDB: at 10M events the paths took 0.80 to 0.88 of
   * their time. Default false, names stay text: Postgres materializes the CTE
   * too but took 1.12x as long at 1M (the join to the codes costs more than
   * the narrower sorts save), and ClickHouse inlines a CTE at each read.
   */
  readonly codesPathNames?: boolean
  /**
   * Optional list functions. Where given, an ordered funnel without
   * exclusions or step attribution gathers each run's step times into lists
   * and follows every start's path through them, a hash aggregate instead of
   * a sorted pass per step (funnel-lists-sql.ts; DuckDB, 10M events: the
   * 3-step funnel about 2x faster). Default: none, and every funnel takes its
   * window passes.
   */
  readonly lists?: ListHooks
  /**
   * Whether a CTE may be spelled `as not materialized` (DuckDB; Postgres
   * 12+), asking the planner to compute it at each reference rather than
   * store it once. Funnels mark their events so where they read them twice:
   * an ordered funnel over step lists (`lists`), whose window passes read
   * only the runs the lists leave (usually none, and an empty join ends that
   * read early), and a strict funnel, which reads its step events for its
   * spans' bounds, then the events within them (and, under a first or last
   * touch breakdown, every event of the range again for each target's value).
   * A stored copy of every event cost more (DuckDB, 10M events, against
   * storing them: ordered funnels 0.49 to 0.72 of their time; strict ones the
   * same time for 0.87 to 0.92 of the CPU, and 0.64 of the time under a
   * first touch breakdown). Default false: every CTE as the planner chooses.
   */
  readonly inlinesCtes?: boolean
}

/**
 * List functions over 64-bit integers (epoch microseconds), the spelling of
 * `SqlHooks.lists`. A list is unordered and may repeat values.
 */
export interface ListHooks {
  /** Aggregate: the list of a group's `value`s on the rows where `condition` holds; an empty list when it holds on none. */
  listOf(value: Expression<number>, condition: Expression<SqlBool>): Expression<unknown>
  /** The one-element list of `value`. */
  one(value: Expression<number>): Expression<unknown>
  /** The least element of `list` greater than `after` and at most `upTo`; null when there is none, or `after` is null. */
  leastBetween(list: Expression<unknown>, after: Expression<number | null>, upTo: Expression<number>): Expression<number | null>
  /** The number of elements of `list`. */
  size(list: Expression<unknown>): Expression<number>
  /** How many elements of `list` equal `value` (0 when `value` is null). */
  countOf(list: Expression<unknown>, value: Expression<number | null>): Expression<number>
  /** In a select list: the row repeated once per element of `list`, the expression being that element; no row for an empty list. */
  unnest(list: Expression<unknown>): Expression<number>
  /**
   * Aggregate: the record of the group's row with the greatest `keys`
   * (compared in order, all integers), holding `fields` (integers, possibly
   * null; names are lower-case letters and digits) read back with `field`.
   */
  argMax(fields: ReadonlyArray<readonly [string, Expression<number | null>]>, keys: ReadonlyArray<Expression<number>>): Expression<unknown>
  /** Field `name` of a record made by `argMax`. */
  field(record: Expression<unknown>, name: string): Expression<number | null>
  /**
   * Optional: several lists of one group gathered by one aggregate. `listOf`
   * costs an aggregate per list, and a funnel gathers one per step (DuckDB,
   * 10M events, a 5-step funnel: its lists' aggregate 0.23 -> 0.10 s of CPU,
   * the statement 0.85 of its time). Default: a `listOf` per list.
   */
  readonly tagged?: TaggedListHooks
}

/**
 * One list of a group's values, each kept with its row's tag, read back as
 * the lists of the values whose tags pass a test (`ListHooks.tagged`).
 */
export interface TaggedListHooks {
  /**
   * Aggregate: the group's `value`s, each with its row's `tag`, in one list;
   * null where one element cannot hold both for `shape`, and the caller
   * gathers a `listOf` per test instead.
   */
  listOf(value: Expression<number>, tag: Expression<number>, shape: TaggedListShape): Expression<unknown> | null
  /** The `value`s of `list` (made by `listOf` with the same `shape`) whose tags pass `test`, as `ListHooks.listOf` lists them: an empty list when none does. */
  withTag(list: Expression<unknown>, shape: TaggedListShape, test: (tag: Expression<number>) => Expression<SqlBool>): Expression<unknown>
}

/** What a tagged list holds: every value an integer from `from` to `to`, every tag an integer from 0 to 2^`tagBits` - 1 (`tagBits` from 1 to 30). */
export interface TaggedListShape {
  readonly from: number
  readonly to: number
  readonly tagBits: number
}

/**
 * The input of `SqlHooks.unorderedFiling`: column and relation names the
 * compiler chose (lower-case letters, digits, `_`), and two integers.
 *
 * Per partition, rows in `order`, with per step s (1..`steps`) the time
 * `newest[s]` of the last event filed under s (none at the start): an event
 * at `ts` with step mask `mask` (bit s-1: it matches step s)
 * 1. if `mask` is 0 (an exclusion): forgets every `newest`, files nothing;
 * 2. forgets each `newest[s] < ts - windowMicros` (the event left the window);
 *    `done` = the number of steps left with a `newest`;
 * 3. if `done = steps`, forgets the oldest `newest` (the lowest such step on a
 *    tie) and `done` drops by one (a full window drains until a step empties);
 * 4. if `carries` is 0 and `done` is 0, files nothing (step attribution: an
 *    attempt starts only with an event carrying the run's value);
 * 5. otherwise files the event under the step of `mask` with the oldest
 *    `newest`, steps without one first, the lowest step on a tie, and sets
 *    that step's `newest` to `ts`.
 * Partitions whose `when` column is 0 are not folded (their rows get 0);
 * `when` is the same on every row of a partition.
 */
export interface UnorderedFilingInput {
  readonly from: string
  readonly partition: ReadonlyArray<string>
  /** Orders a partition's rows; unique within it. */
  readonly order: string
  readonly when: string
  /** Epoch microseconds (bigint). */
  readonly ts: string
  /** The step mask (bigint). */
  readonly mask: string
  /** 1 or 0 (integer). */
  readonly carries: string
  /** 1..30. */
  readonly steps: number
  readonly windowMicros: number
  readonly as: string
}
