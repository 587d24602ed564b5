import type { Random } from '../random.js'
import type { Settings } from './settings.js'
import { DAY, HOUR } from './time.js'
import type { Timeline } from './timeline.js'
import { ANONYMOUS_EVENTS_PER_VISIT, SIGNED_IN_EVENTS_PER_VISIT } from './visit-rates.js'

/** The first pass of planning a person: lifetime and appetite, before events are budgeted. */
export interface PersonDraft {
  /** Standard normal: how busy the person is relative to others. */
  readonly z: number
  readonly startPosition: number
  readonly endPosition: number
  readonly firstSessionAtStart: boolean
  readonly activeDays: number
  readonly identifies: boolean
  readonly eventsPerVisit: number
}

const P_PRESENT_AT_START = 0.3
const P_CHURN = 0.35
const MEAN_LIFETIME = 25 * DAY

export function draftPerson(random: Random, settings: Settings, timeline: Timeline): PersonDraft {
  const z = random.normal()
  const presentAtStart = random.chance(P_PRESENT_AT_START)
  const startPosition = presentAtStart ? 0 : random.next() * timeline.total
  const startTime = timeline.timeAt(startPosition)
  const endTime = random.chance(P_CHURN)
    ? Math.min(settings.end, startTime + HOUR + random.exponential(MEAN_LIFETIME))
    : settings.end
  // Busier people sign up more often; the tiers average to about 40%.
  const identifies = random.chance(z > 1 ? 0.65 : z > 0 ? 0.5 : 0.25)
  return {
    z,
    startPosition,
    endPosition: timeline.positionOf(endTime),
    firstSessionAtStart: !presentAtStart,
    activeDays: Math.max((endTime - startTime) / DAY, 1 / 24),
    identifies,
    eventsPerVisit: identifies ? SIGNED_IN_EVENTS_PER_VISIT : ANONYMOUS_EVENTS_PER_VISIT,
  }
}
