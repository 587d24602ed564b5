import { sql, type Kysely, type Migration, type RawBuilder } from 'kysely'
import { MATERIALIZED_NUMBERS, MATERIALIZED_PROPERTIES, MATERIALIZED_PROPERTIES_0007, MATERIALIZED_PROPERTIES_0013, slotColumns } from '@sightline/core/storage'
import { ClickHouseQueryCompiler } from './dialect/clickhouse-query-compiler.js'
import type { ClickHouseExecutor } from './dialect/clickhouse-executor.js'
import { clickhouseSqlHooks, jsonTextOf } from './clickhouse-sql-hooks.js'
import { foldPersonOverrides } from './fold-person-overrides.js'
import { SINGLE_SERVER, type ClickHouseTopology } from './clickhouse-topology.js'
import { PERSON_ROW_KINDS, personRowsSchema } from './person-rows-schema.js'
import { writePersonRows } from './write-person-rows.js'
import { companionPersonRows } from './companion-person-rows.js'

/** How a migration reaches ClickHouse: the executor of the connection it runs on. */
export type ExecutorOf = (db: Kysely<any>) => Promise<ClickHouseExecutor>

/** A raw statement compiled with ClickHouse's compiler, whichever dialect the Kysely instance has. */
export const compileForClickHouse = (statement: RawBuilder<unknown>) =>
  new ClickHouseQueryCompiler().compileQuery(statement.toOperationNode(), { queryId: 'clickhouse-ddl' })
// The hot columns' DEFAULT expressions, one spelling for the DDL that creates them and the one that updates them.
// Keys are core's constants, compiled as escaped literals (DDL takes no parameters).
const textDefault = (key: string) => jsonTextOf(sql.ref('properties'), sql.lit(key))
const numberDefault = (key: string) => clickhouseSqlHooks.textToDouble(textDefault(key))
const materialized = MATERIALIZED_PROPERTIES.map(({ key, column }) => sql`${sql.id(column)} Nullable(String) DEFAULT ${textDefault(key)}`)

/**
 * Events as PostHog keeps them: a MergeTree ordered for per-person scans
 * (project, day, a hash of the distinct id, time), partitioned by month.
 * ReplacingMergeTree on the sorting key, which ends with the uuid: two
 * writers that stored one event twice leave one row after merges (core drops
 * known uuids before writing; this is the net for concurrent servers). The
 * hot properties' columns are DEFAULT expressions, so ClickHouse computes
 * them from `properties` at insert with `jsonText`'s own spelling.
 */
const EVENTS_COLUMNS = sql`(
  uuid UUID,
  project_id Int32,
  event String,
  distinct_id String,
  timestamp DateTime64(6, 'UTC'),
  properties String,
  group_0 String, group_1 String, group_2 String, group_3 String, group_4 String,
  session_id Nullable(String),
  inserted_at DateTime64(6, 'UTC'),
  elements_chain String,
  person_id Nullable(UUID),
  ${sql.join(materialized)}
)`
const EVENTS_LAYOUT = sql`partition by toYYYYMM(timestamp)
order by (project_id, toDate(timestamp), cityHash64(distinct_id), timestamp, uuid)`
const EVENTS = sql`create table if not exists events ${EVENTS_COLUMNS} engine = ReplacingMergeTree
${EVENTS_LAYOUT}`

/**
 * Events on a cluster, as PostHog keeps them (`sharded_events` behind a
 * Distributed `events`): each shard's rows in `events_local`, replicated
 * among the shard's replicas (the path names the shard and the database;
 * `{shard}` and `{replica}` are the nodes' macros), created on every node;
 * and `events`, the Distributed table analyses and inserts name, routing
 * each row to the shard of its distinct id's hash, the sorting key's person
 * key, so that all events of a distinct id live on one shard. The cluster's
 * name is a validated identifier (ClickHouse takes no parameter there).
 */
function clusterEvents(topology: ClickHouseTopology & { cluster: string }): RawBuilder<unknown>[] {
  const on = sql.raw(topology.onCluster)
  return [
    sql`create table if not exists events_local${on} ${EVENTS_COLUMNS}
engine = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/events_local', '{replica}')
${EVENTS_LAYOUT}`,
    // currentDatabase(): the database the table is created in, as ClickHouse's documentation of Distributed suggests.
    sql`create table if not exists events${on} as events_local
engine = Distributed(${sql.lit(topology.cluster)}, currentDatabase(), 'events_local', cityHash64(distinct_id))`,
  ]
}

/**
 * A database that has Sightline's single-server events cannot take the
 * cluster's: `create table if not exists events` would keep the old table.
 * Refused, with the reason, rather than left half converted (converting one
 * is not done).
 */
async function refuseSingleServerEvents(executor: ClickHouseExecutor): Promise<void> {
  const { data } = await executor.query(`select engine from system.tables where database = currentDatabase() and name = 'events'`, {})
  const engine = data[0]?.[0]
  if (engine !== undefined && engine !== 'Distributed') {
    throw new Error(`events is a ${String(engine)} table here: a cluster needs a database without Sightline's single-server tables (moving them onto a cluster is not done)`)
  }
}

/**
 * The numeric hot properties (core's MATERIALIZED_NUMBERS) as DEFAULT
 * expressions: `textToDouble` of `jsonText`, computed by ClickHouse at insert.
 * Parts written before the column existed compute the DEFAULT when read, so
 * old events need no backfill.
 */
const materializedNumberColumns = (table: RawBuilder<unknown>) =>
  MATERIALIZED_NUMBERS.map(
    ({ key, column }) =>
      sql`alter table ${table} add column if not exists ${sql.id(column)} Nullable(Float64) DEFAULT ${numberDefault(key)}`,
  )

const screenNameColumn = (table: RawBuilder<unknown>) =>
  MATERIALIZED_PROPERTIES_0013.map(({ key, column }) => sql`alter table ${table} add column if not exists ${sql.id(column)} Nullable(String) DEFAULT ${textDefault(key)}`)

/** The DEFAULT of every hot column (text and numeric) set to today's expression, in one ALTER. */
const hotColumnDefaults = (table: RawBuilder<unknown>) => {
  // The columns there were when it was written: a later one is added with today's DEFAULT.
  const text = MATERIALIZED_PROPERTIES_0007.map(({ key, column }) => sql`modify column ${sql.id(column)} DEFAULT ${textDefault(key)}`)
  const numbers = MATERIALIZED_NUMBERS.map(({ key, column }) => sql`modify column ${sql.id(column)} DEFAULT ${numberDefault(key)}`)
  return sql`alter table ${table} ${sql.join([...text, ...numbers])}`
}

/**
 * Core's promoted-property slot columns, so that ClickHouse's events have
 * every column of the companion's. Never filled here: this storage has no
 * `propertySlots`, so nothing promotes and no query reads them.
 */
const slotColumnsOf = (table: RawBuilder<unknown>) => sql`alter table ${table} ${sql.join([
  ...slotColumns('String').map((c) => sql`add column if not exists ${sql.id(c)} Nullable(String)`),
  ...slotColumns('Numeric').map((c) => sql`add column if not exists ${sql.id(c)} Nullable(Float64)`),
])}`

/**
 * Functions core's SQL calls by their Postgres and DuckDB names, defined in
 * ClickHouse under those names (SQL user-defined functions, server-wide):
 * `strpos(text, part)`, 1-based, 0 when absent, is ClickHouse's `position`.
 */
const functions = (on: RawBuilder<unknown>) => sql`create function if not exists strpos${on} as (haystack, needle) -> position(haystack, needle)`
/** `md5(text)` as Postgres and DuckDB spell it: the digest in lower-case hex (ClickHouse's `MD5` gives the 16 bytes). */
const md5 = (on: RawBuilder<unknown>) => sql`create function if not exists md5${on} as (text) -> lower(hex(MD5(text)))`
/** `chr(code)` as ClickHouse's `char`: the same character for ASCII codes, which are all core writes (paths' `chr(10)`); `char` takes bytes, not code points, above 127. */
const chr = (on: RawBuilder<unknown>) => sql`create function if not exists chr${on} as (code) -> char(code)`

/**
 * Before squashes reached ClickHouse's events, ClickHouse's copy of the
 * person overrides kept every row the companion's squash deleted (a
 * ReplacingMergeTree, latest row per key). Those overrides are folded into
 * the events now, and the copy dropped: the next read copies the
 * companion's overrides again, as a plain mirror. A fresh database has no copy.
 */
async function foldKeptOverrides(executor: ClickHouseExecutor): Promise<void> {
  const [[exists]] = (await executor.query(`select count() from system.tables where database = currentDatabase() and name = 'person_distinct_id_overrides'`, {})).data as [[unknown]]
  if (Number(exists) === 0) return
  const { data } = await executor.query('select project_id, distinct_id, toString(person_id) from person_distinct_id_overrides final order by project_id, distinct_id', {})
  const byProject = new Map<number, Array<{ distinct_id: string; person_id: string }>>()
  for (const [project, distinct_id, person_id] of data as Array<[number, string, string]>) {
    const list = byProject.get(Number(project)) ?? []
    list.push({ distinct_id, person_id })
    byProject.set(Number(project), list)
  }
  for (const [project, overrides] of byProject) {
    for (let i = 0; i < overrides.length; i += 1000) await foldPersonOverrides(executor, project, overrides.slice(i, i + 1000))
  }
  await executor.command('drop table person_distinct_id_overrides', {})
}

/**
 * From copies to versioned rows: creates `person_rows`, writes every row the
 * companion holds of the five tables into it (the companion is where core
 * wrote them; a copy may be older), then replaces each table's copy with its
 * view. Rerun after a failure, it writes the same rows at the same versions
 * again, which reads answer the same for.
 */
async function movePersonRows(db: Kysely<any>, executor: ClickHouseExecutor, topology: ClickHouseTopology): Promise<void> {
  const [table, ...views] = personRowsSchema(topology)
  await executor.command(table!, {})
  // Reads of these tables through db run on the companion.
  const read = async (query: string) => (await sql.raw<Record<string, unknown>>(query).execute(db)).rows
  for (const changes of await companionPersonRows(read)) await writePersonRows(executor, changes, topology)
  // One read for the five: every fresh database runs this.
  const { data } = await executor.query('select name, engine from system.tables where database = currentDatabase() and has({names:Array(String)}, name)', {
    names: [...PERSON_ROW_KINDS],
  })
  const engines = new Map((data as Array<[string, string]>).map(([name, engine]) => [name, engine]))
  const drop = topology.cluster === null ? '' : ' sync'
  for (const [i, kind] of PERSON_ROW_KINDS.entries()) {
    const engine = engines.get(kind)
    if (engine !== undefined && engine !== 'View') await executor.command(`drop table "${kind}"${topology.onCluster}${drop}`, {})
    await executor.command(views[i]!, {})
  }
}

/**
 * The tables a column is added to: on a cluster the shards' `events_local`
 * first (its ALTER replicates within each shard), then the Distributed
 * `events`, whose columns are its own (each `ON CLUSTER`); on one server `events`.
 */
const eventTables = (topology: ClickHouseTopology): RawBuilder<unknown>[] =>
  topology.cluster === null ? [sql`events`] : [sql`events_local${sql.raw(topology.onCluster)}`, sql`events${sql.raw(topology.onCluster)}`]

/**
 * The adapter's ClickHouse schema. Idempotent DDL: ClickHouse has no
 * transactions to roll a half-run migration back. On a cluster (`topology`)
 * every statement runs `ON CLUSTER` (see `clusterEvents`); the migration
 * names are the same, so one history describes either layout.
 */
export function clickhouseMigrations(executorOf: ExecutorOf, topology: ClickHouseTopology = SINGLE_SERVER): Record<string, Migration> {
  const on = sql.raw(topology.onCluster)
  const run = async (db: Kysely<any>, statements: ReadonlyArray<RawBuilder<unknown>>) => {
    const executor = await executorOf(db)
    for (const statement of statements) await executor.command(compileForClickHouse(statement).sql, {})
  }
  return {
    clickhouse_0001_events: {
      async up(db) {
        if (topology.cluster === null) return run(db, [EVENTS])
        await refuseSingleServerEvents(await executorOf(db))
        await run(db, clusterEvents({ ...topology, cluster: topology.cluster }))
      },
    },
    clickhouse_0002_functions: { up: (db) => run(db, [functions(on)]) },
    clickhouse_0003_md5: { up: (db) => run(db, [md5(on)]) },
    clickhouse_0004_chr: { up: (db) => run(db, [chr(on)]) },
    clickhouse_0005_materialized_numbers: { up: (db) => run(db, eventTables(topology).flatMap(materializedNumberColumns)) },
    // One ALTER per table for all of them: an ALTER is about 90 ms on chDB, and every fresh database (each conformance case) runs this.
    clickhouse_0006_property_slots: { up: (db) => run(db, eventTables(topology).map(slotColumnsOf)) },
    clickhouse_0007_fold_kept_overrides: {
      async up(db) {
        // A cluster's database starts with this layout, where the copy of the overrides never kept squashed rows.
        if (topology.cluster === null) await foldKeptOverrides(await executorOf(db))
      },
    },
    clickhouse_0008_person_rows: { up: async (db) => movePersonRows(db, await executorOf(db), topology) },
    // The hot columns' DEFAULTs as jsonTextOf spells them now (one parse of the document, same values): metadata only.
    clickhouse_0009_json_text_defaults: { up: (db) => run(db, eventTables(topology).map(hotColumnDefaults)) },
    // `$screen_name` (core_0013): a DEFAULT, so parts written before compute it when read. A database created
    // since has it from clickhouse_0001, which makes every hot column.
    clickhouse_0010_screen_name: { up: (db) => run(db, eventTables(topology).flatMap(screenNameColumn)) },
  }
}
