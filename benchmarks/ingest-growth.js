// Does capture slow down as the tables grow? The same batches of sample events captured into two
// DuckDB files that both hold the persons those batches touch (distinct ids `user-N`, as the sample
// data names identified users): one holds nothing else, the other also millions of events and a
// hundred thousand other persons. Without the half hour a real load of that size takes: the stored
// data is made in SQL (events of `$pageview` with capture-shaped properties, persons with a dozen
// properties, distinct ids for 1.3 per person).
//
//   node benchmarks/ingest-growth.js [--stored 10000000] [--persons 170000] [--batches 20] [--rounds 2]
//                                    [--root DIR] [--root DIR]...
//
// Each --root is a checkout whose built packages are measured (default: this one), so two builds run
// side by side on the same files, rounds interleaved. Prints ms per 5,000-event batch (median of the
// batches) and the large/small ratio: 1.0 means the stored data costs capture nothing.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const here = path.resolve(fileURLToPath(new URL('..', import.meta.url)))
const { values } = parseArgs({
  options: {
    stored: { type: 'string', default: '10000000' },
    persons: { type: 'string', default: '170000' },
    batches: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '2' },
    root: { type: 'string', multiple: true },
  },
})
const stored = Number(values.stored)
const persons = Number(values.persons)
const batchCount = Number(values.batches)
const rounds = Number(values.rounds)
const roots = values.root?.length ? values.root.map((r) => path.resolve(r)) : [here]
const END = new Date('2025-01-01T00:00:00.000Z')

const load = async (root) => ({
  core: await import(path.join(root, 'packages/core/dist/index.js')),
  duckdb: await import(path.join(root, 'packages/storage-duckdb/dist/index.js')),
})
const { generateSampleData } = await import(path.join(here, 'packages/demo/dist/index.js'))
const { DuckDBInstance } = await import('@duckdb/node-api')

/** The batches of a 100,000-event load (1,667 persons), cut to `batchCount`. */
const data = generateSampleData({ seed: 42, targetEvents: 100_000, batchSize: 5000, end: END })
const batches = [...takeBatches(data.batches, batchCount)]
const batchPersons = data.persons

const dir = mkdtempSync(path.join(os.tmpdir(), 'sightline-growth-'))
try {
  // Two template files, made once with the first build's schema (no migration differs between the builds compared).
  const empty = path.join(dir, 'empty.duckdb')
  const full = path.join(dir, 'full.duckdb')
  const first = await load(roots[0])
  for (const file of [empty, full]) {
    const s = await first.core.createSightline({ storage: first.duckdb.duckdbStorage({ path: file }), clock: () => END })
    const org = await s.organizations.create({ name: 'Growth' })
    await s.projects.create({ organizationId: org.id, name: 'Growth' })
    await s.close()
  }
  let t = performance.now()
  await fill(empty, batchPersons, 0, 0)
  await fill(full, batchPersons, stored, persons)
  console.error(`stored data made in ${((performance.now() - t) / 1000).toFixed(1)} s`)

  const results = roots.map((root) => ({ root, empty: [], full: [] }))
  for (let r = 0; r < rounds; r++) {
    for (const result of r % 2 ? [...results].reverse() : results) {
      const modules = await load(result.root)
      for (const [name, template] of r % 2 ? [['full', full], ['empty', empty]] : [['empty', empty], ['full', full]]) {
        const file = path.join(dir, 'run.duckdb')
        copyFileSync(template, file)
        const s = await modules.core.createSightline({ storage: modules.duckdb.duckdbStorage({ path: file }), clock: () => END })
        const [project] = await s.projects.list({ limit: 1 }).then((p) => p.results ?? p)
        for (const batch of batches) {
          t = performance.now()
          await s.capture(project.id, structuredClone(batch))
          result[name].push(performance.now() - t)
        }
        await s.close()
        rmSync(file, { force: true })
        rmSync(`${file}.wal`, { force: true })
      }
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  console.log(`capture of ${batchCount} batches of 5,000 sample events (seed 42), ${rounds} rounds, medians; load average ${os.loadavg()[0].toFixed(1)}`)
  console.log(`small file: the ${batchPersons.toLocaleString('en')} persons the batches touch; large file: those, ${persons.toLocaleString('en')} other persons and ${stored.toLocaleString('en')} events`)
  for (const r of results) {
    const [e, f] = [median(r.empty), median(r.full)]
    console.log(`${path.basename(r.root).padEnd(16)} small ${e.toFixed(0).padStart(5)} ms/batch   large ${f.toFixed(0).padStart(5)} ms/batch   large/small ${(f / e).toFixed(2)}x`)
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}

function* takeBatches(iterable, n) {
  let i = 0
  for (const batch of iterable) {
    if (i++ >= n) return
    yield batch
  }
}

/**
 * Project 1's persons `user-0` .. `user-<touched - 1>` (those the batches find), then `others`
 * more persons with other distinct ids and `events` events; checkpointed.
 */
async function fill(file, touched, events, others) {
  const instance = await DuckDBInstance.create(file)
  const c = await instance.connect()
  const persons = (name, from, count) => `insert into persons (uuid, project_id, properties, is_identified, created_at, version)
      select uuid(), 1, json_object('email', '${name}' || i || '@example.com', 'name', 'Person ' || i, 'plan', 'pro',
        '$initial_referrer', 'https://google.com/?q=' || i, '$initial_utm_source', 'newsletter', 'utm_source', 'newsletter',
        '$initial_current_url', 'https://example.com/landing/' || i, '$current_url', 'https://example.com/pricing/' || i,
        'company', 'Company ' || (i % 997), '$initial_os', 'Mac OS X', '$os', 'Mac OS X', 'signed_up', true),
        true, timestamp '2024-09-01', ${from} + i
      from range(${count}) t(i)`
  try {
    // `version` holds the person's number here, to give each its distinct id; reset after.
    await c.run(persons('user', 0, touched))
    await c.run(`insert into person_distinct_ids select 1, 'user-' || version, uuid, 0 from persons`)
    if (others > 0) {
      await c.run(persons('other', touched, others))
      await c.run(`insert into person_distinct_ids select 1, 'other-' || version, uuid, 0 from persons where version >= ${touched}`)
      await c.run(`insert into person_distinct_ids select 1, 'anon-' || cast(uuid() as varchar), person_uuid, 0 from person_distinct_ids where distinct_id like 'other-%' using sample ${Math.round(others * 0.3)} rows`)
    }
    await c.run('update persons set version = 0')
    const columns = 'uuid, project_id, event, distinct_id, timestamp, properties, group_0, group_1, group_2, group_3, group_4, session_id, inserted_at, elements_chain, person_id'
    if (events > 0) {
      await c.run(`insert into events (${columns}, mp_current_url, mp_browser, mp_os, mp_pathname)
        select uuidv7(), 1, '$pageview', 'other-' || (i % ${Math.max(1, others)}), timestamp '2024-06-01' + to_microseconds(i * 700000),
          '{"$browser":"Chrome","$current_url":"https://example.com/x/' || (i % 5000) || '","$pathname":"/x/' || (i % 5000) || '","$os":"Mac OS X","$session_id":"s' || (i // 30) || '","load_time_ms":' || (i % 997) || ',"$lib":"web","$lib_version":"1.2.3","$referrer":"https://google.com/"}',
          '', '', '', '', '', 's' || (i // 30), timestamp '2024-12-31', '', null,
          'https://example.com/x/' || (i % 5000), 'Chrome', 'Mac OS X', '/x/' || (i % 5000)
        from range(${events}) t(i)`)
    }
    await c.run('checkpoint')
  } finally {
    c.disconnectSync()
    instance.closeSync()
  }
}
