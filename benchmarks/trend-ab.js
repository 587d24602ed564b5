// Trends of two builds side by side (issue 14): each build's engine runs the trend suite's queries
// end to end through `sightline.query.trend` on one DuckDB file or Postgres schema, interleaved with the suite's floor
// in every round, so both builds' ratios are to the same floor in the same round; answers compared.
//
//   node benchmarks/trend-ab.js --old /work/ab/trend-old --new /work/main \
//     --duckdb /work/bench-data-trend/duckdb_10000000.duckdb [--project 1] [--rounds 5] [--only REGEX]
//   node benchmarks/trend-ab.js ... --pg-schema bench_kept_postgres_10000000   (the Postgres server at SIGHTLINE_PG_URL)
//   node benchmarks/trend-ab.js ... --dump FILE     (each query's statements as JSON, to EXPLAIN; nothing timed)
//
// Each build is a checkout with `npx tsc -b` done (its packages' dist/). Both open the data, so both
// run their migrations on it: give a copy of a kept file or schema. Not imported by anything.
import { abArgs } from './ab-args.js'
import { loadavg } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { median, now, seconds } from './measure.js'
import { recordingDuckDBConnection, recordingPgPool } from './recording-connections.js'
import { SUITES, summariseAnswer } from './suites.js'
import { loadKysely } from './targets.js'

const args = abArgs()
const END = new Date('2025-01-01T00:00:00Z')
const projectId = Number(args.project)
const suite = SUITES.trend
const queries = suite.queries.filter((q) => !args.only || new RegExp(args.only).test(q.name))

const build = async (dir, pkg) => import(pathToFileURL(path.join(dir, 'packages', pkg, 'dist', 'index.js')).href)

const recorded = { current: [] }

/**
 * The data both builds read, with every statement their engines send recorded: one DuckDB
 * instance, or one Postgres pool on the kept schema. `storage(dir)` is that build's adapter on
 * it; `db` a Kysely on it (the new build's dialect) for the floor.
 */
async function openData() {
  if (args.duckdb) {
    const { DuckDBInstance } = await import('@duckdb/node-api')
    const instance = await DuckDBInstance.create(args.duckdb)
    const wrap = (raw) => recordingDuckDBConnection(raw, ({ sql, values }) => recorded.current.push({ sql, values }))
    const floorStorage = (await build(args.new, 'storage-duckdb')).duckdbStorage({ instance: { connect: () => instance.connect() } })
    return {
      storage: async (dir) => (await build(dir, 'storage-duckdb')).duckdbStorage({ instance: { connect: async () => wrap(await instance.connect()) } }),
      floorStorage,
      close: async () => instance.closeSync(),
    }
  }
  const { default: pg } = await import('pg')
  const pool = new pg.Pool({ connectionString: process.env.SIGHTLINE_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test', max: 6 })
  const recording = recordingPgPool(pool, (statement) => recorded.current.push(statement))
  const schema = args['pg-schema']
  return {
    storage: async (dir) => (await build(dir, 'storage-postgres')).postgresStorage({ pool: recording, schema }),
    floorStorage: (await build(args.new, 'storage-postgres')).postgresStorage({ pool, schema }),
    close: () => pool.end(),
  }
}

const data = await openData()
/** One build's engine on the shared data. */
async function open(dir) {
  const { createSightline } = await build(dir, 'core')
  return createSightline({ storage: await data.storage(dir), clock: () => END, queries: { timeoutMs: 3_600_000 } })
}

const sides = { before: await open(args.old), after: await open(args.new) }
// The floor through the new build's dialect, as the harness runs it (Kysely, the suite's SQL).
const { Kysely, sql } = await loadKysely()
const floorDriver = await data.floorStorage.open()
const db = new Kysely({ dialect: floorDriver.dialect })
const floor = async () => Number((await suite.floor.query(sql, projectId).execute(db)).rows[0].n)

let timezone = null
const setZone = async (q) => {
  const wanted = q.timezone ?? 'UTC'
  if (wanted !== timezone) await sides.after.projects.update(projectId, { timezone: wanted })
  timezone = wanted
}
const trend = async (side, q) => (await sides[side].query.trend(projectId, q.params({}))).result
const plain = (v) => JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? String(x) : x))

try {
  if (args.dump) {
    const { writeFileSync } = await import('node:fs')
    const out = {}
    for (const q of queries) {
      await setZone(q)
      for (const side of ['before', 'after']) {
        recorded.current = []
        await trend(side, q)
        out[`${side}: ${q.name}`] = recorded.current.map((s) => ({ sql: s.sql, values: JSON.parse(plain(s.values ?? [])) }))
      }
    }
    writeFileSync(args.dump, JSON.stringify(out, null, 2))
    process.exit(0)
  }
  const rounds = Number(args.rounds)
  const rows = await floor()
  console.log(`load average at start ${loadavg().map((l) => l.toFixed(2)).join(' ')}; floor ${rows} rows; ${rounds} rounds after a warm-up, interleaved`)
  const times = { floor: [] }
  const ratios = {}
  const same = {}
  // Warm-up, and the answers: the same result from both builds, compared whole.
  for (const q of queries) {
    await setZone(q)
    const a = await trend('before', q)
    const b = await trend('after', q)
    same[q.name] = plain(a) === plain(b) ? JSON.stringify(summariseAnswer('trend', b)) : `NO: ${JSON.stringify(summariseAnswer('trend', a))} / ${JSON.stringify(summariseAnswer('trend', b))}`
    for (const side of ['before', 'after']) (times[`${side}: ${q.name}`] = []), (ratios[`${side}: ${q.name}`] = [])
  }
  for (let r = 0; r < rounds; r++) {
    let t = now()
    await floor()
    const f = seconds(t) * 1000
    times.floor.push(f)
    for (const q of queries) {
      await setZone(q)
      for (const side of r % 2 === 0 ? ['before', 'after'] : ['after', 'before']) {
        t = now()
        await trend(side, q)
        const ms = seconds(t) * 1000
        times[`${side}: ${q.name}`].push(ms)
        ratios[`${side}: ${q.name}`].push(ms / f)
      }
    }
  }
  console.log(`floor: ${median(times.floor).toFixed(1)} ms (median of ${rounds})`)
  console.log('| query | before ms | before x floor | after ms | after x floor | same answer |\n|---|---|---|---|---|---|')
  for (const q of queries) {
    const m = (side) => `${median(times[`${side}: ${q.name}`]).toFixed(1)} | ${median(ratios[`${side}: ${q.name}`]).toFixed(2)}x`
    console.log(`| ${q.name} | ${m('before')} | ${m('after')} | ${same[q.name]} |`)
  }
  console.log(`load average at end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
} finally {
  await sides.before.close()
  await sides.after.close()
  await db.destroy()
  await floorDriver.close()
  await data.close()
}
