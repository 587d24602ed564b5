/** Who is active when, how much, and what happens to them. Read-only once built. */
export interface PersonPlan {
  /** Intensity position where the person's sessions begin (0 for people already around at the start). */
  readonly startPosition: number
  /** Position past which the person has churned (the timeline total when they have not). */
  readonly endPosition: number
  /** A newcomer's first session is at arrival; otherwise every session start is drawn. */
  readonly firstSessionAtStart: boolean
  readonly sessions: number
  readonly meanVisits: number
  /** Session index of the signup funnel; -1 when the person never goes near it. */
  readonly signupSession: number
  /** Steps reached: 1 /signup viewed, 2 signup_started, 3 signup (and $identify), 4 onboarding_completed. */
  readonly funnelReach: number
  /** Session indexes where a signed-in person shows up on a new device. */
  readonly newDeviceSessions: readonly number[]
  /** 1-based company number, or 0 for none. */
  readonly company: number
  readonly expectedEvents: number
}
