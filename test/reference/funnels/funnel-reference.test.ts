import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { RefValidationError as ValidationError } from '../shared/ref-dates.js'
import { breakdownArb, datasetArb, distinctTimesDatasetArb, exclusionArb, funnelParamsArb } from './funnel-arbitraries.js'
import type { FunnelExampleData } from './funnel-dataset.js'
import { FIRST_TIME_EXAMPLES } from './funnel-examples-first-time.js'
import { FUNNEL_EXAMPLES, toRefDataset } from './funnel-examples.js'
import { referenceFunnel } from './funnel-reference.js'

describe('funnel reference: worked examples', () => {
  it('has at least 30 examples with distinct names', () => {
    expect(FUNNEL_EXAMPLES.length).toBeGreaterThanOrEqual(30)
    expect(new Set(FUNNEL_EXAMPLES.map((e) => e.name)).size).toBe(FUNNEL_EXAMPLES.length)
  })

  for (const example of FUNNEL_EXAMPLES) {
    it(example.name, async () => {
      const run = referenceFunnel(example.params, toRefDataset(example.data))
      const expected = example.expected as { validationError?: string }
      if (expected && typeof expected === 'object' && 'validationError' in expected) {
        const error = await run.then(() => null, (e: unknown) => e)
        expect(error).toBeInstanceOf(ValidationError)
        expect((error as ValidationError).attr).toBe(expected.validationError)
      } else {
        expect(await run).toEqual(example.expected)
      }
    })
  }
})

describe('funnel reference: first-time step maths, worked examples', () => {
  for (const example of FIRST_TIME_EXAMPLES) {
    it(example.name, async () => {
      expect(await referenceFunnel(example.params, toRefDataset(example.data)), example.why).toEqual(example.expected)
    })
  }
})

type Step = { count: number }
const countsOf = (result: unknown): number[] => (result as Step[]).map((s) => s.count)
const seriesOf = (result: unknown): Step[][] => result as Step[][]
const run = (params: Record<string, unknown>, data: FunnelExampleData) => referenceFunnel(params, toRefDataset(data))
const RUNS = { numRuns: 300 }

/** No event can match two steps: no repeated step and no "All events" step. */
const disjointSteps = (p: { events: ReadonlyArray<{ id: string | null }> }): boolean => {
  const ids = p.events.map((e) => e.id)
  return !ids.includes(null) && new Set(ids).size === ids.length
}

describe('funnel reference: invariants on random funnels', () => {
  it('counts never rise from one step to the next (with or without a breakdown)', async () => {
    await fc.assert(
      fc.asyncProperty(datasetArb, funnelParamsArb, fc.option(breakdownArb), async (data, params, breakdown) => {
        const result = await run({ ...params, ...(breakdown ?? {}) }, data)
        for (const counts of breakdown ? seriesOf(result).map(countsOf) : [countsOf(result)]) {
          for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeLessThanOrEqual(counts[i - 1]!)
        }
      }),
      RUNS,
    )
  })

  // Unordered funnels with overlapping steps are left out: the UDF files an
  // event under one step greedily, and a wider window can change that choice
  // for the worse (worked example 'unordered, greedy filing').
  it('widening the window never lowers a count (no exclusions: a wider window lets an exclusion reach further)', async () => {
    const params = funnelParamsArb.filter((p) => p.funnel_order_type !== 'unordered' || disjointSteps(p))
    await fc.assert(
      fc.asyncProperty(datasetArb, params, fc.integer({ min: 1, max: 30 }), async (data, params, extra) => {
        const narrow = countsOf(await run(params, data))
        const wide = countsOf(await run({ ...params, funnel_window_interval: params.funnel_window_interval + extra }, data))
        narrow.forEach((c, i) => expect(wide[i]).toBeGreaterThanOrEqual(c))
      }),
      RUNS,
    )
  })

  it('adding an exclusion never raises a count (strict: no shared timestamps, see distinctTimesDatasetArb)', async () => {
    const arb = funnelParamsArb.chain((params) =>
      fc.tuple(
        params.funnel_order_type === 'strict' ? distinctTimesDatasetArb : datasetArb,
        exclusionArb(params.events.length, params.funnel_order_type === 'unordered'),
      ).map(([data, exclusion]) => ({ data, params, exclusion })),
    )
    await fc.assert(
      fc.asyncProperty(arb, async ({ data, params, exclusion }) => {
        const without = countsOf(await run(params, data))
        const withIt = countsOf(await run({ ...params, exclusions: [exclusion] }, data))
        without.forEach((c, i) => expect(withIt[i]).toBeLessThanOrEqual(c))
      }),
      RUNS,
    )
  })

  it('first_touch and last_touch breakdowns add up to the total at step 0 (no limit)', async () => {
    await fc.assert(
      fc.asyncProperty(datasetArb, funnelParamsArb, breakdownArb, fc.constantFrom('first_touch', 'last_touch'), async (data, params, b, touch) => {
        const total = countsOf(await run(params, data))[0]!
        const series = seriesOf(await run({ ...params, ...b, breakdown_attribution_type: touch, breakdown_limit: 1000 }, data))
        expect(series.reduce((sum, steps) => sum + steps[0]!.count, 0)).toBe(total)
      }),
      RUNS,
    )
  })

  it('ordered >= strict at every step', async () => {
    await fc.assert(
      fc.asyncProperty(datasetArb, funnelParamsArb, async (data, params) => {
        const ordered = countsOf(await run({ ...params, funnel_order_type: 'ordered' }, data))
        const strict = countsOf(await run({ ...params, funnel_order_type: 'strict' }, data))
        ordered.forEach((c, i) => expect(c).toBeGreaterThanOrEqual(strict[i]!))
      }),
      RUNS,
    )
  })

  // When one event can match several steps (a repeated step, "All events"),
  // the unordered UDF files it greedily under one step and can do worse than
  // the ordered funnel; PostHog does the same, so the comparison needs disjoint steps.
  it('unordered >= ordered at every step when each event matches at most one step', async () => {
    const disjoint = funnelParamsArb.filter(disjointSteps)
    await fc.assert(
      fc.asyncProperty(datasetArb, disjoint, async (data, params) => {
        const unordered = countsOf(await run({ ...params, funnel_order_type: 'unordered' }, data))
        const ordered = countsOf(await run({ ...params, funnel_order_type: 'ordered' }, data))
        ordered.forEach((c, i) => expect(unordered[i]).toBeGreaterThanOrEqual(c))
      }),
      RUNS,
    )
  })

  it('time to convert puts every target that reached funnel_to_step in a bin', async () => {
    await fc.assert(
      fc.asyncProperty(datasetArb, funnelParamsArb, async (data, params) => {
        const to = params.events.length - 1
        const steps = countsOf(await run(params, data))
        const ttc = (await run({ ...params, funnel_viz_type: 'time_to_convert', funnel_to_step: to }, data)) as { bins: number[][] }
        expect(ttc.bins.reduce((sum, [, n]) => sum + n!, 0)).toBe(steps[to])
      }),
      RUNS,
    )
  })
})
