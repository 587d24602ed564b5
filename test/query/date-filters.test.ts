/**
 * `is_date_*` filters inside an analysis read relative dates and naive dates
 * in the project's zone (the harness's project is Europe/Berlin, UTC+1 in
 * February; its clock is 2026-03-01T12:00Z), on every storage target.
 */
import type { PropertyCondition } from '@sightline/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openEngine, type Engine } from '../conformance/harness.js'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'

// One event each, by a different person, with `at` set to the instant named.
const AT = {
  a: '2026-02-27T23:45:00Z', // 00:45 on Feb 28 in Berlin
  b: '2026-02-20T00:00:00Z',
  c: '2026-03-01T06:00:00Z',
}

describePropertySkip()
describe.each(analysisTargets)('is_date_* in the project zone on $name', (target) => {
  let engine: Engine & { close(): Promise<void> }
  beforeAll(async () => {
    engine = await openEngine(target)
    await engine.sightline.capture(
      engine.projectId,
      Object.entries(AT).map(([id, at]) => ({ event: 'e', distinctId: id, timestamp: '2026-03-01T10:00:00Z', properties: { at } })),
    )
  })
  afterAll(() => engine?.close())

  const count = async (operator: NonNullable<PropertyCondition['operator']>, value: string): Promise<number> => {
    const { result } = await engine.sightline.query.trend(engine.projectId, {
      events: [{ id: 'e' }],
      date_from: '2026-03-01',
      date_to: '2026-03-01',
      properties: [{ key: 'at', operator, value }],
    })
    return (result as Array<{ count: number }>)[0]!.count
  }

  it('reads a naive date as Berlin wall-clock time', async () => {
    // 2026-02-28 00:30 in Berlin is 2026-02-27T23:30Z: a (23:45Z) and c are after it.
    expect(await count('is_date_after', '2026-02-28 00:30')).toBe(2)
    // With an explicit Z the same digits are 00:30Z: only c is after it.
    expect(await count('is_date_after', '2026-02-28T00:30:00Z')).toBe(1)
  })

  it('reads relative dates from the clock', async () => {
    // -3d from 2026-03-01T12:00Z: Feb 26 (the exact instant or its day's start both fall between b and a).
    expect(await count('is_date_after', '-3d')).toBe(2)
    expect(await count('is_date_before', '-3d')).toBe(1)
    // PostHog's relative_date_parse does not truncate here: mStart is March 1 at
    // the clock's time of day (13:00 in Berlin = 12:00Z), after all three values.
    expect(await count('is_date_after', 'mStart')).toBe(0)
    expect(await count('is_date_before', 'mStart')).toBe(3)
    // -1dStart is Feb 28 00:00 in Berlin = Feb 27 23:00Z: a (23:45Z) and c are after it.
    expect(await count('is_date_after', '-1dStart')).toBe(2)
  })

  it('refuses a value that is no date, naming it', async () => {
    await expect(count('is_date_after', 'yesterday-ish')).rejects.toMatchObject({ issues: [{ path: ['properties', 0, 'value'] }] })
  })
})
