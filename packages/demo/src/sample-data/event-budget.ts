import type { PersonDraft } from './person-draft.js'

/**
 * Activity per active day is log-normal; with the spread of lifetimes this gives, at the default
 * size, a median of about 10 events per person and a top 1% holding about a third of all events.
 */
const ACTIVITY_SIGMA = 1.8
const BASE_VISITS_PER_SESSION = 3
const MAX_VISITS_PER_SESSION = 60
const MAX_SESSIONS_PER_DAY = 6

/** The person's expected number of events (before the funnel's extras) under `scale`. */
export function budgetFor(draft: PersonDraft, scale: number): number {
  return scale * Math.exp(ACTIVITY_SIGMA * draft.z) * draft.activeDays
}

export function maxSessions(draft: PersonDraft): number {
  return Math.max(1, Math.floor(draft.activeDays * MAX_SESSIONS_PER_DAY))
}

/** Mean visits per session that spend `budget` over `sessions` sessions. */
export function visitsPerSession(draft: PersonDraft, budget: number, sessions: number): number {
  return Math.min(MAX_VISITS_PER_SESSION, Math.max(1, budget / (sessions * draft.eventsPerVisit)))
}

/** Sessions and visits per session for an event budget, before rounding. */
export function sessionShape(draft: PersonDraft, budget: number): { sessions: number; events: number } {
  const sessions = Math.max(1, Math.min(maxSessions(draft), budget / (BASE_VISITS_PER_SESSION * draft.eventsPerVisit)))
  const visits = visitsPerSession(draft, budget, sessions)
  return { sessions, events: sessions * visits * draft.eventsPerVisit }
}

/**
 * The factor turning relative activity into event budgets whose expected sum is `target`:
 * bisection, since the sum only grows with the factor.
 */
export function solveScale(drafts: readonly PersonDraft[], target: number): number {
  const weights = drafts.map((draft) => Math.exp(ACTIVITY_SIGMA * draft.z) * draft.activeDays)
  const expected = (scale: number): number =>
    drafts.reduce((sum, draft, i) => sum + sessionShape(draft, scale * (weights[i] as number)).events, 0)
  let lo = 0
  let hi = 1
  for (let i = 0; i < 64 && expected(hi) < target; i++) hi *= 2
  for (let i = 0; i < 50; i++) {
    const mid = (lo + hi) / 2
    if (expected(mid) < target) lo = mid
    else hi = mid
  }
  return hi
}
