#!/usr/bin/env node
/**
 * Makes a larger DuckDB benchmark file from a kept one by copying its data
 * `--times` over in SQL: copy k gets fresh event uuids, `distinct_id || '~k'`,
 * person uuids `md5(uuid || '~k')` and person ids shifted past the largest,
 * with the persons, distinct ids and overrides copied alike. Every person thus
 * has twins with the same timelines, so every count is `times` the source's.
 * Loading 10M events through capture takes 20 to 30 minutes here; this takes
 * under a minute.
 *
 *   node benchmarks/scale-copy.js /work/bench-data/duckdb_1000000.duckdb /work/bench-data/duckdb_10x.duckdb --times 10
 */
import { copyFileSync, existsSync } from 'node:fs'
import { DuckDBInstance } from '@duckdb/node-api'

const [source, target, ...rest] = process.argv.slice(2)
const times = Number(rest[rest.indexOf('--times') + 1] ?? 10)
if (!source || !target || !Number.isInteger(times) || times < 2) {
  console.error('usage: scale-copy.js SOURCE.duckdb TARGET.duckdb --times N (N >= 2)')
  process.exit(2)
}
if (existsSync(target)) {
  console.error(`${target} exists: remove it first`)
  process.exit(2)
}
copyFileSync(source, target)
const db = await DuckDBInstance.create(target)
const c = await db.connect()
const columns = async (table) =>
  (await c.runAndReadAll(`select column_name from information_schema.columns where table_name = '${table}' order by ordinal_position`)).getRows().map((r) => String(r[0]))

/** Each table's columns, with the ones a copy changes replaced by their expressions of `k`. */
const rewrites = {
  events: { uuid: () => 'uuid()', distinct_id: (k) => `distinct_id || '~${k}'`, person_id: (k) => `md5(cast(person_id as varchar) || '~${k}')::uuid` },
  persons: { id: (k) => `id + ${k} * (select max(id) from persons)`, uuid: (k) => `md5(cast(uuid as varchar) || '~${k}')::uuid` },
  person_distinct_ids: { distinct_id: (k) => `distinct_id || '~${k}'`, person_uuid: (k) => `md5(cast(person_uuid as varchar) || '~${k}')::uuid` },
  person_distinct_id_overrides: { distinct_id: (k) => `distinct_id || '~${k}'`, person_id: (k) => `md5(cast(person_id as varchar) || '~${k}')::uuid` },
  personless_distinct_ids: { distinct_id: (k) => `distinct_id || '~${k}'` },
}
const started = Date.now()
for (const [table, changes] of Object.entries(rewrites)) {
  const cols = await columns(table)
  if (cols.length === 0) continue
  // Copies read only the original rows (`~` never appears in a generated distinct id or is excluded by the snapshot).
  await c.run(`create temp table orig as select * from ${table}`)
  for (let k = 1; k < times; k++) {
    const select = cols.map((col) => (changes[col] ? `${changes[col](k).replaceAll(' from persons', ' from orig')} as "${col}"` : `"${col}"`)).join(', ')
    await c.run(`insert into ${table} select ${select} from orig`)
  }
  await c.run('drop table orig')
  const count = (await c.runAndReadAll(`select count(*) from ${table}`)).getRows()[0][0]
  console.error(`${table}: ${count} rows`)
}
await c.run('checkpoint')
console.error(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`)
