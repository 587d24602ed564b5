/**
 * `session` filters on `$session_duration` (seconds from a session's first to
 * its last event), through a trend, on every storage target. Sessions by hand:
 *   s1: 10:00:00 and 10:02:00  -> 120 s
 *   s2: 11:00:00 and 11:00:30  ->  30 s
 *   s3: 12:00:00 alone         ->   0 s
 *   one event without a session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openEngine, type Engine } from '../conformance/harness.js'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'

const DAY = '2026-02-27'
const events = [
  { event: 'view', distinctId: 'a', timestamp: `${DAY}T10:00:00Z`, properties: { $session_id: 's1' } },
  { event: 'view', distinctId: 'a', timestamp: `${DAY}T10:02:00Z`, properties: { $session_id: 's1' } },
  { event: 'view', distinctId: 'b', timestamp: `${DAY}T11:00:00Z`, properties: { $session_id: 's2' } },
  { event: 'view', distinctId: 'b', timestamp: `${DAY}T11:00:30Z`, properties: { $session_id: 's2' } },
  { event: 'view', distinctId: 'c', timestamp: `${DAY}T12:00:00Z`, properties: { $session_id: 's3' } },
  { event: 'view', distinctId: 'd', timestamp: `${DAY}T13:00:00Z` },
]

describePropertySkip()
describe.each(analysisTargets)('session filters on $name', (target) => {
  let engine: Engine & { close(): Promise<void> }
  beforeAll(async () => {
    engine = await openEngine(target)
    await engine.sightline.capture(engine.projectId, events)
  })
  afterAll(() => engine?.close())

  const total = async (filter: Record<string, unknown>): Promise<number> => {
    const { result } = await engine.sightline.query.trend(engine.projectId, {
      events: [{ id: 'view' }],
      date_from: DAY,
      date_to: DAY,
      properties: [{ type: 'session', key: '$session_duration', ...filter }],
    })
    return (result as Array<{ count: number }>)[0]!.count
  }

  it.each([
    [{ operator: 'gt', value: 60 }, 2], // s1's two events
    [{ operator: 'gte', value: 30 }, 4], // s1, s2
    [{ operator: 'lt', value: 30 }, 1], // s3 (the sessionless event has no duration)
    [{ operator: 'exact', value: 0 }, 1], // s3
    [{ operator: 'is_not', value: 120 }, 4], // s2, s3 and the sessionless event
    [{ operator: 'between', value: [0, 30] }, 3], // s2, s3
    [{ operator: 'not_between', value: [0, 30] }, 3], // s1 and the sessionless event
    [{ operator: 'is_set' }, 5],
    [{ operator: 'is_not_set' }, 1],
  ])('%o matches %i events', async (filter, expected) => {
    expect(await total(filter)).toBe(expected)
  })

  it('refuses other session properties and bad values, naming the field', async () => {
    await expect(total({ key: '$entry_current_url', operator: 'exact', value: 'x' })).rejects.toMatchObject({ name: 'ValidationError' })
    await expect(total({ operator: 'gt', value: 'long' })).rejects.toMatchObject({ issues: [{ path: ['properties', 0, 'value'] }] })
  })
})
