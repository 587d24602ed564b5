// The fixed cost of an analysis call outside its SQL (issue 14: under 3 ms).
//   node benchmarks/call-overhead.js [--events 20000] [--calls 200] [--profile FILE.cpuprofile]
// Loads the sample data into an in-memory DuckDB database, then calls each analysis `--calls` times
// through `sightline.query` and times, for every call, the whole call and the time its statements spent
// in DuckDB (`DuckDBConnection.prototype.run` and `stream` patched: from the call into DuckDB until its
// result is materialized). The difference is what the engine spends around the SQL: project and cohort
// reads, decoding, planning, compiling and shaping. Medians and p90s per analysis.
// Imports the built packages: run `npx tsc -b` first.
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { parseArgs } from 'node:util'
import { DuckDBConnection } from '@duckdb/node-api'
import { createSightline } from '@sightline/core'
import { generateSampleData } from '@sightline/demo'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { performance } from 'node:perf_hooks'

const now = () => performance.now()

const { values: args } = parseArgs({
  options: { events: { type: 'string', default: '20000' }, calls: { type: 'string', default: '200' }, profile: { type: 'string' } },
})
const CALLS = Number(args.calls)
const end = new Date('2025-01-01T00:00:00Z')
const DAY = { date_from: '2024-12-30', date_to: '2024-12-30' }
const QUERIES = [
  { name: 'trend: one day, total', run: (s) => s.query.trend(PROJECT, { events: [{ id: '$pageview' }], interval: 'day', ...DAY }) },
  { name: 'trend: 7 days, dau', run: (s) => s.query.trend(PROJECT, { events: [{ id: '$pageview', math: 'dau' }], date_from: '-7d' }) },
  { name: 'funnel: 3 steps, 7 days', run: (s) => s.query.funnel(PROJECT, { events: [{ id: '$pageview', order: 0 }, { id: 'signup', order: 1 }, { id: 'onboarding_completed', order: 2 }], date_from: '-7d' }) },
  { name: 'retention: 7 days', run: (s) => s.query.retention(PROJECT, { target_entity: { id: '$pageview', type: 'events' }, returning_entity: { id: '$pageview', type: 'events' }, total_intervals: 7, date_to: '2024-12-31' }) },
  { name: 'paths: 7 days', run: (s) => s.query.paths(PROJECT, { date_from: '-7d', include_event_types: ['$pageview'] }) },
]

// The analysis's own SQL: statements that read the events table. Every other statement of the call
// (project, cohort, action reads) counts as the call's fixed cost.
let sqlMs = 0
let statements = 0
const wrap = (name) => {
  const original = DuckDBConnection.prototype[name]
  DuckDBConnection.prototype[name] = async function (...a) {
    const t = now()
    statements++
    try {
      return await original.apply(this, a)
    } finally {
      if (/\bevents\b/i.test(a[0])) sqlMs += now() - t
    }
  }
}
wrap('run')
wrap('stream')

const sightline = await createSightline({ storage: duckdbStorage({ path: ':memory:' }), clock: () => end })
const org = await sightline.organizations.create({ name: 'Bench' })
const { id: PROJECT } = await sightline.projects.create({ organizationId: org.id, name: 'Bench' })
for (const batch of generateSampleData({ seed: 42, targetEvents: Number(args.events), batchSize: 5000, end }).batches) await sightline.capture(PROJECT, batch)
console.error(`loaded ${args.events} events`)

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]
const session = args.profile ? new Session() : null
if (session) {
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.start')
}
const rows = []
for (const q of QUERIES) {
  for (let i = 0; i < 5; i++) await q.run(sightline) // warm-up: caches and JIT
  const totals = []
  const outside = []
  for (let i = 0; i < CALLS; i++) {
    sqlMs = 0
    statements = 0
    const t = now()
    await q.run(sightline)
    const total = now() - t
    totals.push(total)
    outside.push(total - sqlMs)
  }
  const perCall = statements
  rows.push({ analysis: q.name, 'call ms (median)': median(totals).toFixed(2), 'outside SQL ms (median)': median(outside).toFixed(2), 'outside SQL ms (p90)': p90(outside).toFixed(2), 'statements (last call)': perCall })
}
if (session) {
  const { profile } = await session.post('Profiler.stop')
  writeFileSync(args.profile, JSON.stringify(profile))
}
console.table(rows)
await sightline.close()
