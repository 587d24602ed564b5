#!/usr/bin/env node
// Issue 15's same-run comparison: the engine's ordered funnels (through sightline.query.funnel, as a
// library user calls them) against the hand-written shape in benchmarks/shapes/ and the funnel floor,
// interleaved on one DuckDB file, medians; the step counts of each are printed to compare.
//
//   node benchmarks/funnel-shapes.js /work/bench-data/duckdb_10000000.duckdb [--rounds 5]
//
// Opens the file read-write (the engine runs its migrations): give it a kept file or a copy. After `npx tsc -b`.
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { DuckDBInstance, INTEGER, VARCHAR } from '@duckdb/node-api'
import { createSightline } from '@sightline/core'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { median, now, seconds } from './measure.js'

const { values: args, positionals } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, project: { type: 'string', default: '1' } }, allowPositionals: true })
if (!positionals[0]) throw new Error('usage: funnel-shapes.js FILE.duckdb [--rounds N]')
const projectId = Number(args.project)
const instance = await DuckDBInstance.create(positionals[0])
const connection = await instance.connect()
const sightline = await createSightline({ storage: duckdbStorage({ instance }), clock: () => new Date('2025-01-01T00:00:00Z'), queries: { timeoutMs: 3_600_000 } })
await sightline.projects.update(projectId, { timezone: 'UTC' })

const range = { date_from: '2024-10-03', date_to: '2024-12-31', funnel_window_interval: 14, funnel_window_interval_unit: 'day' }
const funnel = (...ids) => async () => (await sightline.query.funnel(projectId, { ...range, events: ids.map((id, order) => ({ id, order, type: 'events' })) })).result.map((s) => s.count)
const stepLists = readFileSync(new URL('./shapes/ordered-step-lists.sql', import.meta.url), 'utf8')
/** The hand-written step-lists shape for the steps `ids` (bound parameters, as the engine binds them). */
const shape = (...ids) => async () =>
  Object.values((await connection.runAndReadAll(stepLists, [...ids, projectId], [VARCHAR, VARCHAR, VARCHAR, INTEGER])).getRowObjectsJS()[0]).map(Number)
const floor = async () => [Number((await connection.runAndReadAll(`select count(*) from (select distinct_id, count(*) from events where project_id = ${projectId} and timestamp >= '2024-10-03T00:00:00Z'::timestamptz and timestamp <= '2024-12-31T23:59:59.999999Z'::timestamptz group by 1)`)).getRows()[0][0])]
const cases = {
  floor,
  'engine, ordered, 3 rare steps': funnel('signup_started', 'signup', 'onboarding_completed'),
  'step lists, 3 rare steps': shape('signup_started', 'signup', 'onboarding_completed'),
  'engine, ordered, $autocapture middle step': funnel('signup_started', '$autocapture', 'onboarding_completed'),
  'step lists, $autocapture middle step': shape('signup_started', '$autocapture', 'onboarding_completed'),
}
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]))
const answers = {}
for (const [name, run] of Object.entries(cases)) answers[name] = await run()
console.error(`load average at start ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${args.rounds} rounds after a warm-up, interleaved`)
for (let r = 0; r < Number(args.rounds); r++) {
  for (const [name, run] of Object.entries(cases)) {
    const t = now()
    await run()
    times[name].push(seconds(t) * 1000)
  }
}
const base = median(times.floor)
console.log('| query | ms | x floor | step counts |\n|---|---|---|---|')
for (const name of Object.keys(cases)) console.log(`| ${name} | ${median(times[name]).toFixed(1)} | ${(median(times[name]) / base).toFixed(2)}x | ${JSON.stringify(answers[name])} |`)
console.error(`load average at end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
await sightline.close()
connection.closeSync()
instance.closeSync()
