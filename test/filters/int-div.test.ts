/**
 * `SqlHooks.intDiv` on every storage (ClickHouse's in
 * packages/storage-clickhouse/test/sql-hooks.test.ts): integer division of
 * whole expressions, whatever operators they hold. A hook that spliced its
 * operands without brackets would bind `//` or `/` tighter than a `+` in
 * them: `5 + 3` over 2 would read 5 + (3 // 2) = 6, and 8 over `2 + 2` would
 * read (8 // 2) + 2 = 6.
 */
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { ConformanceTarget } from '../conformance/target.js'
import { dialectDb } from './dialect-db.js'
import { targets } from './filter-db.js'

describe.each(targets)('intDiv on $name', (target: ConformanceTarget) => {
  const { db, hooks } = dialectDb(target)

  it('divides whole expressions', async () => {
    const q = (dividend: string, divisor: string) => hooks().intDiv(sql.raw(dividend), sql.raw(divisor))
    const { rows } = await sql<Record<string, unknown>>`select ${q('5 + 3', '2')} as a, ${q('8', '2 + 2')} as b, ${q('7', '2')} as c`.execute(db())
    // (5 + 3) / 2 = 4; 8 / (2 + 2) = 2; 7 / 2 = 3 (the integer part).
    expect([rows[0]!.a, rows[0]!.b, rows[0]!.c].map(Number)).toEqual([4, 2, 3])
  })
})
