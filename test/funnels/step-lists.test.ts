/**
 * Which runs the ordered funnel's step lists decide (`slo.sure`), on the
 * storage that declares list functions (DuckDB): the lists' SQL
 * (funnel-lists-sql.ts) over hand-written `runs` rows. A run they leave to
 * the window passes is answered the same (the worked examples and reference
 * properties hold both), so only this test sees the choice: a same-instant
 * tie must go to the passes, and a run without one must not, or the lists
 * buy nothing.
 */
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { stepListsCtes } from '../../packages/core/src/query/funnels/compile/funnel-lists-sql.js'
import { withCtes } from '../../packages/core/src/query/funnels/compile/sql-kit.js'
import { planFunnel } from '../../packages/core/src/query/funnels/funnel-plan.js'
import { decodeFunnelRequest } from '../../packages/core/src/query/funnels/params/decode-funnel-params.js'
import { dialectDb } from '../filters/dialect-db.js'
import { duckdbMemory } from '../targets/duckdb.js'

const MINUTE = 60_000_000
const T = 1_709_632_800_000_000 // 2024-03-05T10:00:00Z in microseconds
/** The times the rows below fall in, as a funnel's date range bounds its events: a year on either side of T. */
const SPAN = { fromMicros: T - 365 * 1440 * MINUTE, toMicros: T + 365 * 1440 * MINUTE }
/** A run's event: its time in minutes after T and its step mask (bit k: matches 0-based step k). */
type Row = readonly [minutes: number, mask: number]

// Three steps a, b, c; masks: a = 1, b = 2, c = 4, an event matching a and b = 3 (b is "All events" here, so one
// event can match two steps; of three event names, `disjoint`, none can).
const plan = planFunnel(decodeFunnelRequest({ events: [{ id: 'a' }, { id: null }, { id: 'c' }], date_from: '-7d' }), 3)
const disjoint = planFunnel(decodeFunnelRequest({ events: [{ id: 'a' }, { id: 'b' }, { id: 'c' }], date_from: '-7d' }), 3)

// Each run's lists gathered both ways: one tagged list read back per step (DuckDB's `ListHooks.tagged`), and a `list` per
// step (the spelling where a range's times and the step bits do not fit one element).
describe.each(['tagged', 'a list per step'])('step lists (%s): the runs they decide', (gathering) => {
  const { db, hooks } = dialectDb(duckdbMemory)
  const lists = () => (gathering === 'tagged' ? hooks().lists! : { ...hooks().lists!, tagged: undefined })

  async function sure(runs: Record<string, ReadonlyArray<Row>>, of = plan): Promise<Record<string, { sure: number; reached: number }>> {
    const rows = Object.entries(runs).flatMap(([tgt, events]) => events.map(([minutes, mask], i) => sql`(${tgt}, ${T + minutes * MINUTE}, ${`${tgt}-${i}`}, ${mask})`))
    const source = sql`select tgt, '' as p0, cast(ts as bigint) as ts, uuid, cast(sm as bigint) as sm, cast(0 as bigint) as xm from (values ${sql.join(rows)}) as r(tgt, ts, uuid, sm)`
    const query = withCtes([['runs', source], ...stepListsCtes(of, lists(), SPAN)], sql`select tgt, sure, reached from slo`)
    const { rows: out } = await query.execute(db())
    return Object.fromEntries((out as Array<{ tgt: string; sure: unknown; reached: unknown }>).map((r) => [r.tgt, { sure: Number(r.sure), reached: Number(r.reached) }]))
  }

  it('decides runs whose events are at distinct instants, and one event matching two steps alone at its instant', async () => {
    expect(
      await sure({
        plain: [[0, 1], [1, 2], [2, 4]],
        // a-and-b at 0 starts a path; its b cannot be that path's step 1, so b at 1 is, and c at 2 its step 2.
        twoSteps: [[0, 3], [1, 2], [2, 4]],
        // Two a at one instant are one start; nothing of step 1 shares it.
        twinStarts: [[0, 1], [0, 1], [5, 2]],
      }),
    ).toEqual({ plain: { sure: 1, reached: 2 }, twoSteps: { sure: 1, reached: 2 }, twinStarts: { sure: 1, reached: 1 } })
  })

  it('leaves same-instant ties to the passes', async () => {
    const out = await sure({
      // a and b at one instant (a split instant): steps.rs chains them at that instant.
      split: [[0, 1], [0, 2]],
      // The event matching a and b shares its instant with c: steps.rs takes its a first (funnels.md, split instants).
      crowded: [[0, 1], [3, 3], [3, 4]],
      // Two events matching a and b at one instant: the second is step 1 of the path the first started.
      twins: [[0, 3], [0, 3]],
      // b at the instant a path reached it, c there too: the path's step 2 at its own instant.
      laterTie: [[0, 1], [2, 2], [2, 4]],
    })
    expect(Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.sure]))).toEqual({ split: 0, crowded: 0, twins: 0, laterTie: 0 })
  })

  it('with steps no event can match together, leaves every tie to the passes and decides the rest', async () => {
    const out = await sure({ split: [[0, 1], [0, 2]], laterTie: [[0, 1], [2, 2], [2, 4]], plain: [[0, 1], [1, 2], [2, 4]] }, disjoint)
    // A run left to the passes has no answer here (`reached` is not read there).
    expect([out.split!.sure, out.laterTie!.sure]).toEqual([0, 0])
    expect(out.plain).toEqual({ sure: 1, reached: 2 })
  })

  it('leaves to the passes a run whose lists would cost more than 64 times their elements, and decides one just under', async () => {
    // 130 starts x 130 later times = 16,900 > 64 x 260 = 16,640; 120 x 120 = 14,400 <= 64 x 240 = 15,360.
    const alternating = (pairs: number): Row[] => Array.from({ length: 2 * pairs }, (_, i) => [i, i % 2 === 0 ? 1 : 2] as const)
    const out = await sure({ over: alternating(130), under: alternating(120) })
    // A run left to the passes is followed from its first start only, so its `reached` there is not its answer.
    expect(out.over!.sure).toBe(0)
    expect(out.under).toEqual({ sure: 1, reached: 1 })
  })
})
