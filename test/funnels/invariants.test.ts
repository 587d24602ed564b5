/**
 * Invariants of the steps view on every target, on random small funnels:
 * counts never rise from one step to the next; widening the window never
 * lowers a count (without exclusions: a wider window also lets an exclusion
 * reach further); adding an exclusion never raises one (with no two events
 * at one instant: a split instant drops exclusion codes); with first- or
 * last-touch attribution and no "Other", breakdown counts add up to the total.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { targets } from '../filters/filter-db.js'
import type { FunnelExampleData } from '../reference/funnels/funnel-dataset.js'
import { datasetArb, distinctTimesArb, paramsArb } from './support/arbitraries.js'
import { openFunnelEngine, type FunnelEngine } from './support/engine.js'
import { loadExample } from './support/load-example.js'

type Step = { count: number }
const RUNS = Number(process.env.SIGHTLINE_FUNNEL_INVARIANT_RUNS ?? 8)
const counts = (steps: Step[]) => steps.map((s) => s.count)
const plain = (params: Record<string, unknown>) => {
  const { breakdown: _b, breakdown_type: _t, breakdown_group_type_index: _g, breakdown_limit: _l, breakdown_attribution_type: _a, breakdown_attribution_value: _v, exclusions: _x, ...rest } = params
  return rest
}

describe.each(targets)('funnel invariants on $name', (target) => {
  let engine: FunnelEngine
  beforeAll(async () => {
    engine = await openFunnelEngine(target)
  })
  afterAll(() => engine?.close())

  const check = (data: fc.Arbitrary<FunnelExampleData>, body: (run: (p: Record<string, unknown>) => Promise<unknown>, params: Record<string, unknown>) => Promise<void>) =>
    fc.assert(
      fc.asyncProperty(data, fc.array(paramsArb(['ordered', 'strict', 'unordered'], { disjointSteps: true }), { minLength: 3, maxLength: 3 }), async (d, requests) => {
        const loaded = await loadExample(engine, d)
        const run = async (p: Record<string, unknown>) => (await engine.sightline.query.funnel(loaded.projectId, loaded.params(p))).result
        for (const params of requests) await body(run, params)
      }),
      { numRuns: RUNS },
    )

  // One load per dataset for the three invariants that hold on any data (ties included).
  it('counts never rise from one step to the next (with or without a breakdown), widening the window never lowers a count, first and last touch breakdowns add up to the total', async () => {
    await check(datasetArb, async (run, params) => {
      const result = (await run(params)) as Step[] | Step[][]
      const series = params.breakdown ? (result as Step[][]) : [result as Step[]]
      for (const steps of series) counts(steps).forEach((c, i, all) => i > 0 && expect(c).toBeLessThanOrEqual(all[i - 1]!))

      const p = plain(params)
      const narrow = counts((await run(p)) as Step[])
      const wide = counts((await run({ ...p, funnel_window_interval: (p.funnel_window_interval as number) + 20 })) as Step[])
      narrow.forEach((c, i) => expect(wide[i]).toBeGreaterThanOrEqual(c))

      for (const attribution of ['first_touch', 'last_touch']) {
        const touched = (await run({ ...p, breakdown: ['$browser', '$os'], breakdown_type: 'event', breakdown_attribution_type: attribution, breakdown_limit: 100 })) as Step[][]
        const sums = narrow.map((_, i) => touched.reduce((s, steps) => s + steps[i]!.count, 0))
        expect(sums).toEqual(narrow)
      }
    })
  }, 120_000)

  it('adding an exclusion never raises a count', async () => {
    await check(distinctTimesArb, async (run, params) => {
      const p = plain(params)
      const without = counts((await run(p)) as Step[])
      const withX = counts((await run({ ...p, exclusions: [{ id: 'x', funnel_from_step: 0, funnel_to_step: without.length - 1 }] })) as Step[])
      without.forEach((c, i) => expect(withX[i]).toBeLessThanOrEqual(c))
    })
  }, 120_000)
})
