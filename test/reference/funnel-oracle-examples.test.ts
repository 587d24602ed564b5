import { describe, expect, it } from 'vitest'
import { toFunnelDataset } from './funnel-oracle-dataset.js'
import { ORACLE_EXAMPLES } from './funnel-oracle-examples.js'
import { referenceFunnel } from './funnel-oracle-reference.js'

describe('funnel oracle: hand-derived worked examples', () => {
  it('has at least 30 examples with distinct names', () => {
    expect(ORACLE_EXAMPLES.length).toBeGreaterThanOrEqual(30)
    expect(new Set(ORACLE_EXAMPLES.map((e) => e.name)).size).toBe(ORACLE_EXAMPLES.length)
  })

  for (const example of ORACLE_EXAMPLES) {
    it(example.name, async () => {
      expect(await referenceFunnel(example.params, toFunnelDataset(example.data))).toEqual(example.expected)
    })
  }
})
