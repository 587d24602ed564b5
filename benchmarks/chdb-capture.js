// Capture on the ClickHouse storage through chDB (issue 16), and where its time goes.
//   node benchmarks/chdb-capture.js [--events 200000] [--batch 5000] [--root DIR]
// Captures the sample data (seed 42) through `sightline.capture` into a new chDB data directory with its
// DuckDB companion file, and reports events/s and the time spent in chDB's inserts (events, person rows)
// and other ClickHouse statements (`Session.prototype` methods patched: from the call until it resolves);
// the rest is the companion's persons and definitions and capture's JavaScript. `--root` names the
// checkout whose built packages run (default: this one), so two builds can be run one after the other.
// Imports the built packages: run `npx tsc -b` first. Not imported by the harness.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { performance } from 'node:perf_hooks'
import { Session } from 'chdb'
import { generateSampleData } from '@sightline/demo'

const { values: args } = parseArgs({
  options: { events: { type: 'string', default: '200000' }, batch: { type: 'string', default: '5000' }, root: { type: 'string', default: fileURLToPath(new URL('..', import.meta.url)) } },
})
const build = (pkg) => import(pathToFileURL(path.join(path.resolve(args.root), 'packages', pkg, 'dist', 'index.js')).href)
const { createSightline } = await build('core')
const { clickhouseStorage } = await build('storage-clickhouse')
const { duckdbStorage } = await build('storage-duckdb')

const spent = new Map()
for (const name of ['insert', 'queryBindAsync', 'queryAsync']) {
  const original = Session.prototype[name]
  Session.prototype[name] = async function (...call) {
    const t = performance.now()
    try {
      return await original.apply(this, call)
    } finally {
      const key = name === 'insert' ? `insert into ${call[0].table}` : 'other statements'
      const [ms, n] = spent.get(key) ?? [0, 0]
      spent.set(key, [ms + performance.now() - t, n + 1])
    }
  }
}

const dir = mkdtempSync(path.join(tmpdir(), 'sightline-chdb-capture-'))
try {
  const end = new Date('2025-01-01T00:00:00Z')
  const storage = clickhouseStorage({ path: path.join(dir, 'chdb'), companion: duckdbStorage({ path: path.join(dir, 'companion.duckdb') }) })
  const sightline = await createSightline({ storage, clock: () => end })
  const org = await sightline.organizations.create({ name: 'Bench' })
  const project = await sightline.projects.create({ organizationId: org.id, name: 'Bench' })
  const batches = [...generateSampleData({ seed: 42, targetEvents: Number(args.events), batchSize: Number(args.batch), end }).batches]
  spent.clear()
  const t = performance.now()
  let events = 0
  for (const batch of batches) {
    await sightline.capture(project.id, batch)
    events += batch.length
  }
  const ms = performance.now() - t
  await sightline.close()
  console.log(`${events.toLocaleString('en')} events in ${(ms / 1000).toFixed(2)} s: ${Math.round((events / ms) * 1000).toLocaleString('en')} events/s (build: ${path.resolve(args.root)})`)
  for (const [key, [spentMs, n]] of [...spent].sort((a, b) => b[1][0] - a[1][0])) {
    console.log(`  ${key}: ${(spentMs / 1000).toFixed(2)} s in ${n} calls (${((spentMs / ms) * 100).toFixed(0)}% of capture)`)
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
