/**
 * Unordered funnels with repeated and duplicate steps, derived by hand from
 * funnels.md §5 (the worked examples in test/reference cover steps that
 * differ): a step done twice counts once; steps sharing an entity are filled
 * in turn, one event each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'
import { dataset, done, ev, MARCH } from '../reference/funnels/funnel-example-builders.js'
import { openFunnelEngine, type FunnelEngine } from './support/engine.js'
import { loadExample, withoutUrls } from './support/load-example.js'

const TEN_MINUTES = { funnel_order_type: 'unordered', funnel_window_interval: 10, funnel_window_interval_unit: 'minute' } as const

describePropertySkip()
describe.each(analysisTargets)('unordered funnels with repeated steps on $name', (target) => {
  let engine: FunnelEngine
  beforeAll(async () => {
    engine = await openFunnelEngine(target)
  })
  afterAll(() => engine?.close())

  it('a step done twice counts once', async () => {
    const loaded = await loadExample(engine, dataset([ev('p1', 'b', '10:00'), ev('p1', 'b', '10:01'), ev('p2', 'b', '10:00'), ev('p2', 'a', '10:04')]))
    const { result } = await engine.sightline.query.funnel(loaded.projectId, { ...MARCH, ...TEN_MINUTES, events: [{ id: 'a' }, { id: 'b' }] })
    // p1 did b twice: one distinct step. p2 did b then a: two steps, 240 s between the queue heads.
    expect(withoutUrls(result)).toEqual([done(0, 2), done(1, 1, 240)])
  })

  it('a step exactly one window after the first is in it; a microsecond later it is not', async () => {
    const loaded = await loadExample(engine, dataset([ev('p1', 'a', '10:00'), ev('p1', 'b', '10:10'), ev('p2', 'a', '10:00'), ev('p2', 'b', '10:10:00.000001')]))
    const { result } = await engine.sightline.query.funnel(loaded.projectId, { ...MARCH, ...TEN_MINUTES, events: [{ id: 'a' }, { id: 'b' }] })
    // The window is inclusive (funnels.md §5: an event leaves the queues when it is more than a window older). p1's b is
    // exactly 10 minutes after its a: both steps, 600 s apart. p2's b is 10 minutes and 1 µs after: a has left, one step.
    expect(withoutUrls(result)).toEqual([done(0, 2), done(1, 1, 600)])
  })

  it('steps sharing an event are filled in turn, one event each', async () => {
    const loaded = await loadExample(engine, dataset([ev('p1', 'a', '10:00'), ev('p1', 'a', '10:02'), ev('p1', 'a', '10:03'), ev('p2', 'a', '10:00'), ev('p2', 'a', '10:20')]))
    const { result } = await engine.sightline.query.funnel(loaded.projectId, { ...MARCH, ...TEN_MINUTES, events: [{ id: 'a' }, { id: 'a' }, { id: 'b' }] })
    // p1: three a events in one window fill the two a steps (queue heads 10:00 and 10:02: 120 s); b never comes.
    // p2: its two a events are 20 minutes apart, never in one window: one step.
    expect(withoutUrls(result)).toEqual([done(0, 2), done(1, 1, 120), done(2, 0)])
  })
})
