import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { clickhouseSqlHooks as h } from '@sightline/storage-clickhouse'
import { chdbKysely } from './open-chdb.js'

/**
 * The two funnel hooks whose ClickHouse spelling is not a transcription of
 * DuckDB's (`sumBefore`, `unorderedFiling`), on chDB against models of the
 * port's contract (packages/core/src/storage.ts) on random rows. The funnel
 * worked examples and reference property run them through whole funnels.
 */

const SECOND = 1_000_000
const BASE = Date.UTC(2024, 2, 10) * 1000

/** Per row, the sum (or count) of the partition's rows at least `micros` older. */
function sumBeforeModel(rows: ReadonlyArray<{ p: number; ts: number; v: number }>, micros: number, count: boolean): number[] {
  return rows.map((r) => rows.filter((o) => o.p === r.p && o.ts <= r.ts - micros).reduce((s, o) => s + (count ? 1 : o.v), 0))
}

interface FilingRow {
  readonly p: number
  readonly seq: number
  readonly ts: number
  readonly sm: number
  readonly okv: number
  readonly need: number
}

/** UnorderedFilingInput's rule, step by step, per partition in `seq` order. */
function filingModel(rows: ReadonlyArray<FilingRow>, steps: number, window: number): Map<string, number> {
  const out = new Map<string, number>()
  for (const p of new Set(rows.map((r) => r.p))) {
    const newest: Array<number | null> = Array.from({ length: steps }, () => null)
    for (const r of rows.filter((x) => x.p === p).sort((a, b) => a.seq - b.seq)) {
      const key = `${r.p}/${r.seq}`
      if (r.need === 0) {
        out.set(key, 0)
        continue
      }
      if (r.sm === 0) {
        newest.fill(null)
        out.set(key, 0)
        continue
      }
      for (let s = 0; s < steps; s++) if (newest[s] !== null && newest[s]! < r.ts - window) newest[s] = null
      let done = newest.filter((t) => t !== null).length
      if (done === steps) {
        const oldest = newest.indexOf(Math.min(...(newest as number[])))
        newest[oldest] = null
        done--
      }
      if (r.okv === 0 && done === 0) {
        out.set(key, 0)
        continue
      }
      let chosen = -1
      for (let s = 0; s < steps; s++) {
        if ((r.sm & (2 ** s)) === 0) continue
        if (chosen === -1) chosen = s
        else if (newest[chosen] !== null && (newest[s] === null || newest[s]! < newest[chosen]!)) chosen = s
      }
      newest[chosen] = r.ts
      out.set(key, chosen + 1)
    }
  }
  return out
}

/** Random tables per hook (each a truncate, an insert and a select on chDB, about 0.2 s); `SIGHTLINE_CLICKHOUSE_HOOK_RUNS` for more. */
const RUNS = Number(process.env.SIGHTLINE_CLICKHOUSE_HOOK_RUNS ?? 15)

describe('the funnel hooks on chDB, against models of their contract', () => {
  const db = chdbKysely()

  it('sumBefore: sums and counts of the rows at least `micros` older, exact to the microsecond past 32-bit offsets', async () => {
    await sql`create table sb (p Int64, ts Int64, v Int64) engine = Memory`.execute(db())
    const micros = fc.oneof(
      fc.constantFrom(1, 999_999, SECOND, SECOND + 1, 14 * 86_400 * SECOND + 1, 2 ** 32 + 7),
      fc.integer({ min: 1, max: 3_000 * SECOND }),
    )
    // Times bunched within a few windows, many at whole seconds and their neighbours (the bound's second matters).
    const ts = fc.oneof(
      fc.integer({ min: 0, max: 40 }).map((s) => BASE + s * 86_400 * SECOND),
      fc.tuple(fc.integer({ min: 0, max: 3_000 }), fc.constantFrom(-1, 0, 1, 500_000)).map(([s, us]) => BASE + s * SECOND + us),
      fc.integer({ min: -5 * SECOND, max: 5 * SECOND }),
    )
    const rows = fc.array(fc.record({ p: fc.integer({ min: 1, max: 2 }), ts, v: fc.integer({ min: -3, max: 5 }) }), { minLength: 1, maxLength: 25 })
    await fc.assert(
      fc.asyncProperty(rows, micros, async (rows, micros) => {
        await sql`truncate table sb`.execute(db())
        await sql`insert into sb values ${sql.join(rows.map((r) => sql`(${sql.lit(r.p)}, ${sql.lit(r.ts)}, ${sql.lit(r.v)})`))}`.execute(db())
        const partition = sql`p`
        const { rows: got } = await sql<{ s: number; c: number }>`select ${h.sumBefore(sql`v`, partition, sql`ts`, micros)} as s,
            ${h.sumBefore(null, partition, sql`ts`, micros)} as c from sb order by p, ts, v`.execute(db())
        const sorted = [...rows].sort((a, b) => a.p - b.p || a.ts - b.ts || a.v - b.v)
        expect(got.map((r) => Number(r.s ?? 0))).toEqual(sumBeforeModel(sorted, micros, false))
        expect(got.map((r) => Number(r.c ?? 0))).toEqual(sumBeforeModel(sorted, micros, true))
      }),
      { numRuns: RUNS },
    )
    await sql`drop table sb`.execute(db())
  }, 120_000)

  it('unorderedFiling: files each event as the sequential rule does, per partition', async () => {
    await sql`create table uf (p Int64, seq Int64, ts Int64, sm Int64, okv Int64, need Int64) engine = Memory`.execute(db())
    const setup = fc.record({ steps: fc.integer({ min: 1, max: 4 }), window: fc.constantFrom(0, 59 * SECOND, 180 * SECOND) })
    const data = setup.chain(({ steps, window }) =>
      fc.record({
        steps: fc.constant(steps),
        window: fc.constant(window),
        partitions: fc.array(
          fc.record({
            need: fc.constantFrom(0, 1, 1, 1),
            events: fc.array(
              fc.record({ gap: fc.constantFrom(0, 30, 60, 61, 200).map((s) => s * SECOND), sm: fc.integer({ min: 0, max: 2 ** steps - 1 }), okv: fc.constantFrom(0, 1, 1) }),
              { minLength: 1, maxLength: 14 },
            ),
          }),
          { minLength: 1, maxLength: 3 },
        ),
      }),
    )
    await fc.assert(
      fc.asyncProperty(data, async ({ steps, window, partitions }) => {
        const rows: FilingRow[] = partitions.flatMap((part, p) => {
          let ts = BASE
          return part.events.map((e, i) => ({ p, seq: i + 1, ts: (ts += e.gap), sm: e.sm, okv: e.okv, need: part.need }))
        })
        await sql`truncate table uf`.execute(db())
        await sql`insert into uf values ${sql.join(rows.map((r) => sql`(${sql.join([r.p, r.seq, r.ts, r.sm, r.okv, r.need].map((x) => sql.lit(x)))})`))}`.execute(db())
        const filed = h.unorderedFiling({ from: 'uf', partition: ['p'], order: 'seq', when: 'need', ts: 'ts', mask: 'sm', carries: 'okv', steps, windowMicros: window, as: 'fstep' })
        const { rows: got } = await sql<{ p: number; seq: number; fstep: number }>`select p, seq, fstep from (${filed}) as f order by p, seq`.execute(db())
        const expected = filingModel(rows, steps, window)
        expect(Object.fromEntries(got.map((r) => [`${r.p}/${r.seq}`, Number(r.fstep)]))).toEqual(Object.fromEntries(expected))
      }),
      { numRuns: RUNS },
    )
    await sql`drop table uf`.execute(db())
  }, 120_000)
})
