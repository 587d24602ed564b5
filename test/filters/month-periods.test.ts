/**
 * `monthPeriodsSql` (cohorts' performed_event_regularly over months and
 * years) on every storage: each instant's whole months back from `now`,
 * k such that `now - (k + 1) months < ts <= now - k months`, the months
 * ClickHouse's `now() - INTERVAL k MONTH` steps (UTC, the time of day kept,
 * the day clamped), then divided into periods of `months`. Each k is worked
 * out by hand from the calendar. (ClickHouse: the conformance example
 * "regularly over 500 months and 401 years".)
 */
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { monthPeriodsSql } from '../../packages/core/src/query/cohorts/month-periods-sql.js'
import type { ConformanceTarget } from '../conformance/target.js'
import { dialectDb } from './dialect-db.js'
import { targets } from './filter-db.js'

/** [now, instant, whole months back]. */
const cases: ReadonlyArray<readonly [string, string, number]> = [
  // Now 31 Mar 2026 12:00: W(1) = 28 Feb 12:00 (clamped), W(2) = 31 Jan 12:00, W(3) = 31 Dec 2025, W(4) = 30 Nov 12:00 (clamped).
  ['2026-03-31T12:00:00Z', '2026-03-31T12:00:00Z', 0],
  ['2026-03-31T12:00:00Z', '2026-02-28T12:00:01Z', 0],
  ['2026-03-31T12:00:00Z', '2026-02-28T12:00:00Z', 1],
  ['2026-03-31T12:00:00Z', '2026-02-28T11:00:00Z', 1],
  ['2026-03-31T12:00:00Z', '2026-01-31T12:00:01Z', 1],
  ['2026-03-31T12:00:00Z', '2026-01-31T12:00:00Z', 2],
  ['2026-03-31T12:00:00Z', '2025-11-30T12:00:01Z', 3],
  ['2026-03-31T12:00:00Z', '2025-11-30T12:00:00Z', 4],
  // Before 1970: W(675) = 31 Dec 1969 12:00 (2026 * 12 + 2 - 675 = 1969 * 12 + 11), W(674) = 31 Jan 1970 12:00.
  ['2026-03-31T12:00:00Z', '1969-12-31T23:59:59.999999Z', 674],
  ['2026-03-31T12:00:00Z', '1969-12-31T12:00:00Z', 675],
  // A leap year: now 31 Mar 2024 12:00, W(1) = 29 Feb 12:00, W(13) = 28 Feb 2023 12:00.
  ['2024-03-31T12:00:00Z', '2024-02-29T12:00:01Z', 0],
  ['2024-03-31T12:00:00Z', '2024-02-29T12:00:00Z', 1],
  ['2024-03-31T12:00:00Z', '2024-02-28T23:00:00Z', 1],
  ['2024-03-31T12:00:00Z', '2023-02-28T12:00:01Z', 12],
  ['2024-03-31T12:00:00Z', '2023-02-28T12:00:00Z', 13],
  // Now on the 1st at midnight, a microsecond apart: W(1) = 1 Feb 00:00.
  ['2026-03-01T00:00:00Z', '2026-02-01T00:00:00.000001Z', 0],
  ['2026-03-01T00:00:00Z', '2026-02-01T00:00:00Z', 1],
  // 29 Feb 2000 (a leap century): now 30 Mar 2000 06:00, W(1) = 29 Feb 06:00.
  ['2000-03-30T06:00:00Z', '2000-02-29T06:00:01Z', 0],
  ['2000-03-30T06:00:00Z', '2000-02-29T06:00:00Z', 1],
]

describe.each(targets)('monthPeriodsSql on $name', (target: ConformanceTarget) => {
  const { db, hooks } = dialectDb(target)

  it.each([1, 2, 12])('periods of %i months are floor(months back / %i)', async (months) => {
    for (const now of [...new Set(cases.map((c) => c[0]))]) {
      const mine = cases.filter((c) => c[0] === now)
      const rows = sql.join(
        mine.map(([, ts], i) => sql`select ${String(i)} as person_uuid, cast(${ts} as timestamptz) as ts`),
        sql` union all `,
      )
      const query = monthPeriodsSql(rows, new Date(now), months, hooks(), 0)
      const { rows: got } = await sql<{ person_uuid: string; p: unknown }>`${query}`.execute(db())
      const byRow = new Map(got.map((r) => [String(r.person_uuid), Number(r.p)]))
      expect(mine.map((_, i) => byRow.get(String(i))), now).toEqual(mine.map(([, , k]) => Math.floor(k / months)))
    }
  })
})
