/**
 * `sampling_factor` (issue 20), on every storage: every analysis reads it
 * and none applies it. PostHog samples events and scales its counts back up
 * (`correct_result_for_sampling`), so a sampled answer estimates the exact
 * one; Sightline answers the exact one and says the factor was not applied
 * (`sampling_factor_applied: false`, with the factor sent). Counts by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'
import { dataset, ev } from '../reference/funnels/funnel-example-builders.js'
import { openFunnelEngine, type FunnelEngine } from '../funnels/support/engine.js'
import { loadExample } from '../funnels/support/load-example.js'

const RANGE = { date_from: '2024-03-05', date_to: '2024-03-05' }
const NOTICE = { sampling_factor: 0.1, sampling_factor_applied: false }

describePropertySkip()
describe.each(analysisTargets)('sampling_factor on $name', (target) => {
  let engine: FunnelEngine
  let projectId: number
  beforeAll(async () => {
    engine = await openFunnelEngine(target)
    // a and b sign up; a buys. Ten events would be about one under PostHog's 1-in-10 sample.
    const data = dataset([ev('a', 'signup', '10:00'), ev('a', 'buy', '10:05'), ev('b', 'signup', '11:00')])
    projectId = (await loadExample(engine, data)).projectId
  })
  afterAll(() => engine?.close())

  it('answers the exact result with the notice, on every analysis', async () => {
    const q = engine.sightline.query
    const funnel = { ...RANGE, events: [{ id: 'signup' }, { id: 'buy' }] }
    // Funnel: 2 signed up, 1 bought (not 20 and 10, the sample scaled up, nor a sample of them).
    const f = await q.funnel(projectId, { ...funnel, sampling_factor: 0.1 })
    expect(f.result.map((s) => s.count)).toEqual([2, 1])
    expect(f).toMatchObject(NOTICE)
    // The same steps as without a factor, but for the people URLs, which carry the request (the factor too, as PostHog's do).
    const plain = (await q.funnel(projectId, funnel)).result
    const noUrls = (steps: typeof plain) => steps.map(({ converted_people_url: _c, dropped_people_url: _d, ...rest }) => rest)
    expect(noUrls(f.result)).toEqual(noUrls(plain))
    // Trend: 2 signups on the 5th.
    const t = await q.trend(projectId, { ...RANGE, events: [{ id: 'signup' }], sampling_factor: 0.1 })
    expect([t.result[0]!.count, t.sampling_factor, t.sampling_factor_applied]).toEqual([2, 0.1, false])
    // Retention (one day): a cohort of 2 on the 5th.
    const r = await q.retention(projectId, { target_entity: { id: 'signup', type: 'events' }, period: 'Day', total_intervals: 1, date_to: '2024-03-05', sampling_factor: 0.1 })
    expect([r.result[0]!.values[0]!.count, r.sampling_factor_applied]).toEqual([2, false])
    // Paths: signup -> buy once (a's session).
    const p = await q.paths(projectId, { ...RANGE, include_event_types: ['custom_event'], sampling_factor: 0.1 })
    expect([p.result.map((e) => [e.source, e.target, e.value]), p.sampling_factor_applied]).toEqual([[['1_signup', '2_buy', 1]], false])
    // Correlation: no event between the steps, so no rows; the notice all the same.
    const c = await q.funnelCorrelation(projectId, { ...funnel, sampling_factor: 0.1 })
    expect(c).toMatchObject({ result: { events: [] }, ...NOTICE })
  })

  it('says nothing for 1 or no factor, and refuses a factor outside (0, 1] naming it', async () => {
    const q = engine.sightline.query
    for (const factor of [undefined, null, 1]) {
      const t = await q.trend(projectId, { ...RANGE, events: [{ id: 'signup' }], sampling_factor: factor })
      expect('sampling_factor_applied' in t, String(factor)).toBe(false)
    }
    for (const bad of [0, 2, -1]) {
      await expect(q.trend(projectId, { ...RANGE, events: [{ id: 'signup' }], sampling_factor: bad })).rejects.toMatchObject({ attr: 'sampling_factor' })
    }
  })
})
