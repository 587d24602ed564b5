import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { duckdbStorage } from '@sightline/storage-duckdb'
import type { ConformanceTarget, FreshDatabase } from '../conformance/target.js'

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

/** DuckDB in memory: the instance is the test's, so raw reads share it. */
export const duckdbMemory: ConformanceTarget = {
  name: 'duckdb (memory)',
  async fresh() {
    const instance = await DuckDBInstance.create(':memory:', TEST_DUCKDB_OPTIONS)
    return wrap(instance, () => instance.closeSync())
  },
  unreachable: () => duckdbStorage({ path: '/nonexistent-directory/sightline/x.duckdb' }),
}

/** DuckDB in a file: a new file in a temporary directory per case. */
export const duckdbFile: ConformanceTarget = {
  name: 'duckdb (file)',
  async fresh() {
    const dir = mkdtempSync(join(tmpdir(), 'sightline-duckdb-'))
    const instance = await DuckDBInstance.create(join(dir, 'test.duckdb'), TEST_DUCKDB_OPTIONS)
    return wrap(instance, () => {
      instance.closeSync()
      rmSync(dir, { recursive: true, force: true })
    })
  },
  unreachable: () => duckdbStorage({ path: '/nonexistent-directory/sightline/x.duckdb' }),
}
