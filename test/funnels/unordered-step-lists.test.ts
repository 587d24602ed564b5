/**
 * The unordered funnel's step lists (unordered-lists-sql.ts) on the storage
 * that declares list functions (DuckDB), over hand-written `runs` rows:
 * which runs they decide (`ulo.sure`), and for those the depth and times
 * worked out by hand from funnels.md §5 (unordered_steps.rs). A run they
 * leave to the window passes is answered the same (the worked examples and
 * reference properties hold both), so only this test sees the choice.
 */
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { withCtes } from '../../packages/core/src/query/funnels/compile/sql-kit.js'
import { unorderedListsCtes, unorderedListsFor } from '../../packages/core/src/query/funnels/compile/unordered-lists-sql.js'
import { planFunnel } from '../../packages/core/src/query/funnels/funnel-plan.js'
import { decodeFunnelRequest } from '../../packages/core/src/query/funnels/params/decode-funnel-params.js'
import { dialectDb } from '../filters/dialect-db.js'
import { duckdbMemory } from '../targets/duckdb.js'

const MINUTE = 60_000_000
const T = 1_709_632_800_000_000 // 2024-03-05T10:00:00Z in microseconds
/** The times the rows below fall in, as a funnel's date range bounds its events: a year on either side of T. */
const SPAN = { fromMicros: T - 365 * 1440 * MINUTE, toMicros: T + 365 * 1440 * MINUTE }
/** A run's event: its time in minutes after T and its step mask (a = 1, b = 2, c = 4). */
type Row = readonly [minutes: number, mask: number]

const request = (extra: Record<string, unknown> = {}) =>
  decodeFunnelRequest({ events: [{ id: 'a' }, { id: 'b' }, { id: 'c' }], date_from: '-7d', funnel_order_type: 'unordered', funnel_window_interval: 10, funnel_window_interval_unit: 'minute', ...extra })
const plan = planFunnel(request(), 3)

// Each run's lists gathered both ways, as in step-lists.test.ts: one tagged list, and a `list` per step.
describe.each(['tagged', 'a list per step'])('unordered step lists (%s)', (gathering) => {
  const { db, hooks } = dialectDb(duckdbMemory)
  const lists = () => (gathering === 'tagged' ? hooks().lists! : { ...hooks().lists!, tagged: undefined })

  async function decide(runs: Record<string, ReadonlyArray<Row>>): Promise<Record<string, { sure: number; reached: number; minutes: Array<number | null> }>> {
    const rows = Object.entries(runs).flatMap(([tgt, events]) => events.map(([minutes, mask], i) => sql`(${tgt}, ${T + minutes * MINUTE}, ${`${tgt}-${i}`}, ${mask})`))
    const source = sql`select tgt, '' as p0, cast(ts as bigint) as ts, uuid, cast(sm as bigint) as sm, cast(0 as bigint) as xm from (values ${sql.join(rows)}) as r(tgt, ts, uuid, sm)`
    const query = withCtes([['runs', source], ...unorderedListsCtes(plan, lists(), SPAN)], sql`select tgt, sure, reached, t1, t2, t3 from ulo`)
    const { rows: out } = await query.execute(db())
    const minutes = (v: unknown) => (v === null ? null : (Number(v) - T) / MINUTE)
    return Object.fromEntries(
      (out as Array<Record<string, unknown>>).map((r) => [r.tgt as string, { sure: Number(r.sure), reached: Number(r.reached), minutes: [minutes(r.t1), minutes(r.t2), minutes(r.t3)] }]),
    )
  }

  it('finds the first window holding the most steps, with each step\'s first time in it, sorted', async () => {
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
        // One step only, many times.
        alone: [[0, 2], [3, 2], [30, 2]],
      }),
    ).toEqual({
      reversed: { sure: 1, reached: 2, minutes: [0, 1, 2] },
      twoWindows: { sure: 1, reached: 1, minutes: [0, 5, null] },
      laterBest: { sure: 1, reached: 2, minutes: [20, 25, 28] },
      edge: { sure: 1, reached: 1, minutes: [0, 10, null] },
      alone: { sure: 1, reached: 0, minutes: [0, null, null] },
    })
  })

  it('decides runs with events sharing an instant (the processing order among them changes no count and no time)', async () => {
    expect(
      await decide({
        tied: [[0, 1], [0, 2], [0, 4]],
        tiedLater: [[0, 2], [4, 1], [4, 4]],
      }),
    ).toEqual({
      tied: { sure: 1, reached: 2, minutes: [0, 0, 0] },
      tiedLater: { sure: 1, reached: 2, minutes: [0, 4, 4] },
    })
  })

  it('leaves to the passes a run of more than 64 events (each start reads every list), and decides one of 64', async () => {
    const cycling = (count: number): Row[] => Array.from({ length: count }, (_, i) => [i * 20, 2 ** (i % 3)] as const)
    const out = await decide({ over: cycling(65), at: cycling(64) })
    // A run left to the passes is followed from its first time only, so its `reached` there is not its answer.
    expect(out.over!.sure).toBe(0)
    // Events 20 minutes apart: no window holds two.
    expect(out.at).toEqual({ sure: 1, reached: 0, minutes: [0, null, null] })
  })

  it('is used only where its rules hold: no exclusion, no step attribution, no repeated or overlapping step, not trends', () => {
    const lists = hooks().lists!
    const forRequest = (extra: Record<string, unknown>, steps?: ReadonlyArray<Record<string, unknown>>) => {
      const r = request({ ...extra, ...(steps ? { events: steps } : {}) })
      return unorderedListsFor(planFunnel(r, r.steps.length), hooks())
    }
    expect(unorderedListsFor(plan, hooks())).toBe(lists)
    // A step one event can match together with another keeps the passes: All events, an action, one name under two filters.
    expect(forRequest({}, [{ id: 'a' }, { id: null }])).toBeNull()
    expect(forRequest({ actions: [{ id: 7, order: 1 }] }, [{ id: 'a', order: 0 }])).toBeNull()
    expect(forRequest({}, [{ id: 'a', properties: [{ key: 'plan', value: 'pro', type: 'event' }] }, { id: 'a' }])).toBeNull()
    expect(forRequest({ exclusions: [{ id: 'x', type: 'events', funnel_from_step: 0, funnel_to_step: 2 }] })).toBeNull()
    expect(forRequest({ breakdown: '$browser', breakdown_attribution_type: 'step', breakdown_attribution_value: 0 })).toBeNull()
    expect(forRequest({}, [{ id: 'a' }, { id: 'b' }, { id: 'a' }])).toBeNull()
    expect(forRequest({ funnel_order_type: 'ordered' })).toBeNull()
    const trends = request({ funnel_viz_type: 'trends' })
    expect(unorderedListsFor(planFunnel(trends, trends.steps.length), hooks())).toBeNull()
    // A breakdown (first touch) keeps the lists: runs are per person and value.
    expect(forRequest({ breakdown: '$browser' })).toBe(lists)
    // Two steps are enough.
    expect(forRequest({}, [{ id: 'a' }, { id: 'b' }])).toBe(lists)
  })
})
