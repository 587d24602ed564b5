import { sql, type Kysely } from 'kysely'
import { EVENT_COLUMNS, MATERIALIZED_NUMBERS, MATERIALIZED_PROPERTIES, type EventRow, type SightlineDatabase, type SlotFill, type StorageAdapter, type StorageDriver } from '@sightline/core/storage'
import { DuckDBDialect } from './dialect/duckdb-dialect.js'
import { duckdbSqlHooks, jsonPointer } from './duckdb-sql-hooks.js'
import type { DuckDBConnection } from './dialect/duckdb-connection.js'
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
   */
  readonly config?: Readonly<Record<string, string>>
}

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
    capabilities: { jsonColumnType: 'json', multiProcess: false, rowLocks: false, propertySlots: true },
    sql: duckdbSqlHooks,
    async open(): Promise<StorageDriver> {
      let owned: OwnedInstance | undefined
      let instance = options.instance
      if (!instance) {
        const { DuckDBInstance } = await import('@duckdb/node-api')
        instance = owned = await DuckDBInstance.create(path, { checkpoint_threshold: '1GB', ...options.config })
      }
      let closed = false
      return {
        dialect: new DuckDBDialect({ instance, poolSize: options.poolSize }),
        migrations: {},
        insertEvents: appendEvents,
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

/** Per connection: the Appender's landing table, shaped like `EventRow` (temp tables are the connection's own). */
const LANDING = 'sightline_events_landing'

/**
 * Bulk insert through DuckDB's Appender on the caller's connection, so the rows
 * belong to its transaction. Core has already dropped stored uuids under its
 * write lock, and a DuckDB file has one writing process, so no second check
 * is needed here (see `StorageCapabilities.multiProcess`).
 *
 * The Appender writes a temp table of `EVENT_COLUMNS`; one INSERT ... SELECT
 * moves the rows to `events`, computing the materialized property columns
 * and the promoted properties' `slots` with the JSON reads
 * (`duckdbSqlHooks.jsonText`) queries would make instead.
 */
async function appendEvents(db: Kysely<SightlineDatabase>, rows: ReadonlyArray<EventRow>, slots: ReadonlyArray<SlotFill> = []): Promise<number> {
  if (rows.length === 0) return 0
  return db.getExecutor().provideConnection(async (connection) => {
    const raw = (connection as DuckDBConnection).raw
    await connection.executeQuery(CREATE_LANDING.compile(db))
    // Rows a failed call left behind (outside a transaction nothing rolled them back) must not be moved with these.
    await connection.executeQuery(CLEAR_LANDING.compile(db))
    const appender = await raw.createAppender(LANDING)
    try {
      for (const row of rows) {
        for (const column of EVENT_COLUMNS) {
          const value = row[column]
          if (value === null) appender.appendNull()
          else if (typeof value === 'number') appender.appendInteger(value)
          // uuid, timestamptz and json columns take their text forms; DuckDB casts on append.
          else appender.appendVarchar(value)
        }
        appender.endRow()
      }
      // Rows still buffered when the transaction ends would escape it: flush now.
      appender.flushSync()
    } finally {
      appender.closeSync()
    }
    await connection.executeQuery((slots.length === 0 ? MOVE_LANDED : moveLanded(slots)).compile(db))
    await connection.executeQuery(CLEAR_LANDING.compile(db))
    return rows.length
  })
}

const eventColumns = sql.join(EVENT_COLUMNS.map((c) => sql.id(c)))
const CREATE_LANDING = sql`create temp table if not exists ${sql.id(LANDING)} as select ${eventColumns} from events limit 0`
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
/** The move, also filling a project's promoted-property slots from each row's `properties`. */
const moveLanded = (slots: ReadonlyArray<SlotFill>) =>
  sql`insert into events (${eventColumns}, ${sql.join([...HOT.map((p) => sql.id(p.column)), ...slots.map((f) => sql.id(f.column))])})
  select ${eventColumns}, ${sql.join([...hotValues, ...slots.map((f) => f.value(sql.ref('properties')))])}
  from (select *, json_extract_string(properties, ${pointers}) as mp from ${sql.id(LANDING)}) as landed`
const MOVE_LANDED = moveLanded([])
const CLEAR_LANDING = sql`delete from ${sql.id(LANDING)}`

/**
 * DuckDB's optimistic concurrency: a second transaction writing a row another
 * one changed fails with a conflict, and two creating the same key fail on
 * the constraint. Either can succeed when run again after the first commits.
 */
function isWriteConflict(error: unknown): boolean {
  const message = error instanceof Error ? error.message : ''
  return /conflict/i.test(message) || /Duplicate key/i.test(message)
}
