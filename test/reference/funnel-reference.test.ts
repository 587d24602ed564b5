import { describe, expect, it } from 'vitest'
import { ValidationError } from '../../packages/core/src/errors.js'
import { referenceFunnel } from './funnel-reference.js'
import { FUNNEL_EXAMPLES, toRefDataset } from './funnel-examples.js'

describe('funnel reference: worked examples', () => {
  it('has at least 30 examples with distinct names', () => {
    expect(FUNNEL_EXAMPLES.length).toBeGreaterThanOrEqual(30)
    expect(new Set(FUNNEL_EXAMPLES.map((e) => e.name)).size).toBe(FUNNEL_EXAMPLES.length)
  })

  for (const example of FUNNEL_EXAMPLES) {
    it(example.name, async () => {
      const run = referenceFunnel(example.params, toRefDataset(example.data))
      const expected = example.expected as { validationError?: string }
      if (expected && typeof expected === 'object' && 'validationError' in expected) {
        const error = await run.then(() => null, (e: unknown) => e)
        expect(error).toBeInstanceOf(ValidationError)
        expect((error as ValidationError).attr).toBe(expected.validationError)
      } else {
        expect(await run).toEqual(example.expected)
      }
    })
  }
})
