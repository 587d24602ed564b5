/**
 * `SqlHooks.addMonths` on every storage (ClickHouse's in
 * packages/storage-clickhouse/test/sql-hooks.test.ts): calendar months on the
 * UTC date, the time of day kept, the day clamped to the target month's last,
 * whatever the session's time zone. Each expected instant is worked out by
 * hand from the calendar.
 */
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { ConformanceTarget } from '../conformance/target.js'
import { dialectDb } from './dialect-db.js'
import { targets } from './filter-db.js'

/** [instant, months, the instant expected]. */
const cases: ReadonlyArray<readonly [string, number, string]> = [
  // 2026 is not a leap year: 31 January plus a month is 28 February, the microseconds kept.
  ['2026-01-31T10:00:00.123456Z', 1, '2026-02-28T10:00:00.123456Z'],
  // 2024 is: 29 February.
  ['2024-01-31T23:30:00Z', 1, '2024-02-29T23:30:00Z'],
  // Twelve months from a leap day: 28 February 2025.
  ['2024-02-29T12:00:00Z', 12, '2025-02-28T12:00:00Z'],
  // On the UTC date: in New York this instant is 30 March 23:30, a month on would be 30 April 23:30 there (1 May 03:30 UTC).
  ['2026-03-31T03:30:00Z', 1, '2026-04-30T03:30:00Z'],
  // 25 months: two years and one month; the 15th exists everywhere.
  ['2026-01-15T00:00:00Z', 25, '2028-02-15T00:00:00Z'],
  // Across New York's daylight-saving end (1 November 2026): UTC time of day kept.
  ['2026-10-31T01:30:00Z', 1, '2026-11-30T01:30:00Z'],
]
const micros = (iso: string) => BigInt(Date.parse(iso)) * 1000n + BigInt(Number(iso.match(/\.\d{3}(\d{3})/)?.[1] ?? 0))

describe.each(targets)('addMonths on $name', (target: ConformanceTarget) => {
  const { db, hooks } = dialectDb(target)

  it.each(['UTC', 'America/New_York', 'Asia/Kolkata'])('in a session whose zone is %s', async (zone) => {
    await db().connection().execute(async (conn) => {
      // Both databases spell the session zone's setting alike.
      await sql`set TimeZone = ${sql.lit(zone)}`.execute(conn)
      try {
        for (const [from, months, expected] of cases) {
          const moved = hooks().addMonths(sql`cast(${from} as timestamptz)`, months)
          const { rows } = await sql<{ us: unknown }>`select ${hooks().epochMicros(moved)} as us`.execute(conn)
          expect(BigInt(rows[0]!.us as string), `${from} + ${months} months`).toBe(micros(expected))
        }
      } finally {
        await sql`set TimeZone = 'UTC'`.execute(conn)
      }
    })
  })
})
