#!/usr/bin/env node
/**
 * Promotes properties of a kept DuckDB benchmark file (`run.js analyses --keep-data`) into slot
 * columns and backfills them, so the analysis harness can then time the same queries reading the
 * slots instead of the JSON: run it on a copy, and point `--keep-data` at the copy's directory.
 * The project is the one the file's marker (`<file>.json`, written by the harness) names.
 *
 *   node benchmarks/promote-kept.js /work/bench-data-promoted/duckdb_10000000.duckdb load_time_ms:Numeric
 */
import { readFileSync } from 'node:fs'
import { createSightline } from '@sightline/core'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { now, seconds } from './measure.js'

const [file, ...wanted] = process.argv.slice(2)
const specs = wanted.map((w) => w.split(':'))
if (!file || specs.length === 0 || specs.some(([key, type]) => !key || (type !== 'Numeric' && type !== 'String'))) {
  console.error('usage: promote-kept.js FILE.duckdb KEY:Numeric|String ...')
  process.exit(2)
}
const { projectId } = JSON.parse(readFileSync(file.replace(/\.duckdb$/, '.json'), 'utf8'))
const sightline = await createSightline({ storage: duckdbStorage({ path: file }), clock: () => new Date('2025-01-01T00:00:00Z') })
try {
  const t = now()
  for (const [key, type] of specs) await sightline.properties.promote(projectId, key, { type, background: false })
  const slots = await sightline.properties.backfill(projectId)
  console.log(`project ${projectId}: ${slots.map((s) => `${s.key} (${s.type}, ${s.state})`).join(', ')} in ${seconds(t).toFixed(1)} s`)
} finally {
  await sightline.close()
}
