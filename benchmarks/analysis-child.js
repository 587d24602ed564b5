// The analysis benchmarks' child: loads the sample data into one target through capture once,
// then, round after round, times each suite's floor and queries through `sightline.query`, and
// reports plain data to the parent.
import os from 'node:os'
import { createSightline } from '@sightline/core'
import { createProgressBar, generateSampleData } from '@sightline/demo'
import { END, SEED } from './ingest-children.js'
import { now, round, seconds, startMemorySampler } from './measure.js'
import { SUITES, summariseAnswer } from './suites.js'
import { loadKysely, openStorage } from './targets.js'

const timed = async (fn) => {
  const t = now()
  await fn()
  return seconds(t)
}

/** Captures the sample events into a new project; resolves to its id and the counts. */
async function load(place, task) {
  const end = new Date(END)
  const t = now()
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
  return { projectId: project.id, events, loadSeconds: round(seconds(t), 1) }
}

/** Loads the events, then measures every query of `task.suites`, `rounds` times after a warm-up. */
export async function analysisTargetChild(task) {
  const { place, rounds } = task
  const loadAverage = os.loadavg()[0]
  // Data kept from an earlier run (--keep-data) is not loaded again.
  const { projectId, events, loadSeconds } = task.loaded ?? (await load(place, task))

  const { Kysely, sql } = await loadKysely()
  const opened = await openStorage(place)
  const driver = await opened.storage.open()
  const db = new Kysely({ dialect: driver.dialect })
  // The engine's analyses, under a timeout far above any query here.
  const sightline = await createSightline({ storage: opened.storage, clock: () => new Date(END), queries: { timeoutMs: 3_600_000, maxConcurrentPerProject: 3 } })
  if (place.kind === 'postgres') await sql`analyze`.execute(db)
  const shares = (await sql`select event, count(*) as n from events where project_id = ${projectId} group by event order by n desc`.execute(db)).rows.map((r) => ({
    event: r.event,
    share: Number(r.n) / events,
  }))
  const frequent = shares.filter((s) => !['signup_started', 'signup', 'onboarding_completed'].includes(s.event)).sort((a, b) => Math.abs(a.share - 0.15) - Math.abs(b.share - 0.15))[0]
  const context = { frequent: frequent.event }

  // The project's zone is set before a query, outside its time: a settings write (a commit on
  // DuckDB) is not part of the analysis call, and it used to land in the first query of each zone.
  // Kept data keeps the zone the last run left (a trend suite ends in New York): UTC first.
  await sightline.projects.update(projectId, { timezone: 'UTC' })
  let timezone = 'UTC'
  const setZone = async (q) => {
    const wanted = q.timezone ?? 'UTC'
    if (wanted !== timezone) {
      await sightline.projects.update(projectId, { timezone: wanted })
      timezone = wanted
    }
  }
  const run = (q) => sightline.query[q.analysis](projectId, q.params(context))

  const out = {}
  const sampler = startMemorySampler()
  try {
    for (const name of task.suites) {
      const suite = SUITES[name]
      const measured = { floor: [], queries: Object.fromEntries(suite.queries.map((q) => [q.name, []])) }
      const answers = {}
      // Warm-up: the floor and every query once (caches, DuckDB's first scan of the file).
      const floorRows = Number((await suite.floor.query(sql, projectId).execute(db)).rows[0].n)
      for (const q of suite.queries) {
        await setZone(q)
        answers[q.name] = summariseAnswer(q.analysis, (await run(q)).result)
      }
      for (let r = 0; r < rounds; r++) {
        measured.floor.push(await timed(() => suite.floor.query(sql, projectId).execute(db)))
        for (const q of suite.queries) {
          await setZone(q)
          measured.queries[q.name].push(await timed(() => run(q)))
        }
      }
      out[name] = { floorRows, measured, answers }
    }
  } finally {
    await sightline.close()
    await db.destroy()
    await driver.close()
    await opened.close()
  }
  return {
    projectId,
    events,
    loadSeconds,
    reused: task.loaded !== null && task.loaded !== undefined,
    frequent: { event: frequent.event, share: round(frequent.share, 3) },
    shares: shares.slice(0, 15).map((s) => ({ ...s, share: round(s.share, 4) })),
    suites: out,
    loadAverage,
    // maxRSS covers the load too; the sampled peak is the query rounds'.
    ...sampler.stop(),
  }
}
