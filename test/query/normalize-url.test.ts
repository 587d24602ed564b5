/**
 * `breakdown_normalize_url` in a funnel: PostHog trims every trailing `/`,
 * `?` and `#`, and shows a value left empty as `/`. By hand: u1 and u2 visit
 * the same page spelled two ways, u3 the root spelled `/?`, then each signs up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openEngine, type Engine } from '../conformance/harness.js'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'

describePropertySkip()
describe.each(analysisTargets)('breakdown_normalize_url in funnels on $name', (target) => {
  let engine: Engine & { close(): Promise<void> }
  beforeAll(async () => {
    engine = await openEngine(target)
    const at = (h: number) => `2026-02-27T${String(h).padStart(2, '0')}:00:00Z`
    await engine.sightline.capture(engine.projectId, [
      { event: 'view', distinctId: 'u1', timestamp: at(9), properties: { path: '/pricing/' } },
      { event: 'view', distinctId: 'u2', timestamp: at(9), properties: { path: '/pricing?#' } },
      { event: 'view', distinctId: 'u3', timestamp: at(9), properties: { path: '/?' } },
      ...['u1', 'u2', 'u3'].map((d) => ({ event: 'signup', distinctId: d, timestamp: at(10) })),
    ])
  })
  afterAll(() => engine?.close())

  it('groups the spellings of one page, and keeps the root as /', async () => {
    const { result } = await engine.sightline.query.funnel(engine.projectId, {
      events: [{ id: 'view', order: 0 }, { id: 'signup', order: 1 }],
      date_from: '2026-02-27',
      date_to: '2026-02-27',
      breakdown: 'path',
      breakdown_type: 'event',
      breakdown_normalize_url: true,
    })
    const byValue = Object.fromEntries((result as Array<Array<{ breakdown_value: unknown; count: number }>>).map((steps) => [JSON.stringify(steps[0]!.breakdown_value), steps.map((s) => s.count)]))
    expect(byValue).toEqual({ [JSON.stringify(['/pricing'])]: [2, 2], [JSON.stringify(['/'])]: [1, 1] })
  })
})
