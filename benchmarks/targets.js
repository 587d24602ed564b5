// The storages a benchmark runs against: how to open one, inspect it afterwards and clean up.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { postgresStorage } from '@sightline/storage-postgres'
import { clickhouseStorage } from '@sightline/storage-clickhouse'
import { now } from './measure.js'

export const TARGETS = ['duckdb', 'postgres', 'chdb']
export const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/test'

/**
 * A target as named on the command line: `duckdb`, `postgres`, or DuckDB with settings passed at
 * open, `duckdb:checkpoint_threshold=1GB+threads=2`, so that two configurations run side by side.
 */
export function parseTarget(spec) {
  const [kind, settings] = spec.split(/:(.*)/s)
  if (!TARGETS.includes(kind)) throw new Error(`unknown target ${JSON.stringify(spec)} (known: ${TARGETS.join(', ')}, duckdb:key=value+key=value)`)
  if (settings === undefined) return { name: spec, kind }
  if (kind !== 'duckdb') throw new Error(`settings are for DuckDB targets only, got ${JSON.stringify(spec)}`)
  const config = {}
  for (const pair of settings.split('+')) {
    const at = pair.indexOf('=')
    if (at < 1) throw new Error(`target settings are key=value pairs joined by +, got ${JSON.stringify(spec)}`)
    config[pair.slice(0, at)] = pair.slice(at + 1)
  }
  return { name: spec, kind, config }
}

/** Where a target keeps its data for one measurement: a temp file, or a fresh Postgres schema. */
export function placeTarget(spec, pgUrl) {
  const { name, kind, config } = parseTarget(spec)
  if (kind === 'duckdb') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-'))
    return { target: name, kind, config, dir, path: path.join(dir, 'bench.duckdb') }
  }
  if (kind === 'chdb') return chdbPlace(name, mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-')))
  return { target: name, kind, pgUrl, schema: `bench_${process.pid}_${Date.now()}_${++placed}` }
}

let placed = 0

/** ClickHouse through chDB in `dir/chdb`, everything else on a DuckDB companion file beside it. */
export const chdbPlace = (target, dir) => ({ target, kind: 'chdb', dir, chdbPath: path.join(dir, 'chdb'), companionPath: path.join(dir, 'companion.duckdb') })

/**
 * The storage adapter for a placed target, opened as an application would (a path or a URL),
 * with the target's DuckDB settings. With a `trace`, the adapter gets an instance or pool of
 * ours instead, wrapped so that every statement's wall time is added to `trace` by kind. The
 * caller calls `close()` after closing Sightline.
 */
export async function openStorage(place, { trace } = {}) {
  if (place.kind === 'chdb') {
    if (trace) throw new Error('--trace is for duckdb and postgres targets')
    mkdirSync(place.dir, { recursive: true })
    return { storage: clickhouseStorage({ path: place.chdbPath, companion: duckdbStorage({ path: place.companionPath }) }), close: async () => {} }
  }
  if (place.kind === 'duckdb') {
    if (!trace) return { storage: duckdbStorage({ path: place.path, config: place.config }), close: async () => {} }
    const { DuckDBInstance } = await import('@duckdb/node-api')
    const instance = await DuckDBInstance.create(place.path, { ...place.config })
    return {
      storage: duckdbStorage({ instance: { connect: async () => tracedDuckDBConnection(await instance.connect(), trace) } }),
      close: async () => instance.closeSync(),
    }
  }
  if (!trace) return { storage: postgresStorage({ connectionString: place.pgUrl, schema: place.schema }), close: async () => {} }
  const { default: pg } = await import('pg')
  const pool = new pg.Pool({ connectionString: place.pgUrl })
  return { storage: postgresStorage({ pool: tracedPgPool(pool, trace), schema: place.schema }), close: () => pool.end() }
}

/**
 * The kysely core runs on, as ES module: the floor hosts an adapter's `insertEvents` on it.
 * Not a dependency of the benchmarks, so it is found from core's own package, and its ESM entry
 * is taken (the CommonJS build would be a second copy of every class).
 */
export async function loadKysely() {
  const require = createRequire(fileURLToPath(import.meta.resolve('@sightline/core')))
  // The package's root: its build folders hold package.json files of their own ({"type": ...}).
  let dir = path.dirname(require.resolve('kysely'))
  while (!isPackageRoot(dir, 'kysely')) {
    if (dir === path.dirname(dir)) throw new Error('kysely not found from @sightline/core')
    dir = path.dirname(dir)
  }
  const { exports } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'))
  return import(pathToFileURL(path.join(dir, exports['.'].import)).href)
}

function isPackageRoot(dir, name) {
  const file = path.join(dir, 'package.json')
  return existsSync(file) && JSON.parse(readFileSync(file, 'utf8')).name === name
}

/** After the child is gone: rows stored and bytes on disk, read straight from the database. */
export async function inspectTarget(place) {
  if (place.kind === 'chdb') {
    const { Session, drainPending } = await import('chdb')
    const session = new Session(place.chdbPath)
    try {
      const events = Number((await session.queryAsync('select count() from events', { format: 'TSV' })).text().trim())
      const { DuckDBInstance } = await import('@duckdb/node-api')
      const instance = await DuckDBInstance.create(place.companionPath)
      const connection = await instance.connect()
      const persons = Number((await connection.runAndReadAll('select count(*) from persons')).getRows()[0][0])
      connection.disconnectSync()
      instance.closeSync()
      return { rows: events, persons, bytes: directoryBytes(place.dir) }
    } finally {
      session.close()
      await drainPending()
    }
  }
  if (place.kind === 'duckdb') {
    let bytes = 0
    for (const file of [place.path, `${place.path}.wal`]) {
      try {
        bytes += statSync(file).size
      } catch {
        // No WAL left after a clean checkpoint.
      }
    }
    const { DuckDBInstance } = await import('@duckdb/node-api')
    const instance = await DuckDBInstance.create(place.path, { ...place.config })
    try {
      const connection = await instance.connect()
      const reader = await connection.runAndReadAll('select (select count(*) from events), (select count(*) from persons)')
      const [events, persons] = reader.getRows()[0].map(Number)
      connection.disconnectSync()
      return { rows: events, persons, bytes }
    } finally {
      instance.closeSync()
    }
  }
  return withPgClient(place.pgUrl, async (client) => {
    const s = place.schema
    const { rows } = await client.query(
      `select (select count(*) from "${s}".events) as events, (select count(*) from "${s}".persons) as persons,
        (select sum(pg_total_relation_size(c.oid)) from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = $1 and c.relkind in ('r', 'm')) as bytes,
        pg_total_relation_size('"${s}".events') as event_bytes`,
      [s],
    )
    const r = rows[0]
    return { rows: Number(r.events), persons: Number(r.persons), bytes: Number(r.bytes), eventTableBytes: Number(r.event_bytes) }
  })
}

/** Removes what `placeTarget` made; safe after a crashed child. */
export async function removeTarget(place) {
  if (place.kind === 'duckdb' || place.kind === 'chdb') rmSync(place.dir, { recursive: true, force: true })
  else await withPgClient(place.pgUrl, (client) => client.query(`drop schema if exists "${place.schema}" cascade`))
}

/** The bytes of the files under `dir`. */
function directoryBytes(dir) {
  let bytes = 0
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) bytes += statSync(path.join(entry.parentPath ?? entry.path, entry.name)).size
  }
  return bytes
}

async function withPgClient(url, fn) {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

// ---------------------------------------------------------------------------------------------
// Tracing: wall time per statement kind, measured around the driver calls the adapters make.

/** `insert into persons`, `select person_distinct_ids`, `begin`...: a statement's kind. */
function statementKind(sql) {
  const text = sql.trim().replace(/\s+/g, ' ').toLowerCase()
  const verb = /^(select|insert|update|delete)\b/.exec(text)?.[1]
  if (!verb) return text.split(' ')[0] // begin, commit, set ...
  const table = /(?:from|into|update)\s+"?([a-z_]+)"?/.exec(text)?.[1] ?? '?'
  return `${verb} ${table}`
}

export function addTrace(trace, kind, ns) {
  const entry = (trace[kind] ??= { count: 0, ms: 0 })
  entry.count++
  entry.ms += Number(ns) / 1e6
}

async function timed(trace, kind, fn) {
  const start = now()
  try {
    return await fn()
  } finally {
    addTrace(trace, kind, now() - start)
  }
}

function tracedDuckDBConnection(raw, trace) {
  return {
    run: (sql, values, types) => timed(trace, `duckdb ${statementKind(sql)}`, () => raw.run(sql, values, types)),
    stream: (sql, values, types) => raw.stream(sql, values, types),
    async createAppender(table, schema) {
      const appender = await raw.createAppender(table, schema)
      // From creation to close: the adapter's append loop (JS plus DuckDB's conversions) and the flush.
      const start = now()
      return new Proxy(appender, {
        get(target, key) {
          if (key === 'closeSync') {
            return () => {
              target.closeSync()
              addTrace(trace, `duckdb appender ${table} (loop + flush)`, now() - start)
            }
          }
          if (key === 'flushSync') {
            return () => timedSync(trace, `duckdb appender ${table} flushSync`, () => target.flushSync())
          }
          const value = Reflect.get(target, key)
          return typeof value === 'function' ? value.bind(target) : value
        },
      })
    },
    disconnectSync: () => raw.disconnectSync(),
  }
}

function timedSync(trace, kind, fn) {
  const start = now()
  try {
    return fn()
  } finally {
    addTrace(trace, kind, now() - start)
  }
}

function tracedPgPool(pool, trace) {
  // The dialect keeps one wrapper per client object, so one pg client must map to one of ours.
  const wrappers = new WeakMap()
  return {
    async connect() {
      const client = await pool.connect()
      let wrapper = wrappers.get(client)
      if (!wrapper) {
        wrapper = {
          query: (config) => timed(trace, `pg ${statementKind(config.text)}`, () => client.query(config)),
          getTypeParser: (oid, format) => client.getTypeParser(oid, format),
          release: () => client.release(),
        }
        wrappers.set(client, wrapper)
      }
      return wrapper
    },
    end: () => pool.end(),
  }
}
