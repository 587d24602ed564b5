// The funnel benchmark's child: loads the sample data into one target through capture, then times
// each funnel next to the floor, round after round, and reports plain data to the parent.
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createSightline } from '@sightline/core'
import { createProgressBar, generateSampleData } from '@sightline/demo'
import { END, SEED } from './ingest-children.js'
import { now, round, seconds, startMemorySampler } from './measure.js'
import { loadKysely, openStorage } from './targets.js'

/** The 90 generated days. */
export const RANGE = { date_from: '2024-10-03', date_to: '2024-12-31' }
const FLOOR_FROM = '2024-10-03T00:00:00.000000Z'
const FLOOR_TO = '2024-12-31T23:59:59.999999Z'
const STEPS = ['signup_started', 'signup', 'onboarding_completed']

/** The funnels timed; `frequent` is replaced by the event nearest 15% of all events. */
export const FUNNELS = [
  { name: 'ordered, 3 steps', order: 'ordered', steps: STEPS },
  { name: 'strict, 3 steps', order: 'strict', steps: STEPS },
  { name: 'unordered, 3 steps', order: 'unordered', steps: STEPS },
  { name: 'ordered, frequent middle step', order: 'ordered', steps: [STEPS[0], 'frequent', STEPS[2]] },
]

const paramsOf = (funnel, frequent) => ({
  ...RANGE,
  events: funnel.steps.map((id, order) => ({ id: id === 'frequent' ? frequent : id, order })),
  funnel_order_type: funnel.order,
  funnel_window_interval: 14,
  funnel_window_interval_unit: 'day',
})

/** `runFunnel` from core's dist with an engine context of its own (the facade does not expose analyses yet). */
async function funnelRunner(place) {
  const dist = path.dirname(new URL(import.meta.resolve('@sightline/core')).pathname)
  const { runFunnel } = await import(pathToFileURL(path.join(dist, 'query/funnels/run-funnel.js')).href)
  const { Kysely, sql } = await loadKysely()
  const opened = await openStorage(place)
  const driver = await opened.storage.open()
  const db = new Kysely({ dialect: driver.dialect })
  const ctx = { db, adapter: opened.storage, driver, clock: () => new Date(END), assertOpen() {} }
  return {
    sql,
    db,
    run: (projectId, params) => runFunnel(ctx, projectId, params),
    // The floor of performance.md: every event of the range grouped by distinct id (counted, not shipped).
    floor: (projectId) =>
      sql`select count(*) as n from (select distinct_id, count(*) as c from events where project_id = ${projectId} and timestamp >= cast(${FLOOR_FROM} as timestamptz) and timestamp <= cast(${FLOOR_TO} as timestamptz) group by distinct_id) as g`.execute(db),
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

/** Loads the events through capture, then measures every funnel `rounds` times after a warm-up. */
export async function funnelTargetChild(task) {
  const { place, rounds } = task
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

  const runner = await funnelRunner(place)
  const { sql, db } = runner
  if (place.kind === 'postgres') await sql`analyze`.execute(db)
  const shares = (await sql`select event, count(*) as n from events where project_id = ${project.id} group by event order by n desc`.execute(db)).rows.map((r) => ({
    event: r.event,
    share: Number(r.n) / events,
  }))
  const frequent = shares.filter((s) => !STEPS.includes(s.event)).sort((a, b) => Math.abs(a.share - 0.15) - Math.abs(b.share - 0.15))[0]
  const measured = { floor: [], funnels: Object.fromEntries(FUNNELS.map((f) => [f.name, []])) }
  const results = {}
  let floorRows
  const sampler = startMemorySampler()
  try {
    // Warm-up: the floor and every funnel once (caches, DuckDB's first scan of the file).
    floorRows = Number((await runner.floor(project.id)).rows[0].n)
    for (const f of FUNNELS) results[f.name] = (await runner.run(project.id, paramsOf(f, frequent.event))).result.map((s) => s.count)
    for (let r = 0; r < rounds; r++) {
      measured.floor.push((await timed(() => runner.floor(project.id))).seconds)
      for (const f of FUNNELS) measured.funnels[f.name].push((await timed(() => runner.run(project.id, paramsOf(f, frequent.event)))).seconds)
    }
  } finally {
    await runner.close()
  }
  const memory = sampler.stop()
  return {
    events,
    loadSeconds: round(loadSeconds, 1),
    floorRows,
    frequent: { event: frequent.event, share: round(frequent.share, 3) },
    shares: shares.slice(0, 15).map((s) => ({ ...s, share: round(s.share, 4) })),
    measured,
    results,
    loadAverage,
    // maxRSS covers the load too; the sampled peak is the query rounds'.
    ...memory,
  }
}
