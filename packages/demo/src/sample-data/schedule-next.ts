import type { Random } from '../random.js'
import type { PersonState } from './person-state.js'
import { SESSION_IDLE } from './session-gaps.js'
import { HOUR, MINUTE } from './time.js'
import type { Timeline } from './timeline.js'

/** The smallest of `k` uniform draws on [from, to): the next of the remaining session starts, in order. */
export function nextPosition(random: Random, from: number, to: number, k: number): number {
  return from + Math.max(0, to - from) * (1 - Math.pow(1 - random.next(), 1 / k))
}

/** Start of the person's next session, or Infinity when they have none left. */
export function scheduleNext(random: Random, timeline: Timeline, person: PersonState): number {
  const { plan } = person
  const remaining = plan.sessions - person.sessionIndex
  if (remaining <= 0) return Infinity
  let position = nextPosition(random, person.position, plan.endPosition, remaining)
  let at = timeline.timeAt(position)
  // Two sessions closer than the idle timeout would be one session: push the next one back.
  const earliest = person.lastEventAt + SESSION_IDLE + MINUTE
  if (at < earliest) {
    at = earliest + Math.floor(random.exponential(HOUR))
    position = timeline.positionOf(at)
    if (position >= plan.endPosition) return Infinity
  }
  person.position = position
  return at
}
