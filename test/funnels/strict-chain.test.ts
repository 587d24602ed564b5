/**
 * Which strict runs the chain of joins decides (strict-chain-sql.ts), on
 * the storage whose joins of intermediate results hash (DuckDB), over
 * hand-written `runs` rows: the runs without a split instant, with the
 * depth and times worked out by hand from funnels.md §4; a run with one is
 * left to the window passes (`cmpu`). The passes answer such runs the same
 * (the worked examples and reference properties hold both), so only this
 * test sees the choice.
 */
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { compactedCtes } from '../../packages/core/src/query/funnels/compile/ordered-occurrences-sql.js'
import { withCtes } from '../../packages/core/src/query/funnels/compile/sql-kit.js'
import { strictChainCtes, strictChainFor } from '../../packages/core/src/query/funnels/compile/strict-chain-sql.js'
import { planFunnel } from '../../packages/core/src/query/funnels/funnel-plan.js'
import { decodeFunnelRequest } from '../../packages/core/src/query/funnels/params/decode-funnel-params.js'
import { dialectDb } from '../filters/dialect-db.js'
import { duckdbMemory } from '../targets/duckdb.js'

const MINUTE = 60_000_000
const T = 1_709_632_800_000_000 // 2024-03-05T10:00:00Z in microseconds
/** A run's event: its time in minutes after T and its step mask (a = 1, b = 2, c = 4; 0 matches no step). */
type Row = readonly [minutes: number, mask: number]

const request = (extra: Record<string, unknown> = {}) =>
  decodeFunnelRequest({ events: [{ id: 'a' }, { id: 'b' }, { id: 'c' }], date_from: '-7d', funnel_order_type: 'strict', funnel_window_interval: 10, funnel_window_interval_unit: 'minute', ...extra })
const plan = planFunnel(request(), 3)

describe('strict funnels chained by joins', () => {
  const { db, hooks } = dialectDb(duckdbMemory)

  async function chain(runs: Record<string, ReadonlyArray<Row>>) {
    const rows = Object.entries(runs).flatMap(([tgt, events]) => events.map(([minutes, mask], i) => sql`(${tgt}, ${T + minutes * MINUTE}, ${`${tgt}-${String(i).padStart(3, '0')}`}, ${mask})`))
    const fs = sql`(case when sm % 2 = 1 then 1 when sm % 4 >= 2 then 2 when sm % 8 >= 4 then 3 else 4 end)`
    const source = sql`select tgt, '' as p0, ts, uuid, sm, xm, ${fs} as fs, '' as b0 from (
      select tgt, cast(ts as bigint) as ts, uuid, cast(sm as bigint) as sm, cast(0 as bigint) as xm from (values ${sql.join(rows)}) as r(tgt, ts, uuid, sm)) as r`
    const ctes = [['runs', source] as const, ...compactedCtes(plan), ...strictChainCtes(plan)]
    const decided = await withCtes(ctes, sql`select tgt, reached, t1, t2, t3 from sko`).execute(db())
    const left = await withCtes(ctes, sql`select distinct tgt from cmpu`).execute(db())
    const minutes = (v: unknown) => (v === null ? null : (Number(v) - T) / MINUTE)
    return {
      decided: Object.fromEntries((decided.rows as Array<Record<string, unknown>>).map((r) => [r.tgt as string, { reached: Number(r.reached), minutes: [minutes(r.t1), minutes(r.t2), minutes(r.t3)] }])),
      left: (left.rows as Array<{ tgt: string }>).map((r) => r.tgt).sort(),
    }
  }

  it('decides the runs without a split instant', async () => {
    const out = await chain({
      plain: [[0, 1], [1, 2], [2, 4]],
      // A repeated b keeps the path at step 1; c extends it from the first b.
      repeat: [[0, 1], [1, 2], [3, 2], [4, 4]],
      // An event matching no step clears the path; the later a starts another, which converts.
      foreign: [[0, 1], [1, 0], [2, 2], [3, 1], [4, 2]],
      // The latest a starts the path: 9 minutes to b (14 from the first a: past the window).
      restart: [[0, 1], [5, 1], [14, 2]],
      // b past the window ends the path (it does not match step a); c finds nothing to extend.
      late: [[0, 1], [11, 2], [12, 4]],
      // Only step 0, three times: the first is reported.
      starts: [[0, 1], [3, 1], [7, 1]],
    })
    expect(out.decided).toEqual({
      plain: { reached: 2, minutes: [0, 1, 2] },
      repeat: { reached: 2, minutes: [0, 1, 4] },
      foreign: { reached: 1, minutes: [3, 4, null] },
      restart: { reached: 1, minutes: [5, 14, null] },
      late: { reached: 0, minutes: [0, null, null] },
      starts: { reached: 0, minutes: [0, null, null] },
    })
    expect(out.left).toEqual([])
  })

  it('leaves a run with a split instant (events of different steps, or a step and another event, at one time) to the passes', async () => {
    const out = await chain({ split: [[0, 1], [0, 2], [1, 4]], blank: [[0, 1], [1, 2], [1, 0], [2, 4]], plain: [[0, 1], [1, 2]] })
    expect(Object.keys(out.decided)).toEqual(['plain'])
    expect(out.left).toEqual(['blank', 'split'])
  })

  it('is used only where its rules hold, and where joins of intermediate results hash', () => {
    const forRequest = (extra: Record<string, unknown>, steps?: ReadonlyArray<Record<string, unknown>>) => {
      const r = request({ ...extra, ...(steps ? { events: steps } : {}) })
      return strictChainFor(planFunnel(r, r.steps.length), hooks())
    }
    expect(hooks().hashesIntermediateJoins).toBe(true)
    expect(strictChainFor(plan, hooks())).toBe(true)
    expect(strictChainFor(plan, { ...hooks(), hashesIntermediateJoins: false })).toBe(false)
    expect(forRequest({}, [{ id: 'a' }, { id: null }])).toBe(false)
    expect(forRequest({}, [{ id: 'a' }, { id: 'b' }, { id: 'a' }])).toBe(false)
    expect(forRequest({ exclusions: [{ id: 'x', type: 'events', funnel_from_step: 0, funnel_to_step: 1 }] })).toBe(false)
    expect(forRequest({ breakdown: '$browser', breakdown_attribution_type: 'step', breakdown_attribution_value: 1 })).toBe(false)
    expect(forRequest({ funnel_order_type: 'ordered' })).toBe(false)
    expect(forRequest({ funnel_viz_type: 'trends' })).toBe(false)
    expect(forRequest({ breakdown: '$browser' })).toBe(true)
    // Two steps are enough.
    expect(forRequest({}, [{ id: 'a' }, { id: 'b' }])).toBe(true)
  })
})
