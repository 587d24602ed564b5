/**
 * Funnel persons by `funnel_custom_steps` (issue 20), on every storage:
 * PostHog's `_get_funnel_person_step_condition` lists the actors whose
 * furthest step (1-based `steps`) is IN the list, the list wins over
 * `funnel_step`, and `funnel_step_breakdown` is ANDed on. The first examples
 * are PostHog's own (posthog/queries/funnels/test/test_funnel_persons.py,
 * `_create_sample_data_multiple_dropoffs`), counted by hand; the property
 * checks any list against the steps view's counts.
 */
import fc from 'fast-check'
import type { FunnelPersonsParams } from '@sightline/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { targets } from '../filters/filter-db.js'
import { dataset, ev } from '../reference/funnels/funnel-example-builders.js'
import type { RefEvent } from '../reference/shared/ref-dataset.js'
import { datasetArb, paramsArb } from './support/arbitraries.js'
import { openFunnelEngine, type FunnelEngine } from './support/engine.js'
import { loadExample } from './support/load-example.js'
import { reportBeforeTimeout } from '../execution/report-before-timeout.js'

const PAGE = { limit: 100, offset: 0 }
const RUNS = Number(process.env.SIGHTLINE_FUNNEL_RUNS ?? 6)
/** The test's bound (fast-check stops 20 s before it: reportBeforeTimeout). */
const TIMEOUT_MS = 120_000

/**
 * PostHog's sample: user_0..4 do all three steps (05-01, 05-03, 05-05),
 * user_5..14 the first two, user_15..34 only the first. Furthest steps:
 * 3 for 5 persons, 2 for 10, 1 for 20 (35 in all).
 */
function multipleDropoffs() {
  const events: RefEvent[] = []
  for (let i = 0; i < 35; i++) {
    events.push(ev(`user_${i}`, 'step one', '2021-05-01T00:00:00Z'))
    if (i < 15) events.push(ev(`user_${i}`, 'step two', '2021-05-03T00:00:00Z'))
    if (i < 5) events.push(ev(`user_${i}`, 'step three', '2021-05-05T00:00:00Z'))
  }
  return dataset(events, {}, { now: '2021-05-10T00:00:00Z' })
}
const THREE_STEPS = {
  date_from: '2021-05-01 00:00:00',
  date_to: '2021-05-07 00:00:00',
  funnel_window_days: 7,
  events: [{ id: 'step one', order: 0 }, { id: 'step two', order: 1 }, { id: 'step three', order: 2 }],
}

describe.each(targets)('funnel persons of custom steps on $name', (target) => {
  let engine: FunnelEngine
  // Generated and deliberately invalid requests go through the library as the HTTP adapter's would: typed only here.
  const persons = (projectId: number, params: Record<string, unknown>, page: { limit: number; offset: number }) =>
    engine.sightline.query.funnelPersons(projectId, params as unknown as FunnelPersonsParams, page)
  beforeAll(async () => {
    engine = await openFunnelEngine(target)
  })
  afterAll(() => engine?.close())

  const ids = async (projectId: number, params: Record<string, unknown>) => {
    const page = await persons(projectId, params, PAGE)
    return { count: page.count, ids: page.results.flatMap((a) => a.distinct_ids).sort() }
  }

  it("lists those whose furthest step is in the list, as PostHog's test counts them", async () => {
    const { projectId } = await loadExample(engine, multipleDropoffs())
    const count = async (extra: Record<string, unknown>) => (await persons(projectId, { ...THREE_STEPS, ...extra }, PAGE)).count
    // Equivalent to funnel_step (test_steps_with_custom_steps_parameter_are_equivalent_to_funnel_step):
    // 1 = [1,2,3]: 20 + 10 + 5 = 35; 2 = [2,3]: 10 + 5 = 15; 3 = [3]: 5; -2 = [1]: 20; -3 = [2]: 10.
    for (const [step, custom, expected] of [[1, [1, 2, 3], 35], [2, [2, 3], 15], [3, [3], 5], [-2, [1], 20], [-3, [2], 10]] as const) {
      expect([await count({ funnel_step: step }), await count({ funnel_custom_steps: custom })], `${step} ~ ${custom}`).toEqual([expected, expected])
    }
    // Lists no funnel_step can give (..._where_funnel_step_equivalence_isnt_possible):
    // [1,2]: 20 + 10 = 30; [1,3]: 20 + 5 = 25, in any order and with repeats.
    for (const [custom, expected] of [[[1, 2], 30], [[1, 3], 25], [[3, 1], 25], [[1, 3, 3, 1], 25]] as const) {
      expect(await count({ funnel_custom_steps: custom }), JSON.stringify(custom)).toBe(expected)
    }
    // The list wins over funnel_step (..._overrides_funnel_step): funnel_step 1 alone is 35, with [3] it is 5.
    expect(await count({ funnel_step: 1, funnel_custom_steps: [3] })).toBe(5)
    // As a people URL carries it (GET text), and steps no one can stop at (0, 4, -1) match nobody, as SQL's IN.
    expect(await count({ funnel_custom_steps: '[2]' })).toBe(10)
    expect(await count({ funnel_custom_steps: [0, 4, -1] })).toBe(0)
    expect(await count({ funnel_custom_steps: [0, 2] })).toBe(10)
    // An empty list asks for nothing: funnel_step decides.
    expect(await count({ funnel_step: -2, funnel_custom_steps: [] })).toBe(20)
  })

  it('pages through the union of steps', async () => {
    const { projectId } = await loadExample(engine, multipleDropoffs())
    const params = { ...THREE_STEPS, funnel_custom_steps: [1, 3] }
    // 25 persons (20 + 5), ordered by id: pages of 10 hold 10, 10 and 5, together each of them once.
    // One page at a time: a project runs at most 3 analyses at once through sightline.query.
    const pages = []
    for (const offset of [0, 10, 20]) pages.push(await persons(projectId, params, { limit: 10, offset }))
    expect(pages.map((p) => [p.count, p.results.length])).toEqual([[25, 10], [25, 10], [25, 5]])
    const seen = pages.flatMap((p) => p.results.flatMap((a) => a.distinct_ids))
    // user_0..4 (furthest 3) and user_15..34 (furthest 1); none of user_5..14 (furthest 2).
    const expected = [...Array.from({ length: 5 }, (_, i) => `user_${i}`), ...Array.from({ length: 20 }, (_, i) => `user_${i + 15}`)]
    expect(seen.sort()).toEqual(expected.sort())
  })

  it('ANDs funnel_step_breakdown on, as PostHog joins the two conditions', async () => {
    // PostHog's _create_browser_breakdown_events: person1 (Chrome) does all three steps, person2 (Safari) the first two.
    const data = dataset(
      [
        ev('person1', 'sign up', '2020-01-01T12:00:00Z', { $browser: 'Chrome' }),
        ev('person1', 'play movie', '2020-01-01T13:00:00Z', { $browser: 'Chrome' }),
        ev('person1', 'buy', '2020-01-01T15:00:00Z', { $browser: 'Chrome' }),
        ev('person2', 'sign up', '2020-01-02T14:00:00Z', { $browser: 'Safari' }),
        ev('person2', 'play movie', '2020-01-02T16:00:00Z', { $browser: 'Safari' }),
      ],
      {},
      { now: '2020-01-10T00:00:00Z' },
    )
    const { projectId } = await loadExample(engine, data)
    const params = {
      date_from: '2020-01-01',
      date_to: '2020-01-08',
      funnel_window_days: 7,
      events: [{ id: 'sign up', order: 0 }, { id: 'play movie', order: 1 }, { id: 'buy', order: 2 }],
      breakdown_type: 'event',
      breakdown: '$browser',
    }
    // Furthest steps: person1 3 (Chrome), person2 2 (Safari).
    expect(await ids(projectId, { ...params, funnel_custom_steps: [2] })).toEqual({ count: 1, ids: ['person2'] })
    expect(await ids(projectId, { ...params, funnel_custom_steps: [2], funnel_step_breakdown: 'Chrome' })).toEqual({ count: 0, ids: [] })
    expect(await ids(projectId, { ...params, funnel_custom_steps: [2, 3], funnel_step_breakdown: 'Chrome' })).toEqual({ count: 1, ids: ['person1'] })
    expect(await ids(projectId, { ...params, funnel_custom_steps: [2, 3], funnel_step_breakdown: ['Safari'] })).toEqual({ count: 1, ids: ['person2'] })
    // funnel_step 3 alone would list person1 under Chrome; the list [2] wins over it.
    expect(await ids(projectId, { ...params, funnel_step: 3, funnel_custom_steps: [2], funnel_step_breakdown: 'Safari' })).toEqual({ count: 1, ids: ['person2'] })
  })

  it('refuses steps that are not integers, naming funnel_custom_steps', async () => {
    const { projectId } = await loadExample(engine, dataset([]))
    for (const bad of [['1'], [1.5], 'steps', { 1: true }]) {
      await expect(persons(projectId, { ...THREE_STEPS, funnel_custom_steps: bad }, PAGE), JSON.stringify(bad)).rejects.toMatchObject({ attr: expect.stringMatching(/^funnel_custom_steps/) })
    }
  })

  it("any list counts the sum of the steps view's exact counts (count k minus count k+1) over its distinct steps", async () => {
    await fc.assert(
      fc.asyncProperty(datasetArb, paramsArb(['ordered', 'strict', 'unordered']), fc.uniqueArray(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }), async (data, params, custom) => {
        const loaded = await loadExample(engine, data)
        const request = loaded.params(params)
        const { result } = await engine.sightline.query.funnel(loaded.projectId, request)
        // With a breakdown, no funnel_step_breakdown lists every series' runs: the sum over the series.
        const series = (Array.isArray((result as unknown[])[0]) ? result : [result]) as Array<Array<{ count: number }>>
        // Exactly k (1-based) = count of step k - count of step k+1 (0 past the last step); steps past the funnel count 0.
        const exactly = (counts: number[], k: number) => (k > counts.length ? 0 : counts[k - 1]! - (counts[k] ?? 0))
        const expected = series.reduce((sum, steps) => sum + custom.reduce((s, k) => s + exactly(steps.map((x) => x.count), k), 0), 0)
        const page = await persons(loaded.projectId, { ...request, funnel_custom_steps: custom }, { limit: 1, offset: 0 })
        expect(page.count, JSON.stringify({ series: series.map((s) => s.map((x) => x.count)), custom })).toBe(expected)
      }),
      { numRuns: RUNS, ...reportBeforeTimeout(TIMEOUT_MS) },
    )
  }, TIMEOUT_MS)
})
