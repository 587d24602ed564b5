import type { Random } from '../random.js'
import type { PersonDraft } from './person-draft.js'

export interface FunnelOutline {
  /** Steps reached: 0 none, 1 /signup viewed, 2 signup_started, 3 signup, 4 onboarding_completed. */
  readonly funnelReach: number
  /** Events of the funnel on top of the ordinary visits. */
  readonly extraEvents: number
}

const P_SIGNUP_IN_FIRST_SESSION = 0.55
const P_ONBOARDING = 0.7
/** People who never sign up: the share who look at /signup, and of those the share who start the form. */
const P_VISIT_SIGNUP = 0.35
const P_START_SIGNUP = 0.5

export function outlineFunnel(random: Random, draft: PersonDraft): FunnelOutline {
  const funnelReach = draft.identifies
    ? random.chance(P_ONBOARDING) ? 4 : 3
    : random.chance(P_VISIT_SIGNUP) ? (random.chance(P_START_SIGNUP) ? 2 : 1) : 0
  // /signup pageview, signup_started, $identify + signup, /onboarding pageview + onboarding_completed
  const extraEvents = [0, 1, 2, 4, 6][funnelReach] ?? 0
  return { funnelReach, extraEvents }
}

export function chooseSignupSession(random: Random, sessions: number): number {
  if (random.chance(P_SIGNUP_IN_FIRST_SESSION)) return 0
  return Math.min(sessions - 1, 1 + random.geometric(1.5))
}
