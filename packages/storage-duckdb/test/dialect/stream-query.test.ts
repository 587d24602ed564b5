import { CompiledQuery, sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { openTestDb } from './open-test-db.js'
import type { TestDb } from './open-test-db.js'

describe('streamQuery', () => {
  let t: TestDb

  beforeEach(async () => {
    t = await openTestDb({ poolSize: 1 })
  })

  afterEach(async () => {
    await t.close()
  })

  const chunkSizes = (query: CompiledQuery, chunkSize: number) =>
    t.db.getExecutor().provideConnection(async (connection) => {
      const sizes: number[] = []

      for await (const result of connection.streamQuery(query, chunkSize)) {
        sizes.push(result.rows.length)
      }

      return sizes
    })

  it('streams every row, normalised and in order, through the query builder', async () => {
    const ids: number[] = []

    for await (const row of t.db
      .selectFrom(sql<{ i: number; at: string }>`(select range::integer as i, TIMESTAMP '2026-01-01' + to_seconds(range) as at from range(5000))`.as('r'))
      .selectAll()
      .where('i', '>=', 10)
      .orderBy('i')
      .stream(100)) {
      ids.push(row.i)

      if (row.i === 70) {
        expect(row.at).toBe('2026-01-01T00:01:10.000000Z')
      }
    }

    expect(ids).toEqual(Array.from({ length: 4990 }, (_, i) => i + 10))
  })

  it("regroups DuckDB's 2048-row chunks into chunks of the size asked for", async () => {
    const query = CompiledQuery.raw('select range as i from range($1)', [4500])

    expect(await chunkSizes(query, 2000)).toEqual([2000, 2000, 500])
    expect(await chunkSizes(query, 4500)).toEqual([4500])
    expect(await chunkSizes(CompiledQuery.raw('select 1 where false'), 10)).toEqual([])
  })

  it('leaves the connection usable after the consumer stops early', async () => {
    for await (const row of t.db.selectFrom(sql<{ i: number }>`(select range as i from range(100000))`.as('r')).selectAll().stream(10)) {
      if (row.i === 5) {
        break
      }
    }

    expect((await sql<{ n: number }>`select 42 as n`.execute(t.db)).rows).toEqual([{ n: 42 }])
  })

  it('rejects a chunkSize that is not a positive integer', async () => {
    await expect(chunkSizes(CompiledQuery.raw('select 1'), 0)).rejects.toThrow('chunkSize must be a positive integer')
  })

  it('rejects with the DuckDB error for a failing query', async () => {
    await expect(chunkSizes(CompiledQuery.raw('select * from missing_table'), 10)).rejects.toThrow(/missing_table/)
  })
})
