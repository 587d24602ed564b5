import { CompiledQuery, type DatabaseConnection } from 'kysely'
import type { ClickHouseExecutor } from '../dialect/clickhouse-executor.js'
import { COPIED_TABLES } from './copied-tables.js'
import { SINGLE_SERVER, type ClickHouseTopology } from '../clickhouse-topology.js'

interface CompanionColumn {
  readonly name: string
  readonly type: string
  readonly nullable: boolean
}

/**
 * ClickHouse's copies of the companion tables in `COPIED_TABLES`, one set per
 * ClickHouse database. A copy is stale until refreshed, and again after a
 * companion write to its table commits (`changed`). A refresh reads the
 * companion's rows and swaps a new ClickHouse table in (`EXCHANGE TABLES`,
 * atomic), so a reader sees the old copy or the new one.
 *
 * On a cluster every node holds the whole copy (a replicated table whose
 * replicas are all the nodes): the DDL runs `ON CLUSTER`, the rows are
 * inserted on one node and `SYSTEM SYNC REPLICA ... ON CLUSTER` waits until
 * every node has them, then the swap runs on every node. Each node's swap is
 * atomic; the nodes' are not one: an analysis running during a refresh may
 * join one shard's events with the old copy and another's with the new.
 *
 * A refresh copies the whole table: kept for the tables core writes without
 * telling the adapter (today `cohort_people`). Persons and the other tables
 * ingestion writes are versioned rows instead (`person-rows-schema.ts`).
 */
export class TableCopies {
  readonly #fresh = new Set<string>()
  #refreshing: Promise<void> = Promise.resolve()

  constructor(
    private readonly executor: ClickHouseExecutor,
    /** True when other processes may write the companion (a server): then no copy is ever taken as fresh. */
    private readonly alwaysRefresh: boolean,
    /** Where the copies live. Default: one server. */
    private readonly topology: ClickHouseTopology = SINGLE_SERVER,
  ) {}

  /** Companion writes to `tables` committed: their copies are stale. */
  changed(tables: Iterable<string>): void {
    for (const table of tables) this.#fresh.delete(table)
  }

  /** Brings the copies of `tables` up to date with the companion, read through `companion`. One refresh at a time. */
  refresh(tables: ReadonlySet<string>, companion: DatabaseConnection): Promise<void> {
    const run = this.#refreshing.then(async () => {
      for (const table of tables) {
        if (this.#fresh.has(table) && !this.alwaysRefresh) continue
        // Taken as fresh before reading: a write committing meanwhile marks it stale again.
        this.#fresh.add(table)
        try {
          await this.#copy(table, companion)
        } catch (error) {
          this.#fresh.delete(table)
          throw error
        }
      }
    })
    this.#refreshing = run.catch(() => {})
    return run
  }

  async #copy(table: string, companion: DatabaseConnection): Promise<void> {
    const columns = await companionColumns(table, companion)
    if (columns.length === 0) return // not in this schema (an older one): nothing reads it
    const { rows } = await companion.executeQuery<Record<string, unknown>>(CompiledQuery.raw(`select * from ${quote(table)}`))
    const copied = COPIED_TABLES.get(table)!
    const orderBy = copied.orderBy.filter((c) => columns.some((col) => col.name === c))
    const definition = columns.map((c) => `${quote(c.name)} ${clickhouseType(c)}`).join(', ')
    const chRows = rows.map((row) => toClickHouseRow(row, columns))
    const next = `${table}__sightline_next`
    const { onCluster, cluster } = this.topology
    const body = `(${definition}) engine = ${cluster === null ? 'MergeTree' : REPLICATED_EVERYWHERE} order by (${orderBy.map(quote).join(', ')})`
    // On a cluster a dropped replicated table leaves its replication metadata until it is removed: SYNC removes it now.
    const drop = cluster === null ? '' : ' sync'
    await this.executor.command(`drop table if exists ${quote(next)}${onCluster}${drop}`, {})
    await this.executor.command(`create table ${quote(next)}${onCluster} ${body}`, {})
    await this.executor.insertRows(next, columns.map((c) => c.name), chRows)
    // The rows were inserted on one node; every node holds them before the swap makes them what analyses join.
    if (cluster !== null) await this.executor.command(`system sync replica${onCluster} ${quote(next)}`, {})
    // Created with its own definition rather than `as next`, which on a cluster would copy next's replication path.
    await this.executor.command(`create table if not exists ${quote(table)}${onCluster} ${body}`, {})
    await this.executor.command(`exchange tables ${quote(next)} and ${quote(table)}${onCluster}`, {})
    await this.executor.command(`drop table ${quote(next)}${onCluster}${drop}`, {})
  }
}

const quote = (name: string) => `"${name}"`

/**
 * A copy's engine on a cluster: one replicated table whose replicas are all
 * the nodes (a replication path with no `{shard}`, and replica names unique
 * across shards, as PostHog keeps its person tables), so that a shard's part
 * of an analysis joins its events with the whole copy on its own node.
 * `{uuid}` gives every creation a path of its own: the copy and its next
 * version swap names, and each keeps the path it was created with.
 */
const REPLICATED_EVERYWHERE = "ReplicatedMergeTree('/clickhouse/tables/{uuid}/all', '{replica}-{shard}')"

/** The companion's columns of `table`, from information_schema (DuckDB and Postgres both keep it). */
async function companionColumns(table: string, companion: DatabaseConnection): Promise<CompanionColumn[]> {
  const { rows } = await companion.executeQuery<{ name: string; type: string; nullable: string }>(
    CompiledQuery.raw(
      `select column_name as name, data_type as type, is_nullable as nullable from information_schema.columns
       where table_name = '${table}' and table_schema = current_schema() order by ordinal_position`,
    ),
  )
  return rows.map((r) => ({ name: r.name, type: r.type.toLowerCase(), nullable: r.nullable === 'YES' }))
}

// Core's column types (core-migrations.ts) in DuckDB's and Postgres's information_schema spelling, as ClickHouse types.
function clickhouseType(column: CompanionColumn): string {
  const t = column.type
  const base =
    t === 'integer' || t === 'int4' ? 'Int32'
    : t === 'bigint' || t === 'int8' ? 'Int64'
    : t === 'boolean' ? 'Bool'
    : t === 'uuid' ? 'UUID'
    : t.startsWith('timestamp') ? "DateTime64(6, 'UTC')"
    : t === 'double' || t === 'double precision' ? 'Float64'
    : 'String' // text, varchar, json, jsonb
  return column.nullable ? `Nullable(${base})` : base
}

/** A companion row as ClickHouse's JSON input reads it: JSON documents as their text, times without the T and Z. */
function toClickHouseRow(row: Record<string, unknown>, columns: ReadonlyArray<CompanionColumn>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const c of columns) {
    const v = row[c.name]
    if (v === null || v === undefined) out[c.name] = null
    else if (c.type === 'json' || c.type === 'jsonb') out[c.name] = typeof v === 'string' ? v : JSON.stringify(v)
    else if (c.type.startsWith('timestamp')) out[c.name] = clickhouseTime(v)
    else out[c.name] = v
  }
  return out
}

function clickhouseTime(v: unknown): string {
  const iso = v instanceof Date ? v.toISOString() : String(v)
  return iso.replace('T', ' ').replace(/(Z|\+00(:00)?)$/, '')
}
