import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { drainPending, Session } from 'chdb'
import { createSightline } from '@sightline/core'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { clickhouseSqlHooks, clickhouseStorage, ClickHouseDialect, type ChdbSession } from '@sightline/storage-clickhouse'
import type { ConformanceTarget, FreshDatabase } from '../conformance/target.js'
import { copyIntoMemory, TEST_DUCKDB_OPTIONS } from './duckdb.js'
import { templateDir } from './template-dir.js'

const toNumber = (v: unknown) => (typeof v === 'bigint' ? Number(v) : v)

// The tables a raw statement names (user values are its parameters, never its text).
const NAMED = /\b(?:from|join|into|update|table)\s+"?([a-z_][a-z0-9_]*)"?/gi
const tablesIn = (sql: string) => new Set([...sql.matchAll(NAMED)].map((m) => m[1]!.toLowerCase()))

/** `$1` placeholders as ClickHouse's typed parameters, `epoch_us` (DuckDB's spelling, epochMicros below) as ClickHouse's. */
function toClickHouse(sql: string, params: unknown[]): { sql: string; params: Record<string, unknown> } {
  const text = sql
    .replace(/\$(\d+)/g, (_, n: string) => `{p${n}:${typeof params[Number(n) - 1] === 'number' ? 'Int64' : 'String'}}`)
    .replace(/\bepoch_us\(/g, 'toUnixTimestamp64Micro(')
  return { sql: text, params: Object.fromEntries(params.map((v, i) => [`p${i + 1}`, v])) }
}

interface Compact {
  meta: { name: string; type: string }[]
  data: unknown[][]
}

async function readClickHouse<T>(session: Session, sql: string, params: unknown[]): Promise<T[]> {
  const q = toClickHouse(sql, params)
  const text = (await session.queryBindAsync(q.sql, q.params, { format: 'JSONCompact' })).text()
  // A statement without a result (DROP) prints nothing.
  const result: Compact = text === '' ? { meta: [], data: [] } : JSON.parse(text)
  return result.data.map((row) =>
    Object.fromEntries(result.meta.map((m, i) => [m.name, /Int\d+/.test(m.type) && row[i] !== null ? Number(row[i]) : row[i]])),
  ) as T[]
}

/**
 * For a raw statement that names events and companion tables at once (no
 * single store holds both): the companion's own events table, which
 * Sightline leaves empty, is filled with ClickHouse's events first.
 */
async function copyEventsToCompanion(session: Session, connection: DuckDBConnection): Promise<void> {
  const columns = (await (await connection.run("select column_name as c from information_schema.columns where table_name = 'events' order by ordinal_position")).getRowObjectsJS()).map((r) => String(r.c))
  // Times as ISO 8601 UTC, which DuckDB reads into timestamptz whatever its zone.
  const select = columns.map((c) => (c === 'timestamp' || c === 'inserted_at' ? `formatDateTime(${c}, '%Y-%m-%dT%H:%i:%S.%fZ') as ${c}` : `toString(${c}) as ${c}`)).join(', ')
  const rows = (await readClickHouse<Record<string, string | null>>(session, `select ${select} from events`, []))
  await connection.run('delete from events')
  for (let i = 0; i < rows.length; i += 200) {
    const part = rows.slice(i, i + 200)
    const values = part.map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`).join(', ')
    await connection.run(`insert into events (${columns.join(', ')}) values ${values}`, part.flatMap((row) => columns.map((c) => row[c] ?? null)) as never)
  }
}

/**
 * A migrated chDB data directory and DuckDB companion file, made once per
 * test process (see `templateDir`) for `migrated()`, which copies them:
 * about a tenth of migrating both stores for every conformance case. A
 * copied directory opens as its own database (its links into `store/` are
 * relative). `test/targets/migrated-copies.test.ts` holds a copy's catalogs
 * against newly migrated ones.
 */
let template: Promise<{ chdb: string; companion: string }> | undefined
function migratedTemplate(): Promise<{ chdb: string; companion: string }> {
  template ??= (async () => {
    const dir = templateDir('sightline-chdb-template')
    const paths = { chdb: join(dir, 'chdb'), companion: join(dir, 'companion.duckdb') }
    const session = new Session(paths.chdb)
    const instance = await DuckDBInstance.create(paths.companion, TEST_DUCKDB_OPTIONS)
    try {
      await (await createSightline({ storage: clickhouseStorage({ session: session as ChdbSession, companion: duckdbStorage({ instance }) }) })).close()
    } finally {
      instance.closeSync()
      session.close()
      await drainPending()
    }
    if (existsSync(`${paths.companion}.wal`)) throw new Error('the migrated companion template kept a write-ahead log')
    return paths
  })()
  return template
}

/**
 * Events on chDB, everything else on a DuckDB companion in memory. chDB opens
 * one data directory a process, so each case opens its own session in a
 * temporary directory and closes it at dispose.
 */
export const clickhouseTarget: ConformanceTarget = {
  name: 'clickhouse (chDB + DuckDB companion)',
  // Each analysis costs tens of milliseconds more on chDB than on DuckDB (its planning, the CTE tables): a quarter of each property's runs.
  propertyShare: 0.25,
  async fresh(): Promise<FreshDatabase> {
    const dir = mkdtempSync(join(tmpdir(), 'sightline-chdb-'))
    return openClickHouse(dir, await DuckDBInstance.create(':memory:', TEST_DUCKDB_OPTIONS))
  },
  async migrated(): Promise<FreshDatabase> {
    const from = await migratedTemplate()
    const dir = mkdtempSync(join(tmpdir(), 'sightline-chdb-'))
    const instance = await DuckDBInstance.create(':memory:', TEST_DUCKDB_OPTIONS)
    try {
      cpSync(from.chdb, join(dir, 'chdb'), { recursive: true, verbatimSymlinks: true })
      await copyIntoMemory(instance, from.companion)
    } catch (error) {
      instance.closeSync()
      rmSync(dir, { recursive: true, force: true })
      throw error
    }
    return openClickHouse(dir, instance)
  },
  unreachable: () => {
    const refuse = async () => {
      throw new Error('chDB session closed')
    }
    const closed: ChdbSession = { queryAsync: refuse, queryBindAsync: refuse, insert: refuse }
    return clickhouseStorage({ session: closed, companion: duckdbStorage({ path: '/nonexistent-directory/sightline/x.duckdb' }) })
  },
}

/** A session on `dir/chdb` (new, or a copy already there) with `instance` as its companion; dispose removes `dir`. */
async function openClickHouse(dir: string, instance: DuckDBInstance): Promise<FreshDatabase> {
  const session = new Session(join(dir, 'chdb'))
  const connection = await instance.connect()
  const storage = () => clickhouseStorage({ session: session as ChdbSession, companion: duckdbStorage({ instance }) })
  return {
    storage,
    async raw<T>(sql: string, params: unknown[] = []) {
      const tables = tablesIn(sql)
      if (tables.has('events') && tables.size === 1) return readClickHouse<T>(session, sql, params)
      if (tables.has('events')) await copyEventsToCompanion(session, connection)
      const rows = await (await connection.run(sql, params as never)).getRowObjectsJS()
      return rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, toNumber(v)]))) as T[]
    },
    epochMicros: (column) => `epoch_us(${column})`,
    async analysisDatabase() {
      // The adapter's migrations define the functions core calls by their Postgres names (strpos, md5, chr).
      await (await createSightline({ storage: storage() })).close()
      return { dialect: new ClickHouseDialect({ session: session as ChdbSession }), sql: clickhouseSqlHooks, jsonColumnType: 'String', tableOptions: 'engine = Memory' }
    },
    async dispose() {
      connection.closeSync()
      instance.closeSync()
      session.close()
      // close() defers the release behind statements still running (an aborted analysis); the next case's session waits for it.
      await drainPending()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
