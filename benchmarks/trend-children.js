// The trend benchmark's child: loads the sample data into one target through capture, then times
// each trend query next to the floor, round after round, and reports plain data to the parent.
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createSightline } from '@sightline/core'
import { createProgressBar, generateSampleData } from '@sightline/demo'
import { END, SEED } from './ingest-children.js'
import { now, round, seconds, startMemorySampler } from './measure.js'
import { loadKysely, openStorage } from './targets.js'

/** 30 days around the America/New_York change of 2024-11-03, inside the 90 generated days. */
export const RANGE = { date_from: '2024-10-20', date_to: '2024-11-18' }
const FLOOR_FROM = '2024-10-20T00:00:00.000000Z'
const FLOOR_TO = '2024-11-18T23:59:59.999999Z'

/** The queries timed, each with the project time zone it runs in. */
export const QUERIES = [
  { name: 'daily total, UTC', timezone: 'UTC', params: { events: [{ id: '$pageview' }], ...RANGE } },
  { name: 'daily total, America/New_York', timezone: 'America/New_York', params: { events: [{ id: '$pageview' }], ...RANGE } },
  { name: 'daily dau, America/New_York', timezone: 'America/New_York', params: { events: [{ id: '$pageview', math: 'dau' }], ...RANGE } },
  { name: 'daily weekly_active, UTC', timezone: 'UTC', params: { events: [{ id: '$pageview', math: 'weekly_active' }], ...RANGE } },
  { name: 'top-10 $pathname + Other, UTC', timezone: 'UTC', params: { events: [{ id: '$pageview' }], breakdown: '$pathname', breakdown_limit: 10, ...RANGE } },
  { name: 'daily p90 of load_time_ms, UTC', timezone: 'UTC', params: { events: [{ id: '$pageview', math: 'p90', math_property: 'load_time_ms' }], ...RANGE } },
]

/**
 * `runTrend` from core's dist with an engine context of its own (the facade
 * does not expose analyses yet), on a fresh connection to the loaded database.
 */
async function trendRunner(place) {
  const dist = path.dirname(new URL(import.meta.resolve('@sightline/core')).pathname)
  const { runTrend } = await import(pathToFileURL(path.join(dist, 'query/trends/run-trend.js')).href)
  const { Kysely, sql } = await loadKysely()
  const opened = await openStorage(place)
  const driver = await opened.storage.open()
  const db = new Kysely({ dialect: driver.dialect })
  const ctx = { db, adapter: opened.storage, driver, clock: () => new Date(END), assertOpen() {} }
  return {
    run: (projectId, params) => runTrend(ctx, projectId, params),
    floor: (projectId) =>
      sql`select count(*) as n from events where project_id = ${projectId} and event = '$pageview' and timestamp >= cast(${FLOOR_FROM} as timestamptz) and timestamp <= cast(${FLOOR_TO} as timestamptz)`.execute(db),
    setTimezone: (projectId, timezone) => sql`update projects set timezone = ${timezone} where id = ${projectId}`.execute(db),
    async close() {
      await db.destroy()
      await driver.close()
      await opened.close()
    },
  }
}

const timed = async (fn) => {
  const t = now()
  const value = await fn()
  return { seconds: seconds(t), value }
}

/** Loads the events through capture, then measures every query `rounds` times after a warm-up. */
export async function trendTargetChild(task) {
  const { place, rounds } = task
  const sampler = startMemorySampler()
  const loadAverage = os.loadavg()[0]
  const end = new Date(END)

  let t = now()
  const opened = await openStorage(place)
  const sightline = await createSightline({ storage: opened.storage, clock: () => end })
  const org = await sightline.organizations.create({ name: 'Bench' })
  const project = await sightline.projects.create({ organizationId: org.id, name: 'Bench' })
  const data = generateSampleData({ seed: SEED, targetEvents: task.events, batchSize: task.batch, end })
  const bar = createProgressBar({ total: data.estimatedEvents, label: `${place.target} load` })
  let events = 0
  for (const batch of data.batches) {
    await sightline.capture(project.id, batch)
    events += batch.length
    bar.update(events)
  }
  bar.finish()
  await sightline.close()
  await opened.close()
  const loadSeconds = seconds(t)

  const runner = await trendRunner(place)
  const measured = { floor: [], queries: Object.fromEntries(QUERIES.map((q) => [q.name, []])) }
  let floorCount
  let results = {}
  try {
    // Warm-up: every query once (caches, DuckDB's first scan of the file).
    floorCount = Number((await runner.floor(project.id)).rows[0].n)
    for (const q of QUERIES) {
      await runner.setTimezone(project.id, q.timezone)
      results[q.name] = summary((await runner.run(project.id, q.params)).result)
    }
    for (let r = 0; r < rounds; r++) {
      measured.floor.push((await timed(() => runner.floor(project.id))).seconds)
      for (const q of QUERIES) {
        await runner.setTimezone(project.id, q.timezone)
        measured.queries[q.name].push((await timed(() => runner.run(project.id, q.params))).seconds)
      }
    }
  } finally {
    await runner.close()
  }
  return { events, loadSeconds: round(loadSeconds, 1), floorCount, measured, results, loadAverage, ...sampler.stop() }
}

/** What a query answered, small enough to compare targets by: series, buckets, total. */
function summary(result) {
  return { series: result.length, buckets: result[0]?.data?.length ?? 0, total: round(result.reduce((a, s) => a + (s.data ?? []).reduce((x, y) => x + y, 0), 0), 3) }
}
