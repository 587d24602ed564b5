import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
// Core's parser is internal; this test reads it from its source to hold the adapter's copy to it.
import { parseTimestamp } from '../../core/src/time/timestamp.js'
import { isCoreTimestamp, parseSentAt } from '../src/capture/timestamp.js'

describe('capture timestamps', () => {
  test("accepts exactly what core's parseTimestamp accepts", () => {
    const isoish = fc
      .tuple(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 0, max: 25 }),
        fc.integer({ min: 0, max: 61 }),
        fc.constantFrom('', 'Z', 'z', '+01:00', '-0530', '+24:00', '+01:61', '+01', ' Z', 'Q'),
        fc.constantFrom('T', ' ', 'x'),
        fc.constantFrom('', '.1', '.123456789', ',5', '.'),
      )
      .map(([y, mo, d, h, mi, zone, sep, frac]) => {
        const p = (n: number, w = 2) => String(n).padStart(w, '0')
        return `${p(y, 4)}-${p(mo)}-${p(d)}${sep}${p(h)}:${p(mi)}:${p(mi)}${frac}${zone}`
      })
    fc.assert(
      fc.property(fc.oneof(isoish, fc.string(), fc.constantFrom('2026-02-30', '2026-02-28', '2024-02-29', '  2026-01-01  ', '2026-01-01T10:00')), (text) => {
        expect(isCoreTimestamp(text)).toBe(parseTimestamp(text) !== null)
      }),
      { numRuns: 2000 },
    )
  })

  test("sent_at: seconds, milliseconds (longer than 11 digits) or ISO; anything else is dropped", () => {
    expect(parseSentAt('1768478400')).toBe('2026-01-15T12:00:00.000Z')
    expect(parseSentAt('1768478400123')).toBe('2026-01-15T12:00:00.123Z')
    expect(parseSentAt(1768478400123)).toBe('2026-01-15T12:00:00.123Z')
    expect(parseSentAt('2026-01-15T12:00:00Z')).toBe('2026-01-15T12:00:00Z')
    expect(parseSentAt('yesterday')).toBeUndefined()
    expect(parseSentAt({})).toBeUndefined()
    expect(parseSentAt('')).toBeUndefined()
  })
})
