/**
 * The first-time step maths' worked examples
 * (test/reference/funnels/funnel-examples-first-time.ts) on every storage target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'
import { FIRST_TIME_EXAMPLES } from '../reference/funnels/funnel-examples-first-time.js'
import { openFunnelEngine, type FunnelEngine } from './support/engine.js'
import { loadExample, withoutUrls } from './support/load-example.js'

describePropertySkip()
describe.each(analysisTargets)('funnel first-time step maths on $name', (target) => {
  let engine: FunnelEngine
  beforeAll(async () => {
    engine = await openFunnelEngine(target)
  })
  afterAll(() => engine?.close())

  for (const example of FIRST_TIME_EXAMPLES) {
    it(example.name, async () => {
      const loaded = await loadExample(engine, example.data)
      const response = await engine.sightline.query.funnel(loaded.projectId, loaded.params(example.params))
      expect(withoutUrls(loaded.result(response.result)), example.why).toEqual(example.expected)
    })
  }
})
