/**
 * Funnel paths against the reference (test/reference/funnels/funnel-path-reference.ts,
 * the funnel and paths references composed), on every storage: random
 * datasets and paths requests (the paths property's generators) with a
 * random funnel over the datasets' events (2 or 3 steps, a window of 10 to
 * 90 minutes, any order type), a step or drop-off and a path type; the same
 * edges in the same order, and the same persons behind a random edge.
 * Reach, measured over 60 requests: about 30% have edges (the paths
 * generators' points and weights cut the rest), 1 to 11 of them.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { PathPersonsParams, PathsParams } from '@sightline/core'
import { describePropertySkip, propertyTargets } from '../filters/filter-db.js'
import { referenceFunnelPathActors, referenceFunnelPaths, type RefFunnelPathsParams } from '../reference/funnels/funnel-path-reference.js'
import { openTrendEngine, type TrendEngine } from '../trends/support/engine.js'
import { PATHS_NOW, pathsDataset, pathsParams } from './arbitraries.js'
import { actorKeysOf } from './support.js'
import { reportBeforeTimeout } from '../execution/report-before-timeout.js'

const RUNS = Number(process.env.SIGHTLINE_FUNNEL_PATHS_RUNS ?? 12)
const SEED = process.env.SIGHTLINE_FUNNEL_PATHS_SEED === undefined ? undefined : Number(process.env.SIGHTLINE_FUNNEL_PATHS_SEED)
/** The test's bound (fast-check stops 20 s before it: reportBeforeTimeout). */
const TIMEOUT_MS = 180_000

/** A funnel over the generators' event names, the whole generated stretch, and which of its persons' paths. */
const funnelPaths = fc
  .record({
    steps: fc.array(fc.constantFrom('$pageview', 'signup', 'buy', '$screen'), { minLength: 2, maxLength: 3 }),
    order: fc.constantFrom('ordered', 'strict', 'unordered'),
    window: fc.integer({ min: 10, max: 90 }),
    type: fc.constantFrom('funnel_path_after_step', 'funnel_path_before_step', 'funnel_path_between_steps'),
    pick: fc.nat(),
    edge: fc.nat(),
  })
  .map((r) => {
    const n = r.steps.length
    // funnel_step 1..n, or -n..-2; between needs a step before the target (2..n, or -n..-3).
    const choices = r.type === 'funnel_path_between_steps' ? [...range(2, n), ...range(3, n).map((k) => -k)] : [...range(1, n), ...range(2, n).map((k) => -k)]
    const funnel_step = choices[r.pick % choices.length]
    return {
      type: r.type,
      edge: r.edge,
      funnel: funnel_step === undefined ? null : {
        events: r.steps.map((id, order) => ({ id, order })),
        funnel_order_type: r.order,
        funnel_window_interval: r.window,
        funnel_window_interval_unit: 'minute',
        date_from: '2024-03-09',
        date_to: '2024-03-11',
        funnel_step,
      },
    }
  })
const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i)

describePropertySkip()

for (const target of propertyTargets) {
  describe(target.name, () => {
    let engine: TrendEngine
    beforeAll(async () => {
      engine = await openTrendEngine(target, () => PATHS_NOW)
    })
    afterAll(async () => engine?.close())

    test(`funnel paths agree with the reference (${RUNS} runs)`, { timeout: TIMEOUT_MS }, async () => {
      await fc.assert(
        fc.asyncProperty(pathsDataset, pathsParams, funnelPaths, async (data, paths, f) => {
          if (f.funnel === null) return
          const projectId = await engine.load(data)
          const params = { ...paths, funnel_paths: f.type, funnel_filter: f.funnel } as RefFunnelPathsParams
          const expected = await referenceFunnelPaths(params, data)
          const actual = (await engine.sightline.query.paths(projectId, params as PathsParams)).result
          expect(actual.map((e) => [e.source, e.target, e.value]), JSON.stringify(params)).toEqual(expected.map((e) => [e.source, e.target, e.value]))
          actual.forEach((e, i) => expect(Math.abs(e.average_conversion_time - expected[i]!.average_conversion_time)).toBeLessThan(0.001))
          const edge = expected.length > 0 ? expected[f.edge % expected.length]! : null
          const keys = edge ? { ...params, path_start_key: edge.source, path_end_key: edge.target } : params
          const persons = await referenceFunnelPathActors(keys, data)
          const page = await engine.sightline.query.pathPersons(projectId, keys as PathPersonsParams, { limit: 100, offset: 0 })
          expect([...page.results.map((a) => actorKeysOf(a.distinct_ids, data))].sort(), JSON.stringify(keys)).toEqual([...persons.keys()].sort())
        }),
        { numRuns: RUNS, ...reportBeforeTimeout(TIMEOUT_MS), ...(SEED === undefined ? {} : { seed: SEED }) },
      )
    })
  })
}
