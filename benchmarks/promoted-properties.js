// Promoted properties, before and after, side by side on one DuckDB file (issue 14):
//   node benchmarks/promoted-properties.js --data /work/bench-props/duckdb_1000000.duckdb [--rounds 7]
// The file is one `run.js analyses --keep-data` left (project 1, the sample data); it is copied first, so it
// stays as it was. The engine's SQL for each query is recorded (DuckDBConnection.prototype.run patched)
// with nothing promoted, then again once `load_time_ms` (Numeric) and `$geoip_country_code` (String) are
// promoted and backfilled, and the two are run interleaved on one connection, round after round. Then the
// same queries end to end through `sightline.query`, reading the slots or the JSON, against the trend floor.
// Then capture: the same sample batches into two new projects of the file, one with those two properties
// promoted, alternately, to show what filling the slots costs a capture.
// Imports the built packages: run `npx tsc -b` first.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api'
import { createSightline } from '@sightline/core'
import { generateSampleData } from '@sightline/demo'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { now, seconds } from './measure.js'

const { values: args } = parseArgs({
  options: { data: { type: 'string' }, rounds: { type: 'string', default: '7' }, project: { type: 'string', default: '1' }, 'capture-batches': { type: 'string', default: '10' } },
})
if (!args.data) throw new Error('--data FILE: a DuckDB file kept by run.js analyses --keep-data')
const ROUNDS = Number(args.rounds)
const PROJECT = Number(args.project)
const RANGE = { date_from: '2024-10-20', date_to: '2024-11-18' }
const QUERIES = [
  { name: 'daily p90 of load_time_ms', params: { events: [{ id: '$pageview', math: 'p90', math_property: 'load_time_ms' }], ...RANGE } },
  { name: 'daily sum of load_time_ms', params: { events: [{ id: '$pageview', math: 'sum', math_property: 'load_time_ms' }], ...RANGE } },
  { name: 'daily count, load_time_ms > 1000', params: { events: [{ id: '$pageview' }], properties: [{ key: 'load_time_ms', value: 1000, operator: 'gt' }], ...RANGE } },
  { name: 'top-10 $geoip_country_code + Other', params: { events: [{ id: '$pageview' }], breakdown: '$geoip_country_code', breakdown_limit: 10, ...RANGE } },
]

const dir = mkdtempSync(path.join(os.tmpdir(), 'sightline-promoted-'))
const file = path.join(dir, 'data.duckdb')
copyFileSync(args.data, file)

// Every statement the engine sends while `record` is set.
let record = null
const run = DuckDBConnection.prototype.run
DuckDBConnection.prototype.run = function (sql, values, types) {
  if (record && /\bfrom events\b/i.test(sql)) record.push({ sql, values, types })
  return run.call(this, sql, values, types)
}

async function engineSql(sightline) {
  const out = []
  for (const q of QUERIES) {
    record = []
    const answer = await sightline.query.trend(PROJECT, q.params)
    out.push({ statements: record, answer: JSON.stringify(answer.result.map((r) => [r.breakdown_value ?? null, r.data])) })
    record = null
  }
  return out
}

const end = new Date('2025-01-01T00:00:00Z')
let t = now()
const sightline = await createSightline({ storage: duckdbStorage({ path: file }), clock: () => end })
const migrateSeconds = seconds(t)
const before = await engineSql(sightline)
t = now()
await sightline.properties.promote(PROJECT, 'load_time_ms', { type: 'Numeric', background: false })
await sightline.properties.promote(PROJECT, '$geoip_country_code', { type: 'String', background: false })
const promoted = await sightline.properties.backfill(PROJECT)
const backfillSeconds = seconds(t)
const after = await engineSql(sightline)
await sightline.close()
DuckDBConnection.prototype.run = run

const instance = await DuckDBInstance.create(file)
const connection = await instance.connect()
const timeOf = async (statements) => {
  const t0 = now()
  for (const s of statements) await connection.run(s.sql, s.values, s.types)
  return seconds(t0) * 1000
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

console.log(`data: ${args.data}, ${os.cpus().length} cores (${os.cpus()[0]?.model}), load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`)
console.log(`opening (migrations on the copy): ${migrateSeconds.toFixed(1)} s; promoting and backfilling ${promoted.map((p) => `${p.key} (${p.type}, ${p.state})`).join(', ')}: ${backfillSeconds.toFixed(1)} s`)
console.log(`query                                  before ms  after ms  after/before  same answer`)
for (const [i, q] of QUERIES.entries()) {
  const times = { before: [], after: [] }
  await timeOf(before[i].statements)
  await timeOf(after[i].statements)
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate which goes first, so neither always runs on a warmer cache.
    const order = r % 2 === 0 ? ['before', 'after'] : ['after', 'before']
    for (const which of order) times[which].push(await timeOf((which === 'before' ? before : after)[i].statements))
  }
  const [b, a] = [median(times.before), median(times.after)]
  console.log(`${q.name.padEnd(38)} ${b.toFixed(1).padStart(9)} ${a.toFixed(1).padStart(9)} ${(a / b).toFixed(2).padStart(13)}  ${before[i].answer === after[i].answer}`)
}
// End to end: `sightline.query` against the trend suite's floor, with the slots read or not. The slots stay
// filled; only their state flips between `ready` and `backfilling`, which is all a query looks at.
const engine = await createSightline({ storage: duckdbStorage({ instance }), clock: () => end })
const setState = (state) => connection.run(`update property_slots set state = '${state}' where project_id = ${PROJECT}`)
const floor = () => connection.run(`select count(*) from events where project_id = ${PROJECT} and event = '$pageview' and timestamp >= cast('2024-10-20T00:00:00Z' as timestamptz) and timestamp <= cast('2024-11-18T23:59:59.999999Z' as timestamptz)`)
const timed = async (fn) => {
  const t0 = now()
  await fn()
  return seconds(t0) * 1000
}
const endToEnd = { floor: [] }
for (const q of QUERIES) endToEnd[q.name] = { json: [], slot: [] }
for (let r = 0; r <= ROUNDS; r++) {
  const floorMs = await timed(floor)
  if (r > 0) endToEnd.floor.push(floorMs)
  for (const which of r % 2 === 0 ? ['json', 'slot'] : ['slot', 'json']) {
    await setState(which === 'slot' ? 'ready' : 'backfilling')
    for (const q of QUERIES) {
      const ms = await timed(() => engine.query.trend(PROJECT, q.params))
      if (r > 0) endToEnd[q.name][which].push(ms)
    }
  }
}
await setState('ready')
await engine.close()
const floorMs = median(endToEnd.floor)
console.log(`\nend to end (sightline.query), floor ${floorMs.toFixed(1)} ms (count(*) of 30 days of $pageview)`)
console.log(`query                                  JSON ms  x floor   slot ms  x floor`)
for (const q of QUERIES) {
  const [j, sl] = [median(endToEnd[q.name].json), median(endToEnd[q.name].slot)]
  console.log(`${q.name.padEnd(38)} ${j.toFixed(1).padStart(7)} ${(j / floorMs).toFixed(1).padStart(7)}x ${sl.toFixed(1).padStart(8)} ${(sl / floorMs).toFixed(1).padStart(7)}x`)
}

connection.closeSync()
instance.closeSync()

// Capture into a project without promotions and one with two, batch by batch, alternately.
const writer = await createSightline({ storage: duckdbStorage({ path: file }), clock: () => end })
const org = await writer.organizations.create({ name: 'Capture' })
const plain = (await writer.projects.create({ organizationId: org.id, name: 'plain' })).id
const withSlots = (await writer.projects.create({ organizationId: org.id, name: 'promoted' })).id
await writer.properties.promote(withSlots, 'load_time_ms', { type: 'Numeric' })
await writer.properties.promote(withSlots, '$geoip_country_code', { type: 'String' })
const batches = Number(args['capture-batches'])
const data = generateSampleData({ seed: 7, targetEvents: 5000 * batches, batchSize: 5000, end })
const spent = { plain: 0, promoted: 0 }
let captured = 0
for (const [i, batch] of [...data.batches].entries()) {
  const order = i % 2 === 0 ? [['plain', plain], ['promoted', withSlots]] : [['promoted', withSlots], ['plain', plain]]
  for (const [which, id] of order) {
    const t0 = now()
    await writer.capture(id, batch)
    spent[which] += seconds(t0)
  }
  captured += batch.length
}
await writer.close()
console.log(`capture of ${captured} sample events in batches of 5,000: ${Math.round(captured / spent.plain)} events/s without promotions, ${Math.round(captured / spent.promoted)} with 2 (ratio ${(spent.promoted / spent.plain).toFixed(2)})`)
console.log(`load average after: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`)
rmSync(dir, { recursive: true, force: true })
