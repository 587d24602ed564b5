import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { Kysely, sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'

import { duckdbStorage } from '../src/duckdb-storage.js'

const dir = mkdtempSync(join(tmpdir(), 'sightline-memory-limit-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** `memory_limit` as DuckDB reports it for an instance opened with `config` (its own rendering, e.g. '953.6 MiB'). */
async function reported(path: string, config: Record<string, string>): Promise<string> {
  const instance = await DuckDBInstance.create(path, config)
  try {
    const reader = await instance.connect()
    const rows = await (await reader.run(`select current_setting('memory_limit') as m`)).getRowObjectsJS()
    reader.closeSync()
    return String(rows[0]!.m)
  } finally {
    instance.closeSync()
  }
}

/** `memory_limit` of the instance the adapter opens itself. */
async function adapters(options: Parameters<typeof duckdbStorage>[0]): Promise<string> {
  const driver = await duckdbStorage(options).open()
  const db = new Kysely<any>({ dialect: driver.dialect })
  try {
    const { rows } = await sql<{ m: string }>`select current_setting('memory_limit') as m`.execute(db)
    return rows[0]!.m
  } finally {
    await db.destroy()
    await driver.close()
  }
}

describe('the buffer pool of an instance the adapter opens', () => {
  it('a file database is limited to 1GB unless the host says otherwise', async () => {
    const oneGb = await reported(join(dir, 'reference-1gb.duckdb'), { memory_limit: '1GB' })
    const machineDefault = await reported(join(dir, 'reference-default.duckdb'), {})
    // The limit must differ from DuckDB's own (80% of this machine's memory) for the first assertion to mean anything.
    expect(oneGb).not.toBe(machineDefault)
    expect(await adapters({ path: join(dir, 'a.duckdb') })).toBe(oneGb)
    expect(await adapters({ path: join(dir, 'b.duckdb'), config: { memory_limit: '2GB' } })).toBe(await reported(join(dir, 'reference-2gb.duckdb'), { memory_limit: '2GB' }))
  })

  it('in memory, where the data lives in the pool, DuckDB keeps its own default', async () => {
    expect(await adapters({})).toBe(await reported(':memory:', {}))
  })
})
