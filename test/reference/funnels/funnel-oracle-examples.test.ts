import { describe, expect, it } from 'vitest'
import { toFunnelDataset } from './funnel-oracle-dataset.js'
import { matchesFunnelExpected, ORACLE_EXAMPLES } from './funnel-oracle-examples.js'
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

describe('matchesFunnelExpected', () => {
  const steps = [{ count: 2, average_conversion_time: 1800.000001, breakdown: ['Chrome'] }]
  it('allows float noise in times', () => {
    expect(matchesFunnelExpected([{ count: 2, average_conversion_time: 1800.0000009999999, breakdown: ['Chrome'] }], steps)).toBe(true)
  })
  it('sees a changed count, a changed time, a changed value, a missing or extra key, a missing item', () => {
    expect(matchesFunnelExpected([{ ...steps[0], count: 3 }], steps)).toBe(false)
    expect(matchesFunnelExpected([{ ...steps[0], average_conversion_time: 1800.01 }], steps)).toBe(false)
    expect(matchesFunnelExpected([{ ...steps[0], breakdown: 'Chrome' }], steps)).toBe(false)
    expect(matchesFunnelExpected([{ count: 2, average_conversion_time: 1800.000001 }], steps)).toBe(false)
    expect(matchesFunnelExpected([{ ...steps[0], people: [] }], steps)).toBe(false)
    expect(matchesFunnelExpected([], steps)).toBe(false)
    expect(matchesFunnelExpected([{ ...steps[0], average_conversion_time: null }], steps)).toBe(false)
  })
})
