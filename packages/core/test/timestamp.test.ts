import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { formatTimestamp, parseTimestamp } from '../src/time/timestamp.js'

describe('parseTimestamp', () => {
  it('keeps microseconds and reads zoneless values as UTC', () => {
    // 2026-01-01T10:00:00Z is 1767261600 seconds after the epoch (date -u -d ... +%s).
    expect(parseTimestamp('2026-01-01T10:00:00.123456Z')).toBe(1767261600_123456)
    expect(parseTimestamp('2026-01-01T10:00:00.123456')).toBe(1767261600_123456)
    expect(parseTimestamp('2026-01-01 10:00:00')).toBe(1767261600_000000)
    expect(parseTimestamp('2026-01-01')).toBe(1767225600_000000)
  })

  it('applies offsets', () => {
    expect(parseTimestamp('2026-01-01T12:00:00+02:00')).toBe(1767261600_000000)
    expect(parseTimestamp('2026-01-01T05:30:00-0430')).toBe(1767261600_000000)
  })

  it('rejects impossible dates and other text', () => {
    for (const bad of ['2026-02-30', '2026-13-01', 'yesterday', '', '2026-01-01T25:00:00Z', '1767261600']) {
      expect(parseTimestamp(bad)).toBeNull()
    }
  })

  it('round-trips with formatTimestamp', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8_000_000_000_000_000 }), (micros) => {
        const text = formatTimestamp(micros)
        expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)
        expect(parseTimestamp(text)).toBe(micros)
      }),
    )
  })

  it('agrees with Date on millisecond values', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1970-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }), (d) => {
        expect(parseTimestamp(d.toISOString())).toBe(d.getTime() * 1000)
      }),
    )
  })
})
