/**
 * PostHog's own funnel paths examples (ee/clickhouse/queries/test/test_paths.py:
 * `_create_sample_data_multiple_dropoffs` and test_path_by_funnel_after_dropoff,
 * _after_step, _before_dropoff, _before_step, _between_step), on every
 * storage, with their expected edges; the counts are re-derived below.
 * The request is PostHog's: one `data` read as both the paths filter and the
 * funnel (a three-step funnel, a 7-day window, `funnel_step`).
 */
import { describe, expect, it } from 'vitest'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'
import { dataset, ev } from '../reference/funnels/funnel-example-builders.js'
import type { RefEvent } from '../reference/shared/ref-dataset.js'
import { loadedProject } from '../funnels/support/loaded-project.js'
import { toRefDataset } from '../reference/funnels/funnel-dataset.js'
import { referenceFunnelPaths } from '../reference/funnels/funnel-path-reference.js'

/**
 * user_0..4: step one 00:00, between_step_1_a 00:01, _b 00:02, _c 00:03, step two 00:04, step three 00:05.
 * user_5..14: step one 00:00, between_step_1_a 00:01, _b 00:02, step two 00:03, between_step_2_a 00:04:20, _b 00:05:40.
 * user_15..34: step one 00:00, step dropoff1 00:01, step dropoff2 00:02, and step branch 00:03 for even i.
 */
function multipleDropoffs() {
  const events: RefEvent[] = []
  const at = (time: string) => `2021-05-01T${time}Z`
  const add = (i: number, list: Array<[string, string]>) => list.forEach(([event, time]) => events.push(ev(`user_${i}`, event, at(time))))
  for (let i = 0; i < 35; i++) {
    if (i < 5) add(i, [['step one', '00:00:00'], ['between_step_1_a', '00:01:00'], ['between_step_1_b', '00:02:00'], ['between_step_1_c', '00:03:00'], ['step two', '00:04:00'], ['step three', '00:05:00']])
    else if (i < 15) add(i, [['step one', '00:00:00'], ['between_step_1_a', '00:01:00'], ['between_step_1_b', '00:02:00'], ['step two', '00:03:00'], ['between_step_2_a', '00:04:20'], ['between_step_2_b', '00:05:40']])
    else add(i, [['step one', '00:00:00'], ['step dropoff1', '00:01:00'], ['step dropoff2', '00:02:00'], ...(i % 2 === 0 ? ([['step branch', '00:03:00']] as Array<[string, string]>) : [])])
  }
  return dataset(events, {}, { now: '2021-05-10T00:00:00Z' })
}

const DATA = {
  insight: 'FUNNELS',
  interval: 'day',
  date_from: '2021-05-01 00:00:00',
  date_to: '2021-05-07 00:00:00',
  funnel_window_interval: 7,
  funnel_window_interval_unit: 'day',
  events: [{ id: 'step one', order: 0 }, { id: 'step two', order: 1 }, { id: 'step three', order: 2 }],
}

const edge = (source: string, target: string, value: number, average_conversion_time: number) => ({ source, target, value, average_conversion_time })
// user_0..14 (15) reached step two; up to it, and between step one (00:00, their first event) and it, the same:
// 15 through between_step_1_a and _b; user_5..14 (10) then step two, user_0..4 (5) between_step_1_c then step two.
const UP_TO_STEP_TWO = [
  edge('1_step one', '2_between_step_1_a', 15, 60000),
  edge('2_between_step_1_a', '3_between_step_1_b', 15, 60000),
  edge('3_between_step_1_b', '4_step two', 10, 60000),
  edge('3_between_step_1_b', '4_between_step_1_c', 5, 60000),
  edge('4_between_step_1_c', '5_step two', 5, 60000),
]

/** PostHog's expected edges by "<funnel_paths> <funnel_step>". */
const EXPECTED: Record<string, ReturnType<typeof edge>[]> = {
  // user_15..34 (20) stopped at step one (00:00); their events from then on; step branch for the 10 even ones.
  'funnel_path_after_step -2': [
    edge('1_step one', '2_step dropoff1', 20, 60000),
    edge('2_step dropoff1', '3_step dropoff2', 20, 60000),
    edge('3_step dropoff2', '4_step branch', 10, 60000),
  ],
  // user_5..14 (10) from step two at 00:03: between_step_2_a (+80 s), _b (+80 s); user_0..4 (5) from 00:04: step three (+60 s).
  'funnel_path_after_step 2': [
    edge('1_step two', '2_between_step_2_a', 10, 80000),
    edge('2_between_step_2_a', '3_between_step_2_b', 10, 80000),
    edge('1_step two', '2_step three', 5, 60000),
  ],
  // user_5..14 (10) stopped at step two (00:03); events up to 00:03 + 7 days: all six, the first five kept (step_limit 5).
  'funnel_path_before_step -3': [
    edge('1_step one', '2_between_step_1_a', 10, 60000),
    edge('2_between_step_1_a', '3_between_step_1_b', 10, 60000),
    edge('3_between_step_1_b', '4_step two', 10, 60000),
    edge('4_step two', '5_between_step_2_a', 10, 80000),
  ],
  'funnel_path_before_step 2': UP_TO_STEP_TWO,
  'funnel_path_between_steps 2': UP_TO_STEP_TWO,
}

describe("PostHog's funnel paths examples on the reference", () => {
  it.each(Object.keys(EXPECTED))('%s', async (name) => {
    const [type, funnelStep] = name.split(' ')
    const { insight: _, ...paths } = DATA
    const params = { ...paths, funnel_paths: type, funnel_filter: { ...DATA, funnel_step: Number(funnelStep) } }
    expect(await referenceFunnelPaths(params as never, toRefDataset(multipleDropoffs()))).toEqual(EXPECTED[name])
  })
})

describePropertySkip()
describe.each(analysisTargets)("PostHog's funnel paths examples on $name", (target) => {
  const project = loadedProject(target, multipleDropoffs())
  it.each(Object.keys(EXPECTED))('%s', async (name) => {
    const [type, funnelStep] = name.split(' ')
    const { insight: _, ...paths } = DATA
    const { result } = await project().engine.sightline.query.paths(project().projectId, { ...paths, funnel_paths: type, funnel_filter: { ...DATA, funnel_step: Number(funnelStep) } } as never)
    expect(result.map((e) => ({ source: e.source, target: e.target, value: e.value, average_conversion_time: e.average_conversion_time }))).toEqual(EXPECTED[name])
  })
})
