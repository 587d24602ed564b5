// Funnel SQL of two builds side by side (issue 15): each build's engine compiles the same funnels
// on the same data (a storage wrapper records the statements it runs), then both SQL sets run
// interleaved on one connection, medians taken, answers compared.
//
//   node benchmarks/funnel-ab.js --old /work/ab/funnel-old --new /work/ab/funnel-new \
//     --duckdb /work/bench-data/copy.duckdb --project 1 [--rounds 5] [--only REGEX]
//   node benchmarks/funnel-ab.js ... --pg-schema bench_kept_postgres_1000000
//   node benchmarks/funnel-ab.js ... --dump FILE     (the statements as JSON, to EXPLAIN; nothing timed)
//
// Each build is a checkout with `npx tsc -b` done (its packages' dist/). Both open the data, so
// both run their migrations on it: give a copy of a kept file. Not imported by anything.
import { abArgs } from './ab-args.js'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { median, now, seconds } from './measure.js'
import { recordingDuckDBConnection, recordingPgPool } from './recording-connections.js'

const args = abArgs()
/** The statement that computes a funnel: the one whose first CTE is its events (stored or read at each reference). */
const FUNNEL_STATEMENT = /\bfe as (not materialized )?\(/
const END = new Date('2025-01-01T00:00:00Z')
const projectId = Number(args.project)

const range = { date_from: '2024-10-03', date_to: '2024-12-31', funnel_window_interval: 14, funnel_window_interval_unit: 'day' }
const steps = (...ids) => ({ events: ids.map((id, order) => ({ id, order, type: 'events' })) })
const RARE = ['signup_started', 'signup', 'onboarding_completed']
/** A page view of one path: steps of one event name told apart by a property, as most web funnels are. */
const pageview = (path) => ({ id: '$pageview', type: 'events', properties: [{ key: '$pathname', value: path, operator: 'exact', type: 'event' }] })
const pages = (...ss) => ({ events: ss.map((s, order) => ({ ...(typeof s === 'string' ? { id: s, type: 'events' } : s), order })) })
/** The funnels compared: the harness's four, and the frequent-step, exclusion, breakdown and trends shapes. */
const FUNNELS = {
  'ordered, 3 rare steps': { ...range, ...steps(...RARE) },
  'ordered, $autocapture middle step': { ...range, ...steps(RARE[0], '$autocapture', RARE[2]) },
  'ordered, 5 steps': { ...range, ...steps(...RARE, 'feature_used', 'purchase') },
  'ordered, 5 steps, $pageview first and third': { ...range, ...steps('$pageview', 'signup_started', '$pageview', 'signup', 'onboarding_completed') },
  'ordered, $pageview, $pageview, signup': { ...range, ...steps('$pageview', '$pageview', 'signup') },
  'ordered, /pricing, /signup, signup': { ...range, ...pages(pageview('/pricing'), pageview('/signup'), 'signup') },
  'strict, /pricing, /signup, signup': { ...range, ...pages(pageview('/pricing'), pageview('/signup'), 'signup'), funnel_order_type: 'strict' },
  'unordered, /, /pricing, /signup': { ...range, ...pages(pageview('/'), pageview('/pricing'), pageview('/signup')), funnel_order_type: 'unordered' },
  'unordered, 3 rare steps': { ...range, ...steps(...RARE), funnel_order_type: 'unordered' },
  'unordered, $autocapture middle step': { ...range, ...steps(RARE[0], '$autocapture', RARE[2]), funnel_order_type: 'unordered' },
  'unordered, 5 steps': { ...range, ...steps(...RARE, 'feature_used', 'purchase'), funnel_order_type: 'unordered' },
  'unordered, rare steps, by $browser (first touch)': { ...range, ...steps(...RARE), funnel_order_type: 'unordered', breakdown: '$browser', breakdown_type: 'event' },
  'strict, 3 rare steps': { ...range, ...steps(...RARE), funnel_order_type: 'strict' },
  'strict, $pageview, $pageview, signup': { ...range, ...steps('$pageview', '$pageview', 'signup'), funnel_order_type: 'strict' },
  'strict, $pageview, $autocapture, $pageview': { ...range, ...steps('$pageview', '$autocapture', '$pageview'), funnel_order_type: 'strict' },
  'ordered, rare steps, an exclusion': { ...range, ...steps(...RARE), exclusions: [{ id: '$autocapture', type: 'events', funnel_from_step: 0, funnel_to_step: 1 }] },
  'strict, rare steps, an exclusion': {
    ...range,
    ...steps(...RARE),
    funnel_order_type: 'strict',
    exclusions: [{ id: '$autocapture', type: 'events', funnel_from_step: 0, funnel_to_step: 1 }],
  },
  'strict, rare steps, by $browser (all events)': { ...range, ...steps(...RARE), funnel_order_type: 'strict', breakdown: '$browser', breakdown_type: 'event', breakdown_attribution_type: 'all_events' },
  'strict, rare steps, by $browser (first touch)': { ...range, ...steps(...RARE), funnel_order_type: 'strict', breakdown: '$browser', breakdown_type: 'event' },
  'strict, rare steps, by $browser (last touch)': {
    ...range,
    ...steps(...RARE),
    funnel_order_type: 'strict',
    breakdown: '$browser',
    breakdown_type: 'event',
    breakdown_attribution_type: 'last_touch',
  },
  'ordered trends, rare steps, an exclusion': {
    ...range,
    ...steps(...RARE),
    funnel_viz_type: 'trends',
    interval: 'week',
    exclusions: [{ id: '$autocapture', type: 'events', funnel_from_step: 0, funnel_to_step: 1 }],
  },
  'strict trends, rare steps': { ...range, ...steps(...RARE), funnel_order_type: 'strict', funnel_viz_type: 'trends', interval: 'week' },
}

/** Rows as comparable text: a GROUP BY answers in no particular order. */
const answer = async (rows) => JSON.stringify((await rows).map((r) => JSON.stringify(r)).sort())

const build = async (dir, pkg) => import(pathToFileURL(path.join(dir, 'packages', pkg, 'dist', 'index.js')).href)

/** A connection source whose statements the `record` callback sees, for both databases. */
async function openRecorder() {
  const recorded = { current: [] }
  if (args.duckdb) {
    const { DuckDBInstance } = await import(pathToFileURL(path.join(args.new, 'node_modules', '@duckdb', 'node-api', 'lib', 'index.js')).href).catch(() => import('@duckdb/node-api'))
    const instance = await DuckDBInstance.create(args.duckdb)
    const wrap = (raw) => recordingDuckDBConnection(raw, (statement) => recorded.current.push(statement))
    const replay = await instance.connect()
    return {
      recorded,
      storage: async (dir) => (await build(dir, 'storage-duckdb')).duckdbStorage({ instance: { connect: async () => wrap(await instance.connect()) } }),
      run: async ({ sql, values, types }) => answer((await replay.run(sql, values, types)).getRowsJson()),
      close: async () => instance.closeSync(),
    }
  }
  const { default: pg } = await import('pg')
  const pool = new pg.Pool({ connectionString: process.env.SIGHTLINE_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test', max: 4 })
  // Dumping: a funnel statement is recorded, not run (a slow plan is what one dumps to EXPLAIN).
  const dumped = ({ sql }) => (args.dump && FUNNEL_STATEMENT.test(sql) ? { rows: [], fields: [], rowCount: 0, command: 'SELECT' } : undefined)
  const recording = recordingPgPool(pool, (statement) => recorded.current.push(statement), dumped)
  const replay = await pool.connect()
  // The adapter's own settings (session-settings.ts, analysis-planner.ts): with JIT on, a replayed funnel ran for 40+
  // minutes; with nested loops, an ordered funnel with an exclusion ran past 90 s.
  await replay.query("select set_config('TimeZone', 'UTC', false), set_config('DateStyle', 'ISO', false), set_config('jit', 'off', false), set_config('search_path', quote_ident($1::text), false), set_config('enable_nestloop', 'off', false)", [args['pg-schema']])
  return {
    recorded,
    storage: async (dir) => (await build(dir, 'storage-postgres')).postgresStorage({ pool: recording, schema: args['pg-schema'] }),
    run: async ({ sql, values }) => answer((await replay.query({ text: sql, values })).rows),
    close: async () => (replay.release(), pool.end()),
  }
}

/** Each funnel's statement (the one that computes it) as `dir`'s engine runs it. */
async function capture(recorder, dir) {
  const { createSightline } = await build(dir, 'core')
  const sightline = await createSightline({ storage: await recorder.storage(dir), clock: () => END, queries: { timeoutMs: 3_600_000 } })
  const out = {}
  try {
    for (const [name, params] of Object.entries(FUNNELS)) {
      if (args.only && !new RegExp(args.only).test(name)) continue
      recorder.recorded.current = []
      await sightline.query.funnel(projectId, params)
      const statement = recorder.recorded.current.filter((s) => FUNNEL_STATEMENT.test(s.sql)).at(-1)
      if (!statement) throw new Error(`${dir}: no funnel statement recorded for ${name}`)
      out[name] = statement
    }
  } finally {
    await sightline.close()
  }
  return out
}

const recorder = await openRecorder()
try {
  const before = await capture(recorder, args.old)
  const after = await capture(recorder, args.new)
  if (args.dump) {
    // The statements as text and values, to EXPLAIN by hand; nothing is timed.
    const { writeFileSync } = await import('node:fs')
    const plain = (side) => Object.fromEntries(Object.entries(side).map(([k, v]) => [k, { sql: v.sql, values: v.values }]))
    writeFileSync(args.dump, JSON.stringify({ before: plain(before), after: plain(after) }, (k, v) => (typeof v === 'bigint' ? String(v) : v), 2))
    process.exit(0)
  }
  const rounds = Number(args.rounds)
  const { loadavg } = await import('node:os')
  console.log(`load average at start ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${rounds} rounds after a warm-up, interleaved`)
  console.log('| funnel | before ms | after ms | after / before | same answer |\n|---|---|---|---|---|')
  for (const name of Object.keys(before)) {
    const a = await recorder.run(before[name])
    const b = await recorder.run(after[name])
    const times = { before: [], after: [], ratio: [] }
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? ['before', 'after'] : ['after', 'before']
      const t = {}
      for (const side of order) {
        const start = now()
        await recorder.run(side === 'before' ? before[name] : after[name])
        t[side] = seconds(start) * 1000
        times[side].push(t[side])
      }
      times.ratio.push(t.after / t.before)
    }
    const same = a === b ? 'yes' : `NO (${a.slice(0, 200)} / ${b.slice(0, 200)})`
    console.log(`| ${name} | ${median(times.before).toFixed(0)} | ${median(times.after).toFixed(0)} | ${median(times.ratio).toFixed(2)} | ${same} |`)
  }
  console.log(`load average at end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
} finally {
  await recorder.close()
}
