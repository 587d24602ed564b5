/**
 * bucketIndexSql against core's bucketOf (the calendar reference, tested on
 * its own in core): random zones, intervals, ranges and instants, on every
 * storage target. The SQL sees only integers; bucketOf walks wall clocks.
 */
import fc from 'fast-check'
import { Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bucketOf, bucketStarts } from '../../packages/core/src/query/dates/buckets.js'
import { bucketIndexSql, bucketRuns, timestampBucketIndexSql } from '../../packages/core/src/query/dates/bucket-index-sql.js'
import type { Interval } from '../../packages/core/src/query/dates/interval.js'
import type { StorageAdapter } from '@sightline/core'
import { sqlCast } from '@sightline/core/storage'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'

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

describePropertySkip()
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
        const end = endOf(starts, interval, zone, week)
        // Each instant as epoch microseconds and as a timestamptz (the second form's own hook where the database has one).
        const values = sql.join(instants.map((ms, i) => sql`(${sql.lit(i)}, cast(${sql.lit(ms * 1000)} as bigint), ${sqlCast(new Date(ms).toISOString(), 'timestamptz')})`))
        const { rows } = await sql<{ i: number; b: number; bt: number }>`select t.i as i, ${bucketIndexSql(micros, starts, end, adapter.sql)} as b, ${timestampBucketIndexSql(sql`t.ts`, micros, starts, end, adapter.sql)} as bt from (values ${values}) as t(i, m, ts) order by t.i`.execute(db)
        expect(rows.map((r) => Number(r.b))).toEqual(expected)
        expect(rows.map((r) => Number(r.bt))).toEqual(expected)
      }),
      { numRuns: 60 },
    )
  })

  it('gives -1 before the first bucket', async () => {
    const starts = [new Date(1000), new Date(2000)]
    const { rows } = await sql<{ b: number }>`select ${bucketIndexSql(sql`cast(${sql.lit(999_999)} as bigint)`, starts, new Date(3000), adapter.sql)} as b`.execute(db)
    expect(Number(rows[0]!.b)).toBe(-1)
  })

  it('reads a timestamptz to the microsecond at bucket edges', async () => {
    // New York days around the change of 2024-11-03: starts at 04:00Z, then the 25-hour day, then 05:00Z.
    const starts = ['2024-11-02T04:00:00Z', '2024-11-03T04:00:00Z', '2024-11-04T05:00:00Z'].map((t) => new Date(t))
    const end = new Date('2024-11-05T05:00:00Z')
    const cases: Array<[string, number]> = [
      ['2024-11-02T03:59:59.999999Z', -1],
      ['2024-11-02T04:00:00.000000Z', 0],
      ['2024-11-03T03:59:59.999999Z', 0],
      ['2024-11-03T04:00:00.000000Z', 1],
      ['2024-11-04T04:59:59.999999Z', 1],
      ['2024-11-04T05:00:00.000000Z', 2],
      ['2024-11-05T04:59:59.999999Z', 2],
    ]
    const values = sql.join(cases.map(([t], i) => sql`(${sql.lit(i)}, ${sqlCast(t, 'timestamptz')})`))
    const micros = adapter.sql.epochMicros(sql`t.ts`)
    const { rows } = await sql<{ b: number }>`select ${timestampBucketIndexSql(sql`t.ts`, micros, starts, end, adapter.sql)} as b from (values ${values}) as t(i, ts) order by t.i`.execute(db)
    expect(rows.map((r) => Number(r.b))).toEqual(cases.map(([, b]) => b))
  })

  it('gives a timestamptz at or after the end an index past the last bucket', async () => {
    const starts = [new Date('2024-01-01T00:00:00Z'), new Date('2024-01-02T00:00:00Z')]
    const micros = adapter.sql.epochMicros(sqlCast('2024-01-03T00:00:00Z', 'timestamptz'))
    const { rows } = await sql<{ b: number }>`select ${timestampBucketIndexSql(sqlCast('2024-01-03T00:00:00Z', 'timestamptz'), micros, starts, new Date('2024-01-03T00:00:00Z'), adapter.sql)} as b`.execute(db)
    expect(Number(rows[0]!.b)).toBeGreaterThanOrEqual(2)
  })
})
