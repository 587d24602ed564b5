/**
 * The storage port: what a database adapter implements. Adapter authors import
 * this subpath (`@sightline/core/storage`); application code never needs it.
 *
 * Core compiles every query with Kysely and never imports a driver. An adapter
 * brings a Kysely `Dialect`, declares what its database can do, and owns the
 * one hot path whose best form differs per database: bulk event ingestion.
 */
import type { Dialect, Expression, Kysely, Migration } from 'kysely'
import type { EventRow, SightlineDatabase } from './db/tables.js'
import type { PersonRowChanges } from './db/person-row-changes.js'
import type { SqlHooks } from './sql-hooks.js'

export type { EventRow, SightlineDatabase } from './db/tables.js'
export { EVENT_COLUMNS } from './db/tables.js'
export { MATERIALIZED_NUMBERS, MATERIALIZED_PROPERTIES, MATERIALIZED_PROPERTIES_0007, MATERIALIZED_PROPERTIES_0013, type MaterializedProperty } from './db/materialized-properties.js'
export { PROPERTY_SLOT_POOL, slotColumns, type PropertySlotType } from './db/property-slots.js'
export { sqlCast, type SqlCastType } from './db/sql-cast.js'
export type { ChangedDistinctId, ChangedGroup, ChangedOverride, ChangedPerson, ChangedPersonless, PersonRowChanges } from './db/person-row-changes.js'
export type * from './db/tables.js'
export { SQL_NUMBER_MAX_LENGTH, SQL_NUMBER_PATTERN, SQL_TIMESTAMP_PATTERN, type ListHooks, type SqlHooks, type TaggedListHooks, type TaggedListShape, type UnorderedFilingInput } from './sql-hooks.js'

/** What differs between databases, stated as facts the planner asks about (never "which database is this"). */
export interface StorageCapabilities {
  /** Column type used for JSON documents: `jsonb` on Postgres, `json` on DuckDB. */
  readonly jsonColumnType: 'json' | 'jsonb'
  /**
   * Whether several processes may write the same database at once. False for a
   * DuckDB file, which one process opens at a time.
   */
  readonly multiProcess: boolean
  /**
   * Whether `SELECT ... FOR UPDATE` locks rows until the transaction ends
   * (Postgres). Core then locks the persons and groups a write reads, so two
   * writers never update one person from the same stale state. False for
   * DuckDB, which has no row locks and detects conflicting writes instead.
   */
  readonly rowLocks: boolean
  /**
   * Whether a project may promote properties into the slot columns of
   * `events` (`sightline.properties.promote`), which core fills with its own
   * UPDATEs of `events`. False where those UPDATEs do not reach the events
   * queries read (ClickHouse's events are not the companion's): promotion is
   * then refused, and the fixed hot-property columns still serve.
   */
  readonly propertySlots: boolean
  /**
   * Whether the database finds rows through an index only for a list of
   * constants (`uuid in ('…', '…')`), never for a join (DuckDB: an UPDATE
   * joined to a VALUES list scans the whole table). Capture then also names
   * the keys of the persons it updates as such a list. Default false: where
   * joins use indexes (Postgres), the extra list only costs planning.
   */
  readonly indexesNeedKeyLists?: boolean
}


/**
 * A promoted property's slot column (`events.ps_text_N` / `ps_num_N`) that
 * `StorageDriver.insertEvents` fills: all rows of one call belong to one project.
 */
export interface SlotFill {
  /** The `events` column: a fixed identifier, never user text. */
  readonly column: string
  /** Its value for a row, from that row's `properties` column (the key inside is a bound parameter). */
  value(properties: Expression<unknown>): Expression<unknown>
}

/** A distinct id's person since a merge (a row of `person_distinct_id_overrides`). */
export interface PersonOverride {
  readonly distinct_id: string
  /** The person's uuid. */
  readonly person_id: string
}

/** A database Sightline can run on. Create one per `createSightline` call. */
export interface StorageAdapter {
  /** A short name for messages and logs ("duckdb", "postgres"). Never used for branching. */
  readonly name: string
  readonly capabilities: StorageCapabilities
  /** How this database spells what Kysely's builders do not cover; usable with no open database. */
  readonly sql: SqlHooks
  /** Opens the database (creating it if needed). Called once, by `createSightline`. */
  open(): Promise<StorageDriver>
}

/** An opened database. */
export interface StorageDriver {
  /** The Kysely dialect; core creates the one `Kysely` instance over it and destroys it on close. */
  readonly dialect: Dialect
  /**
   * The adapter's own migrations (indexes, tuning), run after core's. Names must
   * start with the adapter's name (`duckdb_0001_...`) so they sort apart from core's.
   */
  readonly migrations: Readonly<Record<string, Migration>>
  /**
   * Writes event rows through `db`, which may be a transaction: atomic with it.
   * Core has already dropped rows whose uuid it found stored, under its
   * in-process write lock; an adapter whose database several processes write
   * (`multiProcess`) must also skip rows whose `(project_id, uuid)` is stored
   * by the time it writes. It fills each `MATERIALIZED_PROPERTIES` column
   * with `sql.jsonText(properties, key)` and each `MATERIALIZED_NUMBERS`
   * column with `sql.textToDouble(sql.jsonText(properties, key))`, computed
   * by the database itself (not a client-side copy of it), so the column and
   * the JSON always agree; likewise each column of `slots` with its `value`
   * of the row's `properties` (the project's promoted properties: none
   * unless `capabilities.propertySlots`; default none).
   * Resolves to the number of rows inserted.
   */
  insertEvents(db: Kysely<SightlineDatabase>, rows: ReadonlyArray<EventRow>, slots?: ReadonlyArray<SlotFill>): Promise<number>
  /**
   * Folds person overrides into the events (PostHog's squash): sets
   * `events.person_id` to `person_id` for every event of project `projectId`
   * whose distinct id is `distinct_id`. Called by core's squash with at most
   * 1,000 overrides, through `db`, a transaction holding the project's write
   * lock, before it deletes those overrides in the same transaction. Optional:
   * by default core runs an `UPDATE events ... FROM (VALUES ...)` through `db`.
   * An adapter whose events live outside `db`'s database folds them there;
   * it may do so outside the transaction, since until the overrides are
   * deleted they say the same as the folded events.
   */
  foldPersonOverrides?(db: Kysely<SightlineDatabase>, projectId: number, overrides: ReadonlyArray<PersonOverride>): Promise<void>
  /**
   * The uuids among `uuids` (lower-case uuid texts) already stored in the
   * project's events, through `db` (capture's transaction). Optional: core's
   * default reads them 1,000 bound values at a time. An adapter gives its own
   * when one list parameter serves its database better (DuckDB, which has no
   * index on event uuids, prunes its scan by the list's range: client uuids
   * are time-ordered UUIDv7s, so a batch's fall in the recent row groups).
   */
  storedEventUuids?(db: Kysely<SightlineDatabase>, projectId: number, uuids: ReadonlyArray<string>): Promise<Iterable<string>>
  /**
   * Told the rows of `persons`, `person_distinct_ids`,
   * `person_distinct_id_overrides`, `personless_distinct_ids` and `groups`
   * that one write changed (capture, `persons.upsert`, `groups.upsert`, a
   * squash), after that write committed and never for one rolled back; one
   * call per write, with every row it changed, each versioned (see
   * `PersonRowChanges`: a key's state is its row of greatest `(version,
   * deleted)`, so calls may arrive in any order). For an adapter whose
   * analyses read copies of these tables kept elsewhere (ClickHouse keeps
   * versioned rows, as PostHog's ingestion writes them): it should write the
   * rows of one call at once, so that an analysis sees all of a write or none
   * of it. A rejection reaches the write's caller, whose rows stay committed.
   * `db` is the engine's, outside any transaction (the write has committed):
   * an adapter may read the committed rows through it, e.g. to catch up
   * after an earlier call failed. Optional: by default nothing is told, and
   * core reads back nothing it would not otherwise (with it, person inserts
   * return their ids and merges the distinct ids they moved).
   */
  personRowsChanged?(db: Kysely<SightlineDatabase>, changes: PersonRowChanges): Promise<void>
  /**
   * The schema holding Sightline's tables when the database has several
   * (Postgres's `search_path`); core keeps its migration records there too.
   * Undefined where the database has one namespace.
   */
  readonly schema?: string
  /**
   * True when `error` means a concurrent writer got there first: a key both
   * tried to create, a write-write conflict, a serialization failure or a
   * deadlock. Core then retries the whole transaction, which reads again.
   */
  isWriteConflict(error: unknown): boolean
  /**
   * Runs once after migrations changed the schema (none when every migration
   * was already applied). Optional. DuckDB checkpoints here: it cannot replay
   * from its write-ahead log an `ALTER TABLE` of a table whose column default
   * calls `nextval`, so a schema change must never be left in the log.
   */
  afterMigrations?(db: Kysely<SightlineDatabase>): Promise<void>
  /** Releases what `open()` acquired, after core destroyed its Kysely instance. Safe to call twice. */
  close(): Promise<void>
}

/**
 * Cancellation: how an adapter's connection lets core interrupt the statement
 * it runs for an analysis. See `runInterruptible`.
 */
export { activeQueryScope, outsideQueryScope, type Interrupt, type QueryScope } from './query/execution/cancellation.js'
export { runInterruptible } from './query/execution/run-interruptible.js'
