import type { Device } from './catalog/devices.js'
import type { Plan } from './catalog/subscriptions.js'
import type { PersonPlan } from './person-plan.js'

/** What generation has made of a person so far; the session writer and the scheduler update it. */
export interface PersonState {
  /** 1-based. */
  readonly number: number
  readonly plan: PersonPlan
  sessionIndex: number
  /** Timeline position of the latest scheduled session start. */
  position: number
  lastEventAt: number
  /** Empty until the first session. */
  readonly devices: Device[]
  country: string
  firstName: string
  lastName: string
  signedIn: boolean
  subscription: Plan
}

/** A person before their first session: no devices, no name yet, not signed in. */
export function newPersonState(number: number, plan: PersonPlan, position: number): PersonState {
  return {
    number,
    plan,
    sessionIndex: 0,
    position,
    lastEventAt: -Infinity,
    devices: [],
    country: '',
    firstName: '',
    lastName: '',
    signedIn: false,
    subscription: 'free',
  }
}
