/**
 * Every hand-derived funnel worked example (test/reference/funnels/funnel-examples.ts)
 * on every storage target: the `result` sightline.query.funnel answers must equal the
 * example's, people URLs aside; bad input must be a ValidationError naming
 * the example's field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ValidationError } from '@sightline/core'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'
import { FUNNEL_EXAMPLES } from '../reference/funnels/funnel-examples.js'
import { openFunnelEngine, type FunnelEngine } from './support/engine.js'
import { loadExample, withoutUrls } from './support/load-example.js'

describePropertySkip()
describe.each(analysisTargets)('funnel worked examples on $name', (target) => {
  let engine: FunnelEngine
  beforeAll(async () => {
    engine = await openFunnelEngine(target)
  })
  afterAll(() => engine?.close())

  for (const example of FUNNEL_EXAMPLES) {
    it(example.name, async () => {
      const loaded = await loadExample(engine, example.data)
      const run = engine.sightline.query.funnel(loaded.projectId, loaded.params(example.params))
      const expected = example.expected as { validationError?: string }
      if (expected && typeof expected === 'object' && 'validationError' in expected) {
        const error = await run.then(() => null, (e: unknown) => e)
        expect(error).toBeInstanceOf(ValidationError)
        expect((error as ValidationError).attr).toBe(expected.validationError)
        return
      }
      const response = await run
      expect(withoutUrls(loaded.result(response.result)), example.why).toEqual(example.expected)
    })
  }
})
