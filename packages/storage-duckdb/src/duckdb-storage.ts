import { sql, type Expression, type Kysely } from 'kysely'
import { EVENT_COLUMNS, MATERIALIZED_NUMBERS, MATERIALIZED_PROPERTIES, type EventRow, type SightlineDatabase, type SlotFill, type StorageAdapter, type StorageDriver } from '@sightline/core/storage'
import { DuckDBDialect } from './dialect/duckdb-dialect.js'
import { duckdbSqlHooks, jsonPointer } from './duckdb-sql-hooks.js'
import type { DuckDBInstance as DialectInstance } from './dialect/duckdb-dialect-config.js'

/** Options of `duckdbStorage`. */
export interface DuckDBStorageOptions {
  /** A database file, created if missing. Default `':memory:'`. Ignored when `instance` is given. */
  readonly path?: string
  /**
   * An instance the host opened itself (`await DuckDBInstance.create(...)`):
   * Sightline uses it and leaves it open on close. Default: one Sightline opens and closes.
   */
  readonly instance?: DialectInstance
  /** Connections in the pool. Default 4. */
  readonly poolSize?: number
  /**
   * DuckDB settings passed at open, e.g. `{ threads: '2', memory_limit: '4GB' }`.
   * Default `{ checkpoint_threshold: '1GB' }`: DuckDB's 16 MB default
   * checkpoints every few capture batches, which made ingestion 1.46x slower
   * with 2.7x longer slow batches (benchmarks/README.md). The cost: a write-ahead
   * log of up to 1 GB, replayed when a crashed process reopens the file.
   * A file database also gets `memory_limit: '1GB'` (`FILE_MEMORY_LIMIT`) by
   * default, where DuckDB's own is 80% of the machine's memory: its buffer
   * pool held 3.9 GB over a load of 10M events (1.5 GB at 512MB, at the same
   * rate). At 10M events every analysis of the benchmarks but one runs under
   * 1GB as fast as under 2GB; the 5-step ordered funnel runs 1.25x slower
   * (a plan with many joins, groupings and windows leaves its largest
   * grouping less memory), for 0.7 GB less peak RSS over the suites
   * (benchmarks/README.md, "DuckDB's memory limit and plans with many
   * operators"). In memory, the data itself lives in that pool, so DuckDB's
   * default stays.
   */
  readonly config?: Readonly<Record<string, string>>
}

/** The buffer pool of a file database the adapter opens, unless `config` says otherwise (see `DuckDBStorageOptions.config`). */
export const FILE_MEMORY_LIMIT = '1GB'

/** What the adapter needs of a node-api instance beyond the dialect's subset. */
interface OwnedInstance extends DialectInstance {
  closeSync(): void
}

/**
 * Sightline on DuckDB through `@duckdb/node-api` (a peer dependency): in memory
 * by default, or in a file that one process opens at a time.
 */
export function duckdbStorage(options: DuckDBStorageOptions = {}): StorageAdapter {
  const path = options.path ?? ':memory:'
  return {
    name: 'duckdb',
    capabilities: { jsonColumnType: 'json', multiProcess: false, rowLocks: false, propertySlots: true, indexesNeedKeyLists: true },
    sql: duckdbSqlHooks,
    async open(): Promise<StorageDriver> {
      let owned: OwnedInstance | undefined
      let instance = options.instance
      if (!instance) {
        const { DuckDBInstance } = await import('@duckdb/node-api')
        const memory: Record<string, string> = path === ':memory:' ? {} : { memory_limit: FILE_MEMORY_LIMIT }
        instance = owned = await DuckDBInstance.create(path, { checkpoint_threshold: '1GB', ...memory, ...options.config })
      }
      let closed = false
      return {
        dialect: new DuckDBDialect({ instance, poolSize: options.poolSize }),
        migrations: {},
        insertEvents: insertEventRows,
        storedEventUuids,
        isWriteConflict,
        // DuckDB 1.5 fails to replay a WAL holding `ALTER TABLE projects ...` (its id defaults to
        // nextval): "GetDefaultDatabase with no default database set". A checkpoint keeps schema
        // changes out of the log, so a process killed right after migrating can reopen its file. FORCE
        // waits for transactions a host running its own instance may have open (a plain one fails).
        async afterMigrations(db) {
          await sql`force checkpoint`.execute(db)
        },
        async close() {
          if (closed) return
          closed = true
          owned?.closeSync()
        },
      }
    },
  }
}

/** Rows per statement: bounds the size of one parameter (about 0.3 kB a row for the properties), not a count of parameters. */
const ROWS_PER_STATEMENT = 10_000

/**
 * Bulk insert in one statement per 10,000 rows, with one text parameter per
 * column: the column's values joined by a separator that none of them
 * contains, which DuckDB splits (`string_split`) and unnests side by side into
 * rows. A column is a handful of native calls whatever the row count: the
 * Appender this replaces made one per value (about 13 a row) and landed the
 * rows in a temp table first, and a JSON document of the rows took DuckDB 4x
 * longer to parse than the splits (benchmarks/README.md, "Columnar
 * ingestion"). Each value keeps the text form the Appender gave it and is
 * cast by the same rules (uuid, timestamptz, json), so `properties` is stored
 * exactly as core serialised it.
 *
 * The same statement computes the materialized property columns and the
 * promoted properties' `slots` from each row's properties with the JSON reads
 * (`duckdbSqlHooks.jsonText`) queries would make instead. Core has already
 * dropped stored uuids under its write lock, and a DuckDB file has one writing
 * process, so no second check is needed here (see `StorageCapabilities.multiProcess`).
 */
async function insertEventRows(db: Kysely<SightlineDatabase>, rows: ReadonlyArray<EventRow>, slots: ReadonlyArray<SlotFill> = []): Promise<number> {
  let inserted = 0
  for (let from = 0; from < rows.length; from += ROWS_PER_STATEMENT) {
    const part = rows.length <= ROWS_PER_STATEMENT ? rows : rows.slice(from, from + ROWS_PER_STATEMENT)
    const columns = COLUMNS.map((column) => columnList(column, part))
    const result = await sql`insert into events (${eventColumns}, ${sql.join([...HOT.map((p) => sql.id(p.column)), ...slots.map((f) => sql.id(f.column))])})
      select ${eventColumns}, ${sql.join([...hotValues, ...slots.map((f) => f.value(sql.ref('properties')))])}
      from (
        select ${sql.join(COLUMNS.map((c) => c.value))}, json_extract_string(properties, ${pointers}) as mp
        from (select ${sql.join(columns.map((list, i) => sql`unnest(${list}) as ${sql.id(`c${i}`)}`))}) as split
      ) as landed`.execute(db)
    inserted += Number(result.numAffectedRows ?? 0n)
  }
  return inserted
}

interface Column {
  readonly name: (typeof EVENT_COLUMNS)[number]
  /** Whether the column's text may hold any character (user text), so its separator must be found. */
  readonly free: boolean
  readonly nullable: boolean
  /** The column's value from its split text `c<i>`. */
  readonly value: Expression<unknown>
}

const COLUMN_TYPES: Readonly<Record<(typeof EVENT_COLUMNS)[number], { type: string; free: boolean; nullable: boolean }>> = {
  uuid: { type: 'uuid', free: false, nullable: false },
  project_id: { type: 'integer', free: false, nullable: false },
  event: { type: 'varchar', free: true, nullable: false },
  distinct_id: { type: 'varchar', free: true, nullable: false },
  timestamp: { type: 'timestamptz', free: false, nullable: false },
  // JSON.stringify escapes every control character, so the record separator never occurs in its text.
  properties: { type: 'json', free: false, nullable: false },
  group_0: { type: 'varchar', free: true, nullable: false },
  group_1: { type: 'varchar', free: true, nullable: false },
  group_2: { type: 'varchar', free: true, nullable: false },
  group_3: { type: 'varchar', free: true, nullable: false },
  group_4: { type: 'varchar', free: true, nullable: false },
  session_id: { type: 'varchar', free: true, nullable: true },
  inserted_at: { type: 'timestamptz', free: false, nullable: false },
  elements_chain: { type: 'varchar', free: true, nullable: false },
  person_id: { type: 'uuid', free: false, nullable: true },
}

const COLUMNS: ReadonlyArray<Column> = EVENT_COLUMNS.map((name, i) => {
  const { type, free, nullable } = COLUMN_TYPES[name]
  const text = sql.ref(`c${i}`)
  // A nullable column's present values carry a one-character prefix: '' is null, '+x' is x.
  const value = nullable ? sql`case when ${text} = '' then null else substr(${text}, 2) end` : text
  return { name, free, nullable, value: sql`cast(${value} as ${sql.raw(type)}) as ${sql.id(name)}` }
})

/** Separators tried in turn for a column of user text: control characters, then noncharacters. */
const SEPARATORS = ['\u001e', '\u001f', '\u001d', '\u001c', '\ufdd0', '\ufdd1', '\uffff']

/**
 * One column of the rows as a list expression: its values joined by a
 * separator none of them contains, split by DuckDB; if every separator
 * occurs somewhere in the column, a JSON array of its values instead.
 */
function columnList(column: Column, rows: ReadonlyArray<EventRow>): Expression<unknown> {
  const values: string[] = new Array(rows.length)
  for (let i = 0; i < rows.length; i++) {
    const v = rows[i]![column.name]
    values[i] = column.nullable ? (v === null ? '' : `+${v}`) : String(v)
  }
  const separator = column.free ? SEPARATORS.find((s) => !values.some((v) => v.includes(s))) : SEPARATORS[0]!
  if (separator === undefined) return sql`from_json(${JSON.stringify(values)}, '["varchar"]')`
  return sql`string_split(${values.join(separator)}, chr(${sql.lit(separator.codePointAt(0)!)}))`
}

const eventColumns = sql.join(EVENT_COLUMNS.map((c) => sql.id(c)))
// json_extract_string with the list of `jsonText`'s pointers: the same reads, each document parsed once
// (one call per property parsed it twelve times: 3x the cost of the whole insert). The numeric hot
// properties read their text from the same list, through `textToDouble` as queries would.
const HOT = [...MATERIALIZED_PROPERTIES, ...MATERIALIZED_NUMBERS]
const pointers = sql`[${sql.join(HOT.map((p) => sql.lit(jsonPointer(p.key))))}]`
const hotText = (i: number) => sql<string | null>`mp[${sql.lit(i + 1)}]`
const hotValues = [
  ...MATERIALIZED_PROPERTIES.map((_, i) => hotText(i)),
  ...MATERIALIZED_NUMBERS.map((_, i) => duckdbSqlHooks.textToDouble(hotText(MATERIALIZED_PROPERTIES.length + i))),
]

/**
 * Stored uuids among `uuids`, one list parameter per 5,000. `events` has no
 * index on uuid (an ART index over every event would cost more memory than
 * the table's own columns), so this is a scan of the project's uuid column,
 * which DuckDB prunes by the row groups' min/max to those the list's range
 * overlaps: client uuids are time-ordered UUIDv7s, so a batch's usually fall
 * in the latest row groups (1,000 uuids among 10M events: 2 ms; random
 * UUIDv4s: a full scan, 0.5 s).
 */
async function storedEventUuids(db: Kysely<SightlineDatabase>, projectId: number, uuids: ReadonlyArray<string>): Promise<string[]> {
  const stored: string[] = []
  for (let from = 0; from < uuids.length; from += 5000) {
    const part = uuids.slice(from, from + 5000)
    const { rows } = await sql<{ uuid: string }>`select cast(uuid as varchar) as uuid from events
      where project_id = ${projectId} and uuid in (select unnest(cast(${part} as uuid[])))`.execute(db)
    for (const row of rows) stored.push(row.uuid)
  }
  return stored
}

/**
 * DuckDB's optimistic concurrency: a second transaction writing a row another
 * one changed fails with a conflict, and two creating the same key fail on
 * the constraint. Either can succeed when run again after the first commits.
 */
function isWriteConflict(error: unknown): boolean {
  const message = error instanceof Error ? error.message : ''
  return /conflict/i.test(message) || /Duplicate key/i.test(message)
}
