// Summarises a V8 .cpuprofile (node --cpu-prof): the time of each stage of ingestion, and self
// time per package and per function. Usage: node benchmarks/profile.js FILE.cpuprofile
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { fmt2, round } from './measure.js'

/**
 * Stages of ingestion, as code of the built packages: [label, function name or null for any
 * function of the file, file]. Each sample goes to the innermost stage on its stack, so the
 * stages partition the profile; a sample in no stage goes to the package of its leaf frame.
 * Async functions appear only while their own code runs (after an await V8 resumes them with
 * no caller), so a stage is CPU time on the main thread, never a wait for the database.
 */
const STAGES = [
  ['generator (demo sample data)', null, 'demo/dist/'],
  ['capture: decodeOrThrow (Effect Schema)', 'decodeOrThrow', 'core/dist/util/decode.js'],
  ['capture: prepareEvents (timestamps, uuidv7, JSON check)', 'prepareEvents', 'core/dist/ingest/prepare-events.js'],
  ['capture: dropDuplicates', 'dropDuplicates', 'core/dist/ingest/capture.js'],
  ['capture: processEvent, own code', 'processEvent', 'core/dist/ingest/capture.js'],
  ['capture: personPropertyUpdates', 'personPropertyUpdates', 'core/dist/ingest/person-property-updates.js'],
  ['capture: applyPersonPropertyUpdates', 'applyPersonPropertyUpdates', 'core/dist/ingest/person-property-updates.js'],
  ['capture: DefinitionsCollector.flush', 'flush', 'core/dist/ingest/definitions-collector.js'],
  ['capture: DefinitionsCollector (collecting)', null, 'core/dist/ingest/definitions-collector.js'],
  ['capture: PersonStore.flush', 'flush', 'core/dist/ingest/person-store.js'],
  ['capture: PersonStore (load, get, create, merge)', null, 'core/dist/ingest/person-store.js'],
  ['capture: GroupStore', null, 'core/dist/ingest/group-store.js'],
  ['capture: the rest (event rows, formatTimestamp, loop)', null, 'core/dist/ingest/capture.js'],
  ['duckdb: insertEventRows (one text per column)', null, 'storage-duckdb/dist/duckdb-storage.js'],
  ['postgres: insertEvents (unnest arrays)', null, 'storage-postgres/dist/insert-events.js'],
]
/** Stages that take a sample only when none of STAGES is on its stack. */
const CATCH_ALL = [
  ['core: other (requireProject, mutex, runStorage, services)', null, 'core/dist/'],
  // Last, so that --trace's wrappers around driver calls do not hide the stage that made the call.
  ['benchmark harness', null, '/benchmarks/'],
]

/** `{ totalSeconds, stages, byPackage, top }` of one profile. */
export function summariseProfile(file, { top = 25 } = {}) {
  const profile = JSON.parse(readFileSync(file, 'utf8'))
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)

  // DevTools' convention: a sample lasts until the next one.
  const selfUs = new Map()
  const { samples, timeDeltas } = profile
  for (let i = 0; i < samples.length; i++) {
    const us = timeDeltas[i + 1] ?? 0
    selfUs.set(samples[i], (selfUs.get(samples[i]) ?? 0) + us)
  }
  const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0)

  const functions = new Map()
  const packages = new Map()
  const stages = new Map()
  for (const [id, us] of selfUs) {
    const frame = nodes.get(id).callFrame
    const key = `${frame.functionName || '(anonymous)'} ${frame.url}:${frame.lineNumber + 1}`
    const f = functions.get(key) ?? { name: frame.functionName || '(anonymous)', where: shortUrl(frame.url, frame.lineNumber), us: 0 }
    f.us += us
    functions.set(key, f)
    const pkg = packageOf(frame)
    packages.set(pkg, (packages.get(pkg) ?? 0) + us)

    const stage = stageOf(id, nodes, parent) ?? `other: ${pkg}`
    stages.set(stage, (stages.get(stage) ?? 0) + us)
  }

  const share = (us) => round(us / totalUs, 4)
  return {
    totalSeconds: round(totalUs / 1e6, 2),
    stages: [...stages].map(([name, us]) => ({ name, seconds: round(us / 1e6, 3), share: share(us) })).sort((a, b) => b.seconds - a.seconds),
    byPackage: [...packages].map(([name, us]) => ({ name, seconds: round(us / 1e6, 3), share: share(us) })).sort((a, b) => b.seconds - a.seconds),
    top: [...functions.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((f) => ({ name: f.name, where: f.where, seconds: round(f.us / 1e6, 3), share: share(f.us) })),
  }
}

function stageOf(id, nodes, parent) {
  for (const stages of [STAGES, CATCH_ALL]) {
    for (let n = id; n !== undefined; n = parent.get(n)) {
      const { functionName, url } = nodes.get(n).callFrame
      if (!url) continue
      const stage = stages.find(([, name, where]) => url.includes(where) && (name === null || name === functionName))
      if (stage) return stage[0]
    }
  }
  return undefined
}

function shortUrl(url, line) {
  if (!url) return '(native)'
  const clean = url.replace(/^file:\/\//, '')
  const m = /(?:node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?|packages\/)(.*)$/.exec(clean)
  return `${m ? m[1] : path.basename(clean)}:${line + 1}`
}

function packageOf(frame) {
  const url = frame.url
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(native or builtin)'
  if (url.startsWith('node:')) return 'node internals'
  const m = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url) ?? /packages\/([^/]+)/.exec(url)
  return m ? m[1] : path.basename(url)
}

function print(summary) {
  const row = (name, s, share, extra = '') => `  ${name.padEnd(56)} ${fmt2(s).padStart(8)} s ${(share * 100).toFixed(1).padStart(6)}%  ${extra}`
  console.log(`total sampled: ${fmt2(summary.totalSeconds)} s\n\nstages (innermost on the stack; they add up to the total):`)
  for (const p of summary.stages) console.log(row(p.name, p.seconds, p.share))
  console.log('\nself time by package:')
  for (const p of summary.byPackage.slice(0, 15)) console.log(row(p.name, p.seconds, p.share))
  console.log('\nself time by function:')
  for (const f of summary.top) console.log(row(f.name, f.seconds, f.share, f.where))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = process.argv.slice(2)
  if (files.length === 0) {
    console.error('usage: node benchmarks/profile.js FILE.cpuprofile [...]')
    process.exit(2)
  }
  for (const file of files) {
    console.log(`\n== ${file}`)
    print(summariseProfile(file, { top: 30 }))
  }
}
