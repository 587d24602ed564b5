import { Random, deriveSeed, weighted } from '../random.js'
import { budgetFor, maxSessions, sessionShape, solveScale, visitsPerSession } from './event-budget.js'
import { chooseSignupSession, outlineFunnel, type FunnelOutline } from './funnel-outline.js'
import { draftPerson, type PersonDraft } from './person-draft.js'
import type { PersonPlan } from './person-plan.js'
import type { Settings } from './settings.js'
import type { Timeline } from './timeline.js'

const P_NEW_DEVICE = 0.35
const P_THIRD_DEVICE = 0.25
const P_JOINS_COMPANY = 0.55
const PERSONS_PER_COMPANY = 40

/**
 * Plans every person from the seed alone. The draws happen in passes (all drafts, then all funnel
 * outlines, then the rest) because the event budget needs every draft and outline first.
 */
export function planPersons(settings: Settings, timeline: Timeline): PersonPlan[] {
  const random = new Random(deriveSeed(settings.seed, 1))
  const drafts: PersonDraft[] = []
  for (let i = 0; i < settings.persons; i++) drafts.push(draftPerson(random, settings, timeline))

  const companies = Math.max(3, Math.round(settings.persons / PERSONS_PER_COMPANY))
  const company = weighted(Array.from({ length: companies }, (_, i) => [i + 1, 1 / Math.pow(i + 1, 1.1)] as const))
  const outlines = drafts.map((draft) => outlineFunnel(random, draft))
  const extras = outlines.reduce((sum, outline) => sum + outline.extraEvents, 0)
  const scale = solveScale(drafts, Math.max(0, settings.targetEvents - extras))

  return drafts.map((draft, i) => {
    const outline = outlines[i] as FunnelOutline
    const budget = budgetFor(draft, scale)
    const shape = sessionShape(draft, budget)
    const sessions = Math.max(1, Math.min(maxSessions(draft), stochasticRound(random, shape.sessions)))
    const meanVisits = visitsPerSession(draft, budget, sessions)
    const signupSession = outline.funnelReach > 0 ? chooseSignupSession(random, sessions) : -1
    const newDeviceSessions: number[] = []
    if (draft.identifies) {
      let last = signupSession
      for (const p of [P_NEW_DEVICE, P_THIRD_DEVICE]) {
        if (sessions - 1 - last < 2 || !random.chance(p)) break
        last = random.int(last + 1, sessions - 1)
        newDeviceSessions.push(last)
      }
    }
    return Object.freeze({
      startPosition: draft.startPosition,
      endPosition: draft.endPosition,
      firstSessionAtStart: draft.firstSessionAtStart,
      sessions,
      meanVisits,
      signupSession,
      funnelReach: outline.funnelReach,
      newDeviceSessions,
      company: draft.identifies && random.chance(P_JOINS_COMPANY) ? company(random) : 0,
      expectedEvents: sessions * meanVisits * draft.eventsPerVisit + outline.extraEvents + 2 * newDeviceSessions.length,
    })
  })
}

function stochasticRound(random: Random, x: number): number {
  const floor = Math.floor(x)
  return floor + (random.chance(x - floor) ? 1 : 0)
}
