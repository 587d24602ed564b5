import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { smoothPoints, smoothValues } from '../../src/query/trends/smoothing.js'

describe('smoothValues (PostHog: floor(avg) over the point and the n-1 before it)', () => {
  it('averages over fewer points at the start and floors every point', () => {
    // 3 | (3+0)/2=1.5 | (3+0+4)/3=2.33 | (0+4+1)/3=1.67 | (4+1+0)/3 | (1+0+0)/3 | (0+0+6)/3
    expect(smoothValues([3, 0, 4, 1, 0, 0, 6], 3)).toEqual([3, 1, 2, 1, 1, 0, 2])
    // Fractions: floor(1.5) alone, (1.5+4)/2 = 2.75, (4+0)/2.
    expect(smoothValues([1.5, 4, 0], 2)).toEqual([1, 2, 2])
    // A window longer than the row averages everything so far.
    expect(smoothValues([4, 0, 2], 10)).toEqual([4, 2, 2])
    expect(smoothValues([4, 0, 2], 1)).toEqual([4, 0, 2])
  })

  it('smoothPoints gives the non-zero points of smoothValues of the dense row', () => {
    const value = fc.oneof(fc.integer({ min: 0, max: 9 }), fc.constantFrom(0.5, 1.25, 2.75))
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 30 }), fc.integer({ min: 2, max: 12 }), (dense, n) => {
        const points = dense.flatMap((v, b) => (v === 0 ? [] : [{ b, v }]))
        const expected = smoothValues(dense, n).flatMap((v, b) => (v === 0 ? [] : [{ b, v }]))
        expect(smoothPoints(points, dense.length, n)).toEqual(expected)
      }),
      { numRuns: 200 },
    )
  })
})
