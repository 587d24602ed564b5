import { expect } from 'vitest'
import type { Live } from './harness.js'

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

/**
 * The walk's persons, each created by its first event (PostHog's plugin
 * server: `created_at` is that event's time, the properties its `$set` plus
 * `$creator_event_uuid`). `walk_plan` is not `plan`: the capture case already
 * gave the person `walker` a `plan`.
 */
export const WALKERS = {
  u1: { distinctId: 'walk-u1', createdAt: '2026-01-13T09:00:00.000000Z', properties: { email: 'u1@walk.test', walk_plan: 'pro', $creator_event_uuid: uuid(1) } },
  u2: { distinctId: 'walk-u2', createdAt: '2026-01-14T09:00:00.000000Z', properties: { walk_plan: 'pro', $creator_event_uuid: uuid(4) } },
  u3: { distinctId: 'walk-u3', createdAt: '2026-01-14T10:00:00.000000Z', properties: { walk_plan: 'free', $creator_event_uuid: uuid(6) } },
} as const
export type Walker = keyof typeof WALKERS

/**
 * Six events over two days (NOW is 2026-01-15 12:00 UTC), in time order:
 * u1 signs up on the 13th at 09:00 and pays at 10:00, then signs up again on
 * the 14th at 08:00 (after paying: that entry never converts); u2 signs up on
 * the 14th at 09:00 and pays at 11:00; u3 signs up on the 14th at 10:00 and
 * never pays.
 */
const EVENTS = [
  { uuid: uuid(1), event: 'walk_signup', distinct_id: 'walk-u1', timestamp: '2026-01-13T09:00:00Z', properties: { $set: { email: 'u1@walk.test', walk_plan: 'pro' } } },
  { uuid: uuid(2), event: 'walk_paid', distinct_id: 'walk-u1', timestamp: '2026-01-13T10:00:00Z' },
  { uuid: uuid(3), event: 'walk_signup', distinct_id: 'walk-u1', timestamp: '2026-01-14T08:00:00Z' },
  { uuid: uuid(4), event: 'walk_signup', distinct_id: 'walk-u2', timestamp: '2026-01-14T09:00:00Z', properties: { $set: { walk_plan: 'pro' } } },
  { uuid: uuid(5), event: 'walk_paid', distinct_id: 'walk-u2', timestamp: '2026-01-14T11:00:00Z' },
  { uuid: uuid(6), event: 'walk_signup', distinct_id: 'walk-u3', timestamp: '2026-01-14T10:00:00Z', properties: { $set: { walk_plan: 'free' } } },
]

/** Sends the walk's events through `/batch/`, as an SDK would. */
export async function captureWalkData(live: Live): Promise<void> {
  const answer = await live.call('POST', '/batch/', { key: null, body: { api_key: live.a.project.apiToken, batch: EVENTS } })
  expect(answer.body).toEqual({ status: 1 })
}

/** A walker's person uuid: the one thing about a person that is not derived from the events. */
export async function personUuid(live: Live, who: Walker): Promise<string> {
  const person = await live.sightline.persons.get(live.a.project.id, WALKERS[who].distinctId)
  if (!person) throw new Error(`no person for ${WALKERS[who].distinctId}`)
  return person.uuid
}
