import { describe, expect, it } from 'vitest'
import { median, round2 } from './funnel-oracle-stats.js'

describe('ClickHouse aggregates as the funnel oracle computes them', () => {
  it('round(x, 2) rounds float ties to even: 1 of 32 entrants is 3.12 %, 1 of 160 is 0.62 %', () => {
    expect(round2((1 / 32) * 100)).toBe(3.12)
    expect(round2((3 / 32) * 100)).toBe(9.38)
    expect(round2((1 / 160) * 100)).toBe(0.62)
    expect(round2((1 / 3) * 100)).toBe(33.33)
    expect(round2((2 / 3) * 100)).toBe(66.67)
  })
  it('median interpolates between the two middle values', () => {
    expect(median([7200, 3600])).toBe(5400)
    expect(median([3600, 7200, 7200])).toBe(7200)
    expect(median([])).toBeNull()
  })
})
