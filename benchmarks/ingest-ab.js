// Capture of two builds side by side in one process, batch by batch: each batch of sample events is
// captured by build A then build B (B then A on the next batch), each into its own database, so the
// machine's load, which moved this machine's figures by 2x within minutes, hits both alike.
//
//   node benchmarks/ingest-ab.js --root /work/ab/ingest-old --root . [--events 1000000] [--target duckdb|postgres]
//                                [--client-uuids]
//
// Prints each build's capture rate, its rate per tenth of the load (does it slow as the tables grow?)
// and the ratio of their capture times. Postgres: SIGHTLINE_PG_URL, a schema per build, dropped after.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { randomUUID } from 'node:crypto'

const { values } = parseArgs({
  options: {
    root: { type: 'string', multiple: true },
    events: { type: 'string', default: '1000000' },
    target: { type: 'string', default: 'duckdb' },
    'client-uuids': { type: 'boolean', default: false },
  },
})
if (values.root?.length !== 2) throw new Error('give two --root checkouts (built): the first is A, the second B')
const roots = values.root.map((r) => path.resolve(r))
const events = Number(values.events)
const pgUrl = process.env.SIGHTLINE_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const END = new Date('2025-01-01T00:00:00.000Z')
const { generateSampleData } = await import(path.join(roots[1], 'packages/demo/dist/index.js'))

const dir = mkdtempSync(path.join(os.tmpdir(), 'sightline-ab-'))
const sides = []
try {
  for (const [i, root] of roots.entries()) {
    const core = await import(path.join(root, 'packages/core/dist/index.js'))
    const schema = `bench_ab_${process.pid}_${i}`
    const storage =
      values.target === 'duckdb'
        ? (await import(path.join(root, 'packages/storage-duckdb/dist/index.js'))).duckdbStorage({ path: path.join(dir, `${i}.duckdb`) })
        : (await import(path.join(root, 'packages/storage-postgres/dist/index.js'))).postgresStorage({ connectionString: pgUrl, schema })
    const sightline = await core.createSightline({ storage, clock: () => END })
    const org = await sightline.organizations.create({ name: 'AB' })
    const project = await sightline.projects.create({ organizationId: org.id, name: 'AB' })
    sides.push({ name: path.basename(root), sightline, projectId: project.id, schema, ms: [], stored: 0 })
  }
  const load = [os.loadavg()[0]]
  let n = 0
  for (const batch of generateSampleData({ seed: 42, targetEvents: events, batchSize: 5000, end: END }).batches) {
    // posthog-js sends a UUIDv7 with every event; both builds get the same ones.
    if (values['client-uuids']) for (const e of batch) e.uuid = uuidv7(Date.parse(e.timestamp))
    for (const side of n++ % 2 ? [...sides].reverse() : sides) {
      const copy = structuredClone(batch)
      const t = performance.now()
      side.stored += (await side.sightline.capture(side.projectId, copy)).stored
      side.ms.push(performance.now() - t)
    }
  }
  load.push(os.loadavg()[0])
  const byTenth = (ms) =>
    Array.from({ length: 10 }, (_, j) => {
      const part = ms.slice(Math.floor((j * ms.length) / 10), Math.floor(((j + 1) * ms.length) / 10))
      return Math.round((5000 * part.length * 1000) / part.reduce((a, b) => a + b, 0)).toLocaleString('en')
    }).join(' ')
  const total = (side) => side.ms.reduce((a, b) => a + b, 0)
  console.log(`${values.target}, ${events.toLocaleString('en')} sample events (seed 42) in batches of 5,000${values['client-uuids'] ? ', client uuids' : ''}, alternating; load average ${load.map((l) => l.toFixed(1)).join(' -> ')}`)
  for (const side of sides) {
    console.log(`${side.name.padEnd(16)} stored ${side.stored.toLocaleString('en')}  capture ${(total(side) / 1000).toFixed(1)} s  ${Math.round((side.stored * 1000) / total(side)).toLocaleString('en')} events/s`)
    console.log(`${''.padEnd(16)} events/s by tenth of the load: ${byTenth(side.ms)}`)
  }
  console.log(`B / A capture time: ${(total(sides[1]) / total(sides[0])).toFixed(3)}`)
} finally {
  for (const side of sides) await side.sightline.close()
  rmSync(dir, { recursive: true, force: true })
  if (values.target === 'postgres') {
    const { default: pg } = await import('pg')
    const client = new pg.Client({ connectionString: pgUrl })
    await client.connect()
    for (const side of sides) await client.query(`drop schema if exists "${side.schema}" cascade`)
    await client.end()
  }
}

/** A UUIDv7 of `ms`, as core and posthog-js make them. */
function uuidv7(ms) {
  const hex = ms.toString(16).padStart(12, '0')
  const r = randomUUID()
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${r.slice(15, 18)}-${r.slice(19, 23)}-${r.slice(24)}`
}
