/**
 * bucketIndexSql against core's bucketOf (the calendar reference, tested on
 * its own in core): random zones, intervals, ranges and instants, on every
 * storage target. The SQL sees only integers; bucketOf walks wall clocks.
 */
import fc from 'fast-check'
import { Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bucketOf, bucketStarts } from '../../packages/core/src/query/dates/buckets.js'
import { bucketIndexSql, bucketRuns } from '../../packages/core/src/query/dates/bucket-index-sql.js'
import type { Interval } from '../../packages/core/src/query/dates/interval.js'
import type { StorageAdapter } from '@sightline/core'
import { analysisTargets } from '../filters/filter-db.js'

const ZONES = ['UTC', 'America/New_York', 'Europe/Paris', 'Asia/Kolkata', 'Australia/Lord_Howe', 'America/Santiago', 'Pacific/Chatham']
const INTERVALS: Interval[] = ['minute', 'hour', 'day', 'week', 'month']
const SPAN_DAYS: Record<Interval, number> = { minute: 0.2, hour: 6, day: 90, week: 200, month: 800 }

/** The end of the last bucket: the start after it. */
function endOf(starts: Date[], interval: Interval, zone: string, week: 0 | 1): Date {
  const last = starts[starts.length - 1]!
  return bucketStarts({ from: last, to: new Date(last.getTime() + 40 * 86_400_000) }, interval, zone, week)[1]!
}

describe('bucketRuns', () => {
  it('cuts starts into runs of equal length', () => {
    // Buckets of 10, 10, 10, then 20, 20: two runs.
    expect(bucketRuns([0, 10, 20, 30, 50], 70)).toEqual([
      { firstIndex: 0, start: 0, length: 10 },
      { firstIndex: 3, start: 30, length: 20 },
    ])
  })
  it('splits New York days at both changes of 2026', () => {
    const starts = bucketStarts({ from: new Date('2026-01-01T05:00:00Z'), to: new Date('2026-12-31T05:00:00Z') }, 'day', 'America/New_York', 0)
    const runs = bucketRuns(starts.map((d) => d.getTime() * 1000), endOf(starts, 'day', 'America/New_York', 0).getTime() * 1000)
    // 24h days, the 23h day of March 8, 24h days, the 25h day of November 1, 24h days.
    expect(runs.map((r) => r.length / 3_600_000_000)).toEqual([24, 23, 24, 25, 24])
  })
})

describe.each(analysisTargets)('bucketIndexSql on $name', (target) => {
  let db: Kysely<any>
  let adapter: StorageAdapter
  let dispose: () => Promise<void>
  beforeAll(async () => {
    const fresh = await target.fresh()
    adapter = fresh.storage()
    const driver = await adapter.open()
    db = new Kysely<any>({ dialect: driver.dialect })
    dispose = async () => {
      await db.destroy()
      await driver.close()
      await fresh.dispose()
    }
  })
  afterAll(() => dispose?.())

  it('puts every instant in the bucket bucketOf gives', async () => {
    const cases = fc.record({
      zone: fc.constantFrom(...ZONES),
      interval: fc.constantFrom(...INTERVALS),
      week: fc.constantFrom(0 as const, 1 as const),
      fromMs: fc.integer({ min: Date.UTC(2019, 0, 1), max: Date.UTC(2027, 0, 1) }),
      fractions: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 12 }),
    })
    await fc.assert(
      fc.asyncProperty(cases, async ({ zone, interval, week, fromMs, fractions }) => {
        const toMs = fromMs + SPAN_DAYS[interval] * 86_400_000
        const starts = bucketStarts({ from: new Date(fromMs), to: new Date(toMs) }, interval, zone, week)
        const instants = fractions.map((f) => Math.floor(fromMs + f * (toMs - fromMs)))
        const expected = instants.map((ms) => starts.findIndex((s) => s.getTime() === bucketOf(new Date(ms), interval, zone, week).getTime()))
        expect(expected.every((i) => i >= 0)).toBe(true)
        const micros = sql<number>`t.m`
        const values = sql.join(instants.map((ms, i) => sql`(${sql.lit(i)}, cast(${sql.lit(ms * 1000)} as bigint))`))
        const { rows } = await sql<{ i: number; b: number }>`select t.i as i, ${bucketIndexSql(micros, starts, endOf(starts, interval, zone, week), adapter.sql)} as b from (values ${values}) as t(i, m) order by t.i`.execute(db)
        expect(rows.map((r) => Number(r.b))).toEqual(expected)
      }),
      { numRuns: 60 },
    )
  })

  it('gives -1 before the first bucket', async () => {
    const starts = [new Date(1000), new Date(2000)]
    const { rows } = await sql<{ b: number }>`select ${bucketIndexSql(sql`cast(${sql.lit(999_999)} as bigint)`, starts, new Date(3000), adapter.sql)} as b`.execute(db)
    expect(Number(rows[0]!.b)).toBe(-1)
  })
})
