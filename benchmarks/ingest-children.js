// Children of the ingestion benchmark: one measurement each, reported to the parent as plain data.
import { randomUUID } from 'node:crypto'
import os from 'node:os'
import { createSightline } from '@sightline/core'
import { createProgressBar, generateSampleData } from '@sightline/demo'
import { now, round, rssMb, seconds, startMemorySampler } from './measure.js'
import { loadKysely, openStorage } from './targets.js'

/** A fixed window end, so the same seed gives the same events on any day. */
export const END = '2025-01-01T00:00:00.000Z'
export const SEED = 42

const sampleData = (task) => generateSampleData({ seed: SEED, targetEvents: task.events, batchSize: task.batch, end: new Date(END) })

/** The cost of making the events, with no storage at all. */
export async function generateOnlyChild(task) {
  const sampler = startMemorySampler()
  const rssStartMb = rssMb()
  const loadAverage = os.loadavg()[0]
  const data = sampleData(task)
  let events = 0
  let batches = 0
  const start = now()
  for (const batch of data.batches) {
    events += batch.length
    batches++
  }
  const elapsed = seconds(start)
  return { events, batches, persons: data.persons, seconds: round(elapsed, 3), eventsPerSecond: Math.round(events / elapsed), rssStartMb, loadAverage, ...sampler.stop() }
}

/**
 * The storage's own bulk insert (its `insertEvents`, one transaction per batch) of the same
 * events as rows shaped the way capture shapes them, with no persons, groups or definitions:
 * what capture could cost if core added nothing. Only the transactions are timed.
 */
export async function floorChild(task) {
  const { place } = task
  const sampler = startMemorySampler()
  const loadAverage = os.loadavg()[0]
  const end = new Date(END)
  // Core creates the tables and indexes, exactly as for capture; then the driver is used alone.
  const opened = await openStorage(place)
  const sightline = await createSightline({ storage: opened.storage, clock: () => end })
  const project = await sightline.projects.create({ organizationId: (await sightline.organizations.create({ name: 'Bench' })).id, name: 'Bench' })
  await sightline.close()
  await opened.close()

  const { Kysely } = await loadKysely()
  const reopened = await openStorage(place)
  const driver = await reopened.storage.open()
  const db = new Kysely({ dialect: driver.dialect })
  const insertedAt = toMicrosText(end.toISOString())
  let events = 0
  let stored = 0
  let insertNs = 0n
  const bar = createProgressBar({ total: task.events, label: `${place.target} floor${task.label}` })
  try {
    for (const batch of sampleData(task).batches) {
      const rows = batch.map((e) => eventRow(e, project.id, insertedAt))
      const t = now()
      stored += await db.transaction().execute((trx) => driver.insertEvents(trx, rows))
      insertNs += now() - t
      events += batch.length
      bar.update(events)
    }
  } finally {
    bar.finish()
    await db.destroy()
    await driver.close()
    await reopened.close()
  }
  const elapsed = Number(insertNs) / 1e9
  return { events, captured: { stored }, seconds: round(elapsed, 3), eventsPerSecond: Math.round(events / elapsed), loadAverage, ...sampler.stop() }
}

/**
 * Opens Sightline on the target, captures every batch, closes. The loop's time is split into
 * the generator's `next()` and the rest (capture), so the storage's rate is measured in the
 * same run as the end-to-end one. With `concurrency` > 1, that many captures are in flight.
 */
export async function ingestTargetChild(task) {
  const { place, concurrency = 1 } = task
  const trace = task.trace ? {} : undefined
  const sampler = startMemorySampler()
  const rssStartMb = rssMb()
  const loadAverage = os.loadavg()[0]
  const end = new Date(END)
  const data = sampleData(task)

  let t = now()
  const opened = await openStorage(place, { trace })
  const sightline = await createSightline({ storage: opened.storage, clock: () => end })
  const org = await sightline.organizations.create({ name: 'Bench' })
  const project = await sightline.projects.create({ organizationId: org.id, name: 'Bench' })
  const openSeconds = seconds(t)
  const rssOpenMb = rssMb()

  const bar = createProgressBar({ total: data.estimatedEvents, label: `${place.target}${task.label}` })
  const batchMs = []
  const batchEvents = []
  let generateNs = 0n
  let events = 0
  let stored = 0
  let duplicates = 0
  let warnings = 0
  const inFlight = new Set()
  const submit = (batch) => {
    // posthog-js sends a UUIDv7 with every event: capture then looks each batch's up among the stored events.
    if (task.clientUuids) for (const e of batch) e.uuid = uuidv7(Date.parse(e.timestamp))
    const start = now()
    const done = sightline.capture(project.id, batch).then((result) => {
      batchMs.push(Number(now() - start) / 1e6)
      batchEvents.push(batch.length)
      events += batch.length
      stored += result.stored
      duplicates += result.duplicates
      warnings += result.warnings.length
      bar.update(events)
      inFlight.delete(done)
    })
    inFlight.add(done)
  }
  const iterator = data.batches[Symbol.iterator]()
  const loopStart = now()
  for (;;) {
    t = now()
    const next = iterator.next()
    generateNs += now() - t
    if (next.done) break
    submit(next.value)
    if (inFlight.size >= concurrency) await Promise.race(inFlight)
  }
  await Promise.all(inFlight)
  const loopSeconds = seconds(loopStart)
  bar.finish()

  t = now()
  await sightline.close()
  await opened.close()
  const closeSeconds = seconds(t)
  const memory = sampler.stop()

  const generateSeconds = Number(generateNs) / 1e9
  const captureSeconds = loopSeconds - generateSeconds
  return {
    events,
    batches: batchMs.length,
    persons: data.persons,
    captured: { stored, duplicates, warnings },
    seconds: round(loopSeconds, 3),
    eventsPerSecond: Math.round(events / loopSeconds),
    captureSeconds: round(captureSeconds, 3),
    captureEventsPerSecond: Math.round(events / captureSeconds),
    generateSeconds: round(generateSeconds, 3),
    openSeconds: round(openSeconds, 3),
    closeSeconds: round(closeSeconds, 3),
    batchMs: percentiles(batchMs),
    // Capture rate per tenth of the run (batch latencies): shows whether writing slows as the tables grow.
    captureEventsPerSecondByTenth: byTenth(batchMs, batchEvents),
    loadAverage,
    rssStartMb,
    rssOpenMb,
    ...memory,
    trace: trace && summariseTrace(trace, captureSeconds),
  }
}

/** The row capture writes for a sample event (uuid, times with microseconds, JSON text, group keys). */
function eventRow(e, projectId, insertedAt) {
  const p = e.properties
  return {
    uuid: uuidv7(Date.parse(e.timestamp)),
    project_id: projectId,
    event: e.event,
    distinct_id: e.distinctId,
    timestamp: toMicrosText(e.timestamp),
    properties: JSON.stringify(p),
    // The generator's only group type, company, gets index 0 from capture.
    group_0: p.$groups?.company ?? '',
    group_1: '',
    group_2: '',
    group_3: '',
    group_4: '',
    session_id: typeof p.$session_id === 'string' ? p.$session_id : null,
    inserted_at: insertedAt,
    // Capture stores '' when an event has no $elements_chain (the generator's never do).
    elements_chain: '',
    // Capture stores the distinct id's person; the floor has no persons, so it writes what a personless event gets.
    person_id: null,
  }
}

/** `2025-01-01T10:00:00.123Z` -> `2025-01-01T10:00:00.123000Z`, the form core emits. */
const toMicrosText = (iso) => `${iso.slice(0, 23)}000Z`

/** A UUIDv7 as core makes them (time-ordered, which matters to the Postgres uuid index). */
function uuidv7(ms) {
  const hex = ms.toString(16).padStart(12, '0')
  const r = randomUUID()
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${r.slice(15, 18)}-${r.slice(19, 23)}-${r.slice(24)}`
}

function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (q) => round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0, 1)
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) }
}

function byTenth(batchMs, batchEvents) {
  const out = []
  for (let i = 0; i < 10; i++) {
    const from = Math.floor((i * batchMs.length) / 10)
    const to = Math.floor(((i + 1) * batchMs.length) / 10)
    let ms = 0
    let events = 0
    for (let b = from; b < to; b++) {
      ms += batchMs[b]
      events += batchEvents[b]
    }
    out.push(ms > 0 ? Math.round((events * 1000) / ms) : null)
  }
  return out
}

function summariseTrace(trace, captureSeconds) {
  return Object.entries(trace)
    .map(([kind, { count, ms }]) => ({ kind, count, seconds: round(ms / 1000, 3), shareOfCapture: round(ms / 1000 / captureSeconds, 3) }))
    .sort((a, b) => b.seconds - a.seconds)
}
