import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { createSightline } from '@sightline/core'
import { duckdbStorage } from '@sightline/storage-duckdb'
import type { ConformanceTarget, FreshDatabase } from '../conformance/target.js'
import { templateDir } from './template-dir.js'

const toNumber = (v: unknown) => (typeof v === 'bigint' ? Number(v) : v)

/**
 * One DuckDB thread per test database: the suites' datasets are far below a
 * row group (122,880 rows), so a second thread only added scheduling, about a
 * fifth of the DuckDB conformance suite's CPU (65 s against 52 s, measured
 * 2026-11-28). Answers do not depend on it; the benchmarks keep DuckDB's default.
 */
export const TEST_DUCKDB_OPTIONS = { threads: '1' } as const

async function wrap(instance: DuckDBInstance, dispose: () => void): Promise<FreshDatabase> {
  const connection = await instance.connect()
  return {
    storage: () => duckdbStorage({ instance }),
    async raw<T>(sql: string, params: unknown[] = []) {
      const result = await connection.run(sql, params as never)
      const rows = await result.getRowObjectsJS()
      return rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, toNumber(v)]))) as T[]
    },
    epochMicros: (column) => `epoch_us(${column})`,
    async dispose() {
      connection.closeSync()
      dispose()
    },
  }
}

/**
 * A DuckDB file that Sightline's migrations brought to the newest schema,
 * made once per test process (see `templateDir`) for the targets'
 * `migrated()`: copying it costs about a tenth of migrating a new database,
 * which the conformance suite does for every case.
 * `test/targets/migrated-copies.test.ts` holds a copy's catalog against a
 * newly migrated one's.
 */
let template: Promise<string> | undefined
export function migratedDuckDBFile(): Promise<string> {
  template ??= (async () => {
    const dir = templateDir('sightline-duckdb-template')
    const path = join(dir, 'template.duckdb')
    const instance = await DuckDBInstance.create(path, TEST_DUCKDB_OPTIONS)
    try {
      await (await createSightline({ storage: duckdbStorage({ instance }) })).close()
    } finally {
      // Closing checkpoints the write-ahead log into the file, so the file alone is the database.
      instance.closeSync()
    }
    if (existsSync(`${path}.wal`)) throw new Error('the migrated DuckDB template kept a write-ahead log')
    return path
  })()
  return template
}

/** Copies every table, sequence and row of the DuckDB file at `path` into the in-memory database `instance` (its catalog is `memory`). */
export async function copyIntoMemory(instance: DuckDBInstance, path: string): Promise<void> {
  const connection = await instance.connect()
  try {
    await connection.run(`attach '${path.replaceAll("'", "''")}' as sightline_template (read_only)`)
    await connection.run('copy from database sightline_template to memory')
    await connection.run('detach sightline_template')
  } finally {
    connection.closeSync()
  }
}

/** DuckDB in memory: the instance is the test's, so raw reads share it. */
export const duckdbMemory: ConformanceTarget = {
  name: 'duckdb (memory)',
  async fresh() {
    const instance = await DuckDBInstance.create(':memory:', TEST_DUCKDB_OPTIONS)
    return wrap(instance, () => instance.closeSync())
  },
  async migrated() {
    const instance = await DuckDBInstance.create(':memory:', TEST_DUCKDB_OPTIONS)
    await copyIntoMemory(instance, await migratedDuckDBFile()).catch((error: unknown) => {
      instance.closeSync()
      throw error
    })
    return wrap(instance, () => instance.closeSync())
  },
  unreachable: () => duckdbStorage({ path: '/nonexistent-directory/sightline/x.duckdb' }),
}

/** DuckDB in a file: a new file in a temporary directory per case. */
export const duckdbFile: ConformanceTarget = {
  name: 'duckdb (file)',
  fresh: () => openFile(),
  migrated: async () => openFile(await migratedDuckDBFile()),
  unreachable: () => duckdbStorage({ path: '/nonexistent-directory/sightline/x.duckdb' }),
}

/** A new DuckDB file in a temporary directory: empty, or a copy of `from`. */
async function openFile(from?: string): Promise<FreshDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-duckdb-'))
  const path = join(dir, 'test.duckdb')
  if (from !== undefined) copyFileSync(from, path)
  const instance = await DuckDBInstance.create(path, TEST_DUCKDB_OPTIONS)
  return wrap(instance, () => {
    instance.closeSync()
    rmSync(dir, { recursive: true, force: true })
  })
}
