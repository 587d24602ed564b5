#!/usr/bin/env node
/**
 * scale-copy.js for Postgres: makes a larger kept benchmark schema from a kept one
 * (`run.js analyses --keep-data DIR` leaves `bench_kept_postgres_<events>` and the marker
 * `DIR/postgres_<events>.json`) by copying its data `--times` over in SQL, with the same
 * rewrites: copy k gets fresh event uuids, `distinct_id || '~k'`, person uuids
 * `md5(uuid || '~k')` and person ids shifted past the largest, so every count is `times`
 * the source's. The new schema is named for the harness (`bench_kept_postgres_<events>`),
 * its marker written beside the source's, and the tables analyzed.
 *
 *   node benchmarks/scale-copy-postgres.js /work/bench-data/postgres_1000000.json --times 10
 */
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import pg from 'pg'

const [marker, ...rest] = process.argv.slice(2)
const times = Number(rest[rest.indexOf('--times') + 1] ?? 10)
const match = marker && /postgres_(\d+)\.json$/.exec(marker)
if (!match || !Number.isInteger(times) || times < 2) {
  console.error('usage: scale-copy-postgres.js DIR/postgres_<events>.json --times N (N >= 2)')
  process.exit(2)
}
const source = JSON.parse(readFileSync(marker, 'utf8'))
const from = `bench_kept_postgres_${match[1]}`
const events = Number(match[1]) * times
const to = `bench_kept_postgres_${events}`
const client = new pg.Client({ connectionString: process.env.SIGHTLINE_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' })
await client.connect()

/** Each table's columns, with the ones a copy changes replaced by their expressions of `k` (as scale-copy.js). */
const rewrites = {
  events: { uuid: () => 'gen_random_uuid()', distinct_id: (k) => `distinct_id || '~${k}'`, person_id: (k) => `md5(cast(person_id as text) || '~${k}')::uuid` },
  persons: { id: (k) => `id + ${k} * (select max(id) from ${from}.persons)`, uuid: (k) => `md5(cast(uuid as text) || '~${k}')::uuid` },
  person_distinct_ids: { distinct_id: (k) => `distinct_id || '~${k}'`, person_uuid: (k) => `md5(cast(person_uuid as text) || '~${k}')::uuid` },
  person_distinct_id_overrides: { distinct_id: (k) => `distinct_id || '~${k}'`, person_id: (k) => `md5(cast(person_id as text) || '~${k}')::uuid` },
  personless_distinct_ids: { distinct_id: (k) => `distinct_id || '~${k}'` },
}
const started = Date.now()
try {
  const tables = (await client.query('select table_name from information_schema.tables where table_schema = $1 and table_type = $2 order by 1', [from, 'BASE TABLE'])).rows.map(
    (r) => r.table_name,
  )
  if (tables.length === 0) throw new Error(`no schema ${from}`)
  await client.query(`create schema ${to}`)
  for (const table of tables) {
    // Indexes and constraints come along (the defaults still name the source's sequences: nothing here inserts).
    await client.query(`create table ${to}."${table}" (like ${from}."${table}" including all)`)
    await client.query(`insert into ${to}."${table}" select * from ${from}."${table}"`)
    const changes = rewrites[table]
    if (!changes) continue
    const cols = (await client.query('select column_name from information_schema.columns where table_schema = $1 and table_name = $2 order by ordinal_position', [from, table])).rows.map(
      (r) => r.column_name,
    )
    for (let k = 1; k < times; k++) {
      const select = cols.map((col) => (changes[col] ? `${changes[col](k)} as "${col}"` : `"${col}"`)).join(', ')
      await client.query(`insert into ${to}."${table}" select ${select} from ${from}."${table}"`)
    }
    console.error(`${table}: ${(await client.query(`select count(*) as n from ${to}."${table}"`)).rows[0].n} rows`)
  }
  await client.query(`analyze`)
  const n = Number((await client.query(`select count(*) as n from ${to}.events`)).rows[0].n)
  writeFileSync(path.join(path.dirname(marker), `postgres_${events}.json`), `${JSON.stringify({ projectId: source.projectId, events: n, loadSeconds: 0, copiedFrom: `${from} x${times} by benchmarks/scale-copy-postgres.js` })}\n`)
  console.error(`${to}: ${n} events in ${((Date.now() - started) / 1000).toFixed(1)} s`)
} finally {
  await client.end()
}
