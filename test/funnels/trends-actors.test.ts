/**
 * The funnel trends view's people (issue 20), on every storage: PostHog's
 * `ClickhouseFunnelTrendsActors`, chosen for `funnel_viz_type` trends, lists
 * who entered in the period starting at `entrance_period_start` and
 * converted (`drop_off` false) or not (true). Counted by hand below.
 */
import { describe, expect, it } from 'vitest'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'
import { dataset, ev } from '../reference/funnels/funnel-example-builders.js'
import type { FunnelPersonsParams } from '@sightline/core'
import { loadedProject } from './support/loaded-project.js'

/** a signs up on the 5th at 10:00 and buys at 11:00; b signs up on the 5th at 12:00 only; c signs up on the 6th at 09:00 and buys at 09:30. */
const DATA = dataset([
  ev('a', 'signup', '2024-03-05T10:00:00Z'),
  ev('a', 'buy', '2024-03-05T11:00:00Z'),
  ev('b', 'signup', '2024-03-05T12:00:00Z'),
  ev('c', 'signup', '2024-03-06T09:00:00Z'),
  ev('c', 'buy', '2024-03-06T09:30:00Z'),
])
const TRENDS = { date_from: '2024-03-04', date_to: '2024-03-06', events: [{ id: 'signup' }, { id: 'buy' }], funnel_window_interval: 1, funnel_viz_type: 'trends' as const }

describePropertySkip()
describe.each(analysisTargets)('funnel trends persons on $name', (target) => {
  const project = loadedProject(target, DATA)
  const who = async (extra: { entrance_period_start: string; drop_off: boolean | string; interval?: 'hour'; date_from?: string; date_to?: string }) => {
    const page = await project().engine.sightline.query.funnelPersons(project().projectId, { ...TRENDS, ...extra }, { limit: 10, offset: 0 })
    return page.results.map((p) => p.distinct_ids[0]).sort()
  }

  it('lists who entered in a period and converted, or not', async () => {
    // The view: the 4th nobody; the 5th a and b entered, a converted (50%); the 6th c entered and converted (100%).
    const { result } = await project().engine.sightline.query.funnel(project().projectId, TRENDS)
    expect((result as Array<{ data: number[] }>)[0]!.data).toEqual([0, 50, 100])
    expect(await who({ entrance_period_start: '2024-03-05', drop_off: false })).toEqual(['a'])
    expect(await who({ entrance_period_start: '2024-03-05 00:00:00', drop_off: true })).toEqual(['b'])
    expect(await who({ entrance_period_start: '2024-03-06', drop_off: false })).toEqual(['c'])
    expect(await who({ entrance_period_start: '2024-03-06', drop_off: true })).toEqual([])
    expect(await who({ entrance_period_start: '2024-03-04', drop_off: false })).toEqual([])
  })

  it('reads drop_off as str_to_bool and names a period only by its start', async () => {
    // 'true' and 'on' are true; any other text is false (PostHog's str_to_bool).
    expect(await who({ entrance_period_start: '2024-03-05', drop_off: 'true' })).toEqual(['b'])
    expect(await who({ entrance_period_start: '2024-03-05', drop_off: 'on' })).toEqual(['b'])
    expect(await who({ entrance_period_start: '2024-03-05', drop_off: 'banana' })).toEqual(['a'])
    // 10:00 on the 5th starts no daily period: nobody (PostHog compares the period start for equality).
    expect(await who({ entrance_period_start: '2024-03-05 10:00:00', drop_off: false })).toEqual([])
    // Hourly periods (an absolute date_to is not extended for hours: to 23:00): 10:00 on the 5th is a's entry, converted at 11:00.
    expect(await who({ interval: 'hour', date_from: '2024-03-05', date_to: '2024-03-05 23:00:00', entrance_period_start: '2024-03-05 10:00:00', drop_off: false })).toEqual(['a'])
  })

  it('refuses a missing drop_off or period, naming it', async () => {
    // Missing or unreadable on purpose: the types refuse these, so they are cast, as a JavaScript or HTTP caller's would arrive.
    const attr = (extra: Record<string, unknown>) =>
      project().engine.sightline.query.funnelPersons(project().projectId, { ...TRENDS, ...extra } as unknown as FunnelPersonsParams, { limit: 10, offset: 0 }).then(
        () => null,
        (e: { attr?: string }) => e.attr,
      )
    expect(await attr({ entrance_period_start: '2024-03-05' })).toBe('drop_off')
    expect(await attr({ drop_off: true })).toBe('entrance_period_start')
    expect(await attr({ entrance_period_start: 'someday', drop_off: true })).toBe('entrance_period_start')
  })
})
