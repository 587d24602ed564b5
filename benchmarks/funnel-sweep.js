#!/usr/bin/env node
// Funnel shapes beyond the harness's five, through the engine (sightline.query.funnel, as a library user
// calls it) on kept sample data, on DuckDB and on Postgres, one after the other: each order type with
// steps sharing an event name, steps told apart by a property (page views of one path), a frequent
// exclusion, breakdowns by attribution, trends and time to convert. Prints each shape's time per target
// and whether the targets' answers agree (step counts, mean conversion times, breakdown values).
// It finds the slow shapes (the next 504s) and cross-checks the engines on realistic, heavy-tailed data.
//
//   node benchmarks/funnel-sweep.js --duckdb /work/bench-data/duckdb_1000000.duckdb \
//     --pg-schema bench_kept_postgres_1000000 [--only REGEX] [--timeout-ms 60000]
//
// Kept data from `run.js funnel --keep-data DIR` (project 1, the sample's 90 days). Opens the DuckDB file
// read-write (the engine runs its migrations): give it a kept file or a copy. After `npx tsc -b`.
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { createSightline } from '@sightline/core'
import { median, now, seconds } from './measure.js'

const { values: args } = parseArgs({
  options: {
    duckdb: { type: 'string' },
    'pg-schema': { type: 'string' },
    only: { type: 'string' },
    rounds: { type: 'string', default: '1' },
    'timeout-ms': { type: 'string', default: '60000' },
  },
})
if (!args.duckdb && !args['pg-schema']) throw new Error('--duckdb FILE and/or --pg-schema NAME')

const range = { date_from: '2024-10-03', date_to: '2024-12-31', funnel_window_interval: 14, funnel_window_interval_unit: 'day' }
const RARE = ['signup_started', 'signup', 'onboarding_completed']
/** A page view of one path: steps of one event name told apart by a property, as most web funnels are. */
const pageview = (path) => ({ id: '$pageview', type: 'events', properties: [{ key: '$pathname', value: path, operator: 'exact', type: 'event' }] })
const steps = (...ss) => ({ events: ss.map((s, order) => ({ ...(typeof s === 'string' ? { id: s, type: 'events' } : s), order })) })
const exclude = (id, from, to) => ({ exclusions: [{ id, type: 'events', funnel_from_step: from, funnel_to_step: to }] })

/** Every shape in each order type; unordered funnels refuse partial exclusions and step attribution past step 0 (400s). */
const SHAPES = {
  'rare steps': steps(...RARE),
  '$autocapture middle step': steps(RARE[0], '$autocapture', RARE[2]),
  '$pageview, $pageview, signup': steps('$pageview', '$pageview', 'signup'),
  '$pageview, $autocapture, $pageview': steps('$pageview', '$autocapture', '$pageview'),
  '5 steps, $pageview first and third': steps('$pageview', RARE[0], '$pageview', RARE[1], RARE[2]),
  '/pricing, /signup, signup': steps(pageview('/pricing'), pageview('/signup'), 'signup'),
  '/, /pricing, /signup': steps(pageview('/'), pageview('/pricing'), pageview('/signup')),
  'rare, $autocapture excluded 0-1': { ...steps(...RARE), ...exclude('$autocapture', 0, 1) },
  'rare, $pageview excluded 0-2': { ...steps(...RARE), ...exclude('$pageview', 0, 2) },
  'rare by $browser': { ...steps(...RARE), breakdown: '$browser', breakdown_type: 'event' },
  'rare by $browser, all events': { ...steps(...RARE), breakdown: '$browser', breakdown_type: 'event', breakdown_attribution_type: 'all_events' },
  'rare, trends by week': { ...steps(...RARE), funnel_viz_type: 'trends', interval: 'week' },
  'rare, time to convert': { ...steps(...RARE), funnel_viz_type: 'time_to_convert' },
}
const FUNNELS = {}
for (const order of ['ordered', 'strict', 'unordered']) {
  for (const [name, params] of Object.entries(SHAPES)) {
    if (order === 'unordered' && name.includes('excluded 0-1')) continue
    FUNNELS[`${order}, ${name}`] = { ...range, ...params, funnel_order_type: order }
  }
}

/** What the targets must agree on: counts, mean times (to a millisecond), breakdown values, trend data, bins. */
function answerOf(result) {
  const pick = (x) =>
    Array.isArray(x)
      ? x.map(pick)
      : x && typeof x === 'object'
        ? 'count' in x
          ? [x.count, x.average_conversion_time === null ? null : Math.round(x.average_conversion_time * 1000), x.breakdown_value ?? null]
          : 'data' in x
            ? x.data
            : (x.bins ?? x)
        : x
  return JSON.stringify(pick(result))
}

async function openTarget(target) {
  if (target === 'duckdb') {
    const { duckdbStorage } = await import('@sightline/storage-duckdb')
    return duckdbStorage({ path: args.duckdb })
  }
  const { postgresStorage } = await import('@sightline/storage-postgres')
  return postgresStorage({ connectionString: process.env.SIGHTLINE_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test', schema: args['pg-schema'] })
}

const targets = [...(args.duckdb ? ['duckdb'] : []), ...(args['pg-schema'] ? ['postgres'] : [])]
const names = Object.keys(FUNNELS).filter((name) => !args.only || new RegExp(args.only).test(name))
const results = {}
console.error(`load average at start ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${args.rounds} round(s), medians`)
for (const target of targets) {
  const sightline = await createSightline({
    storage: await openTarget(target),
    clock: () => new Date('2025-01-01T00:00:00Z'),
    queries: { timeoutMs: Number(args['timeout-ms']) },
  })
  try {
    await sightline.projects.update(1, { timezone: 'UTC' })
    // A warm-up, so the first shape does not pay for the opened file's first reads.
    await sightline.query.funnel(1, FUNNELS[names[0]])
    for (const name of names) {
      const times = []
      let answer
      for (let r = 0; r < Number(args.rounds); r++) {
        const start = now()
        try {
          answer = answerOf((await sightline.query.funnel(1, FUNNELS[name])).result)
        } catch (error) {
          answer = `error: ${error.code ?? error.name}`
        }
        times.push(seconds(start) * 1000)
      }
      ;(results[name] ??= {})[target] = { ms: median(times), answer }
    }
  } finally {
    await sightline.close()
  }
}
console.log(`| funnel | ${targets.map((t) => `${t} ms`).join(' | ')} | answers |\n|---|${targets.map(() => '---|').join('')}---|`)
for (const name of names) {
  const row = results[name]
  const answers = new Set(targets.map((t) => row[t].answer))
  const agree = targets.length < 2 ? '-' : answers.size === 1 ? 'agree' : `DIFFER: ${targets.map((t) => `${t} ${row[t].answer.slice(0, 120)}`).join(' / ')}`
  const errors = targets.filter((t) => row[t].answer.startsWith('error')).map((t) => `${t} ${row[t].answer}`)
  console.log(`| ${name} | ${targets.map((t) => row[t].ms.toFixed(0)).join(' | ')} | ${errors.length > 0 ? errors.join(', ') : agree} |`)
}
console.error(`load average at end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
