/**
 * The unordered funnel's window pass (unordered-window-sql.ts) over
 * hand-written `runs` rows, on each analysis storage (DuckDB picks the
 * recorded window with its record aggregate, the others by row number): the
 * depth and times worked out by hand from funnels.md §5
 * (unordered_steps.rs), heavy runs included, and which funnels it serves.
 */
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { withCtes } from '../../packages/core/src/query/funnels/compile/sql-kit.js'
import { unorderedWindowCtes, unorderedWindowFor } from '../../packages/core/src/query/funnels/compile/unordered-window-sql.js'
import { planFunnel } from '../../packages/core/src/query/funnels/funnel-plan.js'
import { decodeFunnelRequest } from '../../packages/core/src/query/funnels/params/decode-funnel-params.js'
import type { ConformanceTarget } from '../conformance/target.js'
import { dialectDb } from '../filters/dialect-db.js'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'

const MINUTE = 60_000_000
const T = 1_709_632_800_000_000 // 2024-03-05T10:00:00Z in microseconds
/** A run's event: its time in minutes after T and its step mask (a = 1, b = 2, c = 4). */
type Row = readonly [minutes: number, mask: number]

const request = (extra: Record<string, unknown> = {}) =>
  decodeFunnelRequest({ events: [{ id: 'a' }, { id: 'b' }, { id: 'c' }], date_from: '-7d', funnel_order_type: 'unordered', funnel_window_interval: 10, funnel_window_interval_unit: 'minute', ...extra })
const plan = planFunnel(request(), 3)

describePropertySkip()
describe.each(analysisTargets)('unordered window pass on $name', (target: ConformanceTarget) => {
  const { db, hooks } = dialectDb(target)

  async function decide(runs: Record<string, ReadonlyArray<Row>>): Promise<Record<string, { reached: number; minutes: Array<number | null> }>> {
    const rows = Object.entries(runs).flatMap(([tgt, events]) => events.map(([minutes, mask], i) => sql`(${tgt}, ${T + minutes * MINUTE}, ${`${tgt}-${i}`}, ${mask})`))
    const source = sql`select tgt, '' as p0, cast(ts as bigint) as ts, uuid, cast(sm as bigint) as sm, cast(0 as bigint) as xm from (values ${sql.join(rows)}) as r(tgt, ts, uuid, sm)`
    const query = withCtes([['runs', source], ...unorderedWindowCtes(plan, hooks())], sql`select tgt, reached, t1, t2, t3 from ulo`)
    const { rows: out } = await query.execute(db())
    const minutes = (v: unknown) => (v === null ? null : (Number(v) - T) / MINUTE)
    return Object.fromEntries(
      (out as Array<Record<string, unknown>>).map((r) => [r.tgt as string, { reached: Number(r.reached), minutes: [minutes(r.t1), minutes(r.t2), minutes(r.t3)] }]),
    )
  }

  it("finds the first window holding the most steps, with each step's first time in it, sorted", async () => {
    expect(
      await decide({
        // Any order: c, b, a within 10 minutes is all three steps.
        reversed: [[0, 4], [1, 2], [2, 1]],
        // Windows from 0 (a, b) and from 20 (c, a) both hold two steps: the first one is recorded.
        twoWindows: [[0, 1], [5, 2], [20, 4], [25, 1]],
        // From 20: a, then b twice and c within 30; b's first time there is 25, and the b at 0 is out of the window.
        laterBest: [[0, 2], [20, 1], [25, 2], [27, 2], [28, 4]],
        // The window's end is inclusive: c exactly 10 minutes after a is in it.
        edge: [[0, 1], [10, 4]],
        // One minute more and it is not: two windows of one step each, the first recorded.
        pastEdge: [[0, 1], [11, 4]],
        // One step only, many times.
        alone: [[0, 2], [3, 2], [30, 2]],
      }),
    ).toEqual({
      reversed: { reached: 2, minutes: [0, 1, 2] },
      twoWindows: { reached: 1, minutes: [0, 5, null] },
      laterBest: { reached: 2, minutes: [20, 25, 28] },
      edge: { reached: 1, minutes: [0, 10, null] },
      pastEdge: { reached: 0, minutes: [0, null, null] },
      alone: { reached: 0, minutes: [0, null, null] },
    })
  })

  it('counts events sharing an instant in the window that starts there (the processing order among them changes no count and no time)', async () => {
    expect(
      await decide({
        tied: [[0, 1], [0, 2], [0, 4]],
        tiedLater: [[0, 2], [4, 1], [4, 4]],
        // A window starting at 4 holds the c at 4 whichever of the two comes first in the sort.
        tiedStart: [[4, 4], [4, 1], [20, 2]],
      }),
    ).toEqual({
      tied: { reached: 2, minutes: [0, 0, 0] },
      tiedLater: { reached: 2, minutes: [0, 4, 4] },
      tiedStart: { reached: 1, minutes: [4, 4, null] },
    })
  })

  // 600 events, far past the 64 the step lists before this pass could follow (chDB parses bound rows slowly: 3,000 took 8 s).
  it('decides heavy runs whole: 600 events 20 minutes apart, then a, b, c within 10 minutes at the end', async () => {
    // Cycling a, b, c 20 minutes apart, no window holds two steps; the last three events, 4 minutes apart, hold all three.
    const cycling: Row[] = Array.from({ length: 600 }, (_, i) => [i * 20, 2 ** (i % 3)] as const)
    const end = 600 * 20
    const out = await decide({ heavy: [...cycling, [end, 2], [end + 4, 4], [end + 8, 1]], light: cycling.slice(0, 5) })
    expect(out).toEqual({ heavy: { reached: 2, minutes: [end, end + 4, end + 8] }, light: { reached: 0, minutes: [0, null, null] } })
  })

  it('a row tagged with no step starts no window and fills none', async () => {
    // The event at 1 matched the name of no step's filters (mask 0): a, c is all the run has within 10 minutes of 0.
    expect(await decide({ r: [[0, 1], [1, 0], [2, 4]], only: [[5, 0]] })).toEqual({ r: { reached: 1, minutes: [0, 2, null] } })
  })
})

describe('unordered window pass: the funnels it serves', () => {
  it('only where its rules hold: no exclusion, no step attribution, no repeated or overlapping step, not trends', () => {
    const forRequest = (extra: Record<string, unknown>, steps?: ReadonlyArray<Record<string, unknown>>) => {
      const r = request({ ...extra, ...(steps ? { events: steps } : {}) })
      return unorderedWindowFor(planFunnel(r, r.steps.length))
    }
    expect(unorderedWindowFor(plan)).toBe(true)
    // A step one event can match together with another keeps the passes: All events, an action, one name under two filters.
    expect(forRequest({}, [{ id: 'a' }, { id: null }])).toBe(false)
    expect(forRequest({ actions: [{ id: 7, order: 1 }] }, [{ id: 'a', order: 0 }])).toBe(false)
    expect(forRequest({}, [{ id: 'a', properties: [{ key: 'plan', value: 'pro', type: 'event' }] }, { id: 'a' }])).toBe(false)
    expect(forRequest({ exclusions: [{ id: 'x', type: 'events', funnel_from_step: 0, funnel_to_step: 2 }] })).toBe(false)
    expect(forRequest({ breakdown: '$browser', breakdown_attribution_type: 'step', breakdown_attribution_value: 0 })).toBe(false)
    expect(forRequest({}, [{ id: 'a' }, { id: 'b' }, { id: 'a' }])).toBe(false)
    expect(forRequest({ funnel_order_type: 'ordered' })).toBe(false)
    const trends = request({ funnel_viz_type: 'trends' })
    expect(unorderedWindowFor(planFunnel(trends, trends.steps.length))).toBe(false)
    // A breakdown (first touch) keeps it: runs are per person and value.
    expect(forRequest({ breakdown: '$browser' })).toBe(true)
    // Two steps are enough.
    expect(forRequest({}, [{ id: 'a' }, { id: 'b' }])).toBe(true)
  })
})
