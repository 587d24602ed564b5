import { sql, type Kysely, type Migration, type RawBuilder } from 'kysely'
import { MATERIALIZED_NUMBERS, MATERIALIZED_PROPERTIES, slotColumns } from '@sightline/core/storage'
import { ClickHouseQueryCompiler } from './dialect/clickhouse-query-compiler.js'
import type { ClickHouseExecutor } from './dialect/clickhouse-executor.js'
import { clickhouseSqlHooks, jsonTextOf } from './clickhouse-sql-hooks.js'
import { foldPersonOverrides } from './fold-person-overrides.js'

/** How a migration reaches ClickHouse: the executor of the connection it runs on. */
export type ExecutorOf = (db: Kysely<any>) => Promise<ClickHouseExecutor>

/** A raw statement compiled with ClickHouse's compiler, whichever dialect the Kysely instance has. */
export const compileForClickHouse = (statement: RawBuilder<unknown>) =>
  new ClickHouseQueryCompiler().compileQuery(statement.toOperationNode(), { queryId: 'clickhouse-ddl' })
// Keys of MATERIALIZED_PROPERTIES are core's constants, compiled as escaped literals (DDL takes no parameters).
const materialized = MATERIALIZED_PROPERTIES.map(
  ({ key, column }) => sql`${sql.id(column)} Nullable(String) DEFAULT ${jsonTextOf(sql.ref('properties'), sql.lit(key))}`,
)

/**
 * Events as PostHog keeps them: a MergeTree ordered for per-person scans
 * (project, day, a hash of the distinct id, time), partitioned by month.
 * ReplacingMergeTree on the sorting key, which ends with the uuid: two
 * writers that stored one event twice leave one row after merges (core drops
 * known uuids before writing; this is the net for concurrent servers). The
 * hot properties' columns are DEFAULT expressions, so ClickHouse computes
 * them from `properties` at insert with `jsonText`'s own spelling.
 */
const EVENTS = sql`create table if not exists events (
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
) engine = ReplacingMergeTree
partition by toYYYYMM(timestamp)
order by (project_id, toDate(timestamp), cityHash64(distinct_id), timestamp, uuid)`

/**
 * The numeric hot properties (core's MATERIALIZED_NUMBERS) as DEFAULT
 * expressions: `textToDouble` of `jsonText`, computed by ClickHouse at insert.
 * Parts written before the column existed compute the DEFAULT when read, so
 * old events need no backfill.
 */
const MATERIALIZED_NUMBER_COLUMNS = MATERIALIZED_NUMBERS.map(
  ({ key, column }) =>
    sql`alter table events add column if not exists ${sql.id(column)} Nullable(Float64) DEFAULT ${clickhouseSqlHooks.textToDouble(jsonTextOf(sql.ref('properties'), sql.lit(key)))}`,
)

/**
 * Core's promoted-property slot columns, so that ClickHouse's events have
 * every column of the companion's. Never filled here: this storage has no
 * `propertySlots`, so nothing promotes and no query reads them.
 */
const SLOT_COLUMNS = sql`alter table events ${sql.join([
  ...slotColumns('String').map((c) => sql`add column if not exists ${sql.id(c)} Nullable(String)`),
  ...slotColumns('Numeric').map((c) => sql`add column if not exists ${sql.id(c)} Nullable(Float64)`),
])}`

/**
 * Functions core's SQL calls by their Postgres and DuckDB names, defined in
 * ClickHouse under those names (SQL user-defined functions, server-wide):
 * `strpos(text, part)`, 1-based, 0 when absent, is ClickHouse's `position`.
 */
const FUNCTIONS = sql`create function if not exists strpos as (haystack, needle) -> position(haystack, needle)`
/** `md5(text)` as Postgres and DuckDB spell it: the digest in lower-case hex (ClickHouse's `MD5` gives the 16 bytes). */
const MD5 = sql`create function if not exists md5 as (text) -> lower(hex(MD5(text)))`
/** `chr(code)` as ClickHouse's `char`: the same character for ASCII codes, which are all core writes (paths' `chr(10)`); `char` takes bytes, not code points, above 127. */
const CHR = sql`create function if not exists chr as (code) -> char(code)`

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

/** The adapter's ClickHouse schema. Idempotent DDL: ClickHouse has no transactions to roll a half-run migration back. */
export function clickhouseMigrations(executorOf: ExecutorOf): Record<string, Migration> {
  return {
    clickhouse_0001_events: {
      async up(db) {
        const compiled = compileForClickHouse(EVENTS)
        await (await executorOf(db)).command(compiled.sql, {})
      },
    },
    clickhouse_0002_functions: {
      async up(db) {
        await (await executorOf(db)).command(compileForClickHouse(FUNCTIONS).sql, {})
      },
    },
    clickhouse_0003_md5: {
      async up(db) {
        await (await executorOf(db)).command(compileForClickHouse(MD5).sql, {})
      },
    },
    clickhouse_0004_chr: {
      async up(db) {
        await (await executorOf(db)).command(compileForClickHouse(CHR).sql, {})
      },
    },
    clickhouse_0005_materialized_numbers: {
      async up(db) {
        for (const statement of MATERIALIZED_NUMBER_COLUMNS) await (await executorOf(db)).command(compileForClickHouse(statement).sql, {})
      },
    },
    clickhouse_0006_property_slots: {
      async up(db) {
        // One ALTER for all of them: an ALTER is about 90 ms on chDB, and every fresh database (each conformance case) runs this.
        await (await executorOf(db)).command(compileForClickHouse(SLOT_COLUMNS).sql, {})
      },
    },
    clickhouse_0007_fold_kept_overrides: {
      async up(db) {
        await foldKeptOverrides(await executorOf(db))
      },
    },
  }
}
