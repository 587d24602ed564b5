import { CompiledQuery, type DatabaseConnection } from 'kysely'
import type { ClickHouseExecutor } from '../dialect/clickhouse-executor.js'
import { COPIED_TABLES } from './copied-tables.js'

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
 * Interim: a refresh copies the whole table. It keeps analyses exact while
 * core writes persons only to the companion; PostHog's form, where ingestion
 * writes versioned person rows to ClickHouse as it writes them to Postgres,
 * needs a port member (README, What is left).
 */
export class TableCopies {
  readonly #fresh = new Set<string>()
  #refreshing: Promise<void> = Promise.resolve()

  constructor(
    private readonly executor: ClickHouseExecutor,
    /** True when other processes may write the companion (a server): then no copy is ever taken as fresh. */
    private readonly alwaysRefresh: boolean,
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
    await this.executor.command(`drop table if exists ${quote(next)}`, {})
    await this.executor.command(`create table ${quote(next)} (${definition}) engine = MergeTree order by (${orderBy.map(quote).join(', ')})`, {})
    await this.executor.insertRows(next, columns.map((c) => c.name), chRows)
    await this.executor.command(`create table if not exists ${quote(table)} as ${quote(next)}`, {})
    await this.executor.command(`exchange tables ${quote(next)} and ${quote(table)}`, {})
    await this.executor.command(`drop table ${quote(next)}`, {})
  }
}

const quote = (name: string) => `"${name}"`

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
