import { describe, expect, it } from 'vitest'
import { windowStart } from '../../packages/core/src/query/cohorts/behavioral-window.js'

const at = (iso: string) => new Date(iso)

/** `now - INTERVAL n unit` as ClickHouse computes PostHog's cohort windows: worked out by hand. */
const CASES: ReadonlyArray<[string, number, 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year', string]> = [
  ['2026-03-31T12:34:56.789Z', 30, 'minute', '2026-03-31T12:04:56.789Z'],
  ['2026-03-31T12:00:00.000Z', 36, 'hour', '2026-03-30T00:00:00.000Z'],
  // Days are 24 hours in UTC: no daylight saving shift.
  ['2026-03-31T12:00:00.000Z', 7, 'day', '2026-03-24T12:00:00.000Z'],
  ['2026-03-31T12:00:00.000Z', 2, 'week', '2026-03-17T12:00:00.000Z'],
  // A month back from 31 March is the last day of February.
  ['2026-03-31T12:00:00.000Z', 1, 'month', '2026-02-28T12:00:00.000Z'],
  ['2024-03-31T12:00:00.000Z', 1, 'month', '2024-02-29T12:00:00.000Z'],
  ['2026-03-31T12:00:00.000Z', 13, 'month', '2025-02-28T12:00:00.000Z'],
  ['2026-01-15T08:00:00.000Z', 2, 'month', '2025-11-15T08:00:00.000Z'],
  ['2024-02-29T00:00:00.000Z', 1, 'year', '2023-02-28T00:00:00.000Z'],
  ['2024-02-29T00:00:00.000Z', 4, 'year', '2020-02-29T00:00:00.000Z'],
  // Never before the year 1000, whatever the interval.
  ['2026-03-31T12:00:00.000Z', 1_000_000, 'year', '1000-01-01T00:00:00.000Z'],
  ['2026-03-31T12:00:00.000Z', 1_000_000, 'week', '1000-01-01T00:00:00.000Z'],
]

describe('behavioral windows', () => {
  it.each(CASES)('%s minus %i %s is %s', (now, value, unit, expected) => {
    expect(windowStart(at(now), value, unit).toISOString()).toBe(expected)
  })
})
