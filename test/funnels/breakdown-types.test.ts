/**
 * Breakdown types the reference evaluator does not model, derived by hand:
 * HogQL (values boxed, as event breakdowns) and session ($session_id,
 * scalar for a string breakdown), on every target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'
import { dataset, ev, MARCH, step, under } from '../reference/funnels/funnel-example-builders.js'
import { openFunnelEngine, type FunnelEngine } from './support/engine.js'
import { loadExample, withoutUrls } from './support/load-example.js'

const AB = { ...MARCH, events: [{ id: 'signup' }, { id: 'purchase' }] }
const DATA = dataset([
  ev('p1', 'signup', '10:00', { $browser: 'Chrome', $session_id: 's1' }),
  ev('p1', 'purchase', '10:10', { $browser: 'Chrome', $session_id: 's1' }),
  ev('p2', 'signup', '10:00', { $browser: 'safari', $session_id: 's2' }),
])

describePropertySkip()
describe.each(analysisTargets)('funnel breakdown types on $name', (target) => {
  let engine: FunnelEngine
  beforeAll(async () => {
    engine = await openFunnelEngine(target)
  })
  afterAll(() => engine?.close())

  it('hogql: the expression per event, boxed', async () => {
    const loaded = await loadExample(engine, DATA)
    const { result } = await engine.sightline.query.funnel(loaded.projectId, { ...AB, breakdown: 'upper(properties.$browser)', breakdown_type: 'hogql' })
    // p1: CHROME, converts in 600 s; p2: SAFARI, enters only. CHROME has more at the last step.
    expect(withoutUrls(result)).toEqual([under(['CHROME'], [step(0, 'signup', 1), step(1, 'purchase', 1, 600)]), under(['SAFARI'], [step(0, 'signup', 1), step(1, 'purchase', 0)])])
  })

  it('session: the session id, a scalar for a string breakdown', async () => {
    const loaded = await loadExample(engine, DATA)
    const { result } = await engine.sightline.query.funnel(loaded.projectId, { ...AB, breakdown: '$session_id', breakdown_type: 'session' })
    expect(withoutUrls(result)).toEqual([under('s1', [step(0, 'signup', 1), step(1, 'purchase', 1, 600)]), under('s2', [step(0, 'signup', 1), step(1, 'purchase', 0)])])
  })

  it('a HogQL breakdown that does not compile names the breakdown', async () => {
    const loaded = await loadExample(engine, DATA)
    await expect(engine.sightline.query.funnel(loaded.projectId, { ...AB, breakdown: 'sleep(10)', breakdown_type: 'hogql' })).rejects.toMatchObject({ _tag: 'ValidationError', attr: 'breakdown' })
  })
})
