import type { RefDataset, RefEvent, RefPerson, RefProject } from '../shared/ref-dataset.js'

/**
 * What a funnel reads beyond the shared dataset: action and cohort names,
 * which the step objects (`name`) and cohort breakdowns (`breakdown`) show.
 * Both optional, so a plain RefDataset is a valid input.
 */
export interface FunnelRefDataset extends RefDataset {
  /** Action id -> its name and the event names it matches (null = any event). */
  readonly actions?: Readonly<Record<number, FunnelAction>>
  /** Cohort id -> name. */
  readonly cohortNames?: Readonly<Record<number, string>>
}

export interface FunnelAction {
  readonly name?: string
  readonly eventNames: ReadonlyArray<string | null>
}

/**
 * A dataset as plain JSON-able data, the form the worked examples use so
 * every storage adapter can load them: `now` as text, cohorts as member
 * lists, actions as event-name lists (no functions, no Sets).
 */
export interface FunnelExampleData {
  readonly events: ReadonlyArray<RefEvent>
  readonly persons: Readonly<Record<string, RefPerson>>
  readonly groups?: RefDataset['groups']
  readonly project: RefProject
  /** ISO 8601. */
  readonly now: string
  readonly actions?: Readonly<Record<number, FunnelAction>>
  /** Cohort id -> name and the ids of the persons in it. */
  readonly cohorts?: Readonly<Record<number, { readonly name: string; readonly members: ReadonlyArray<string> }>>
}

/** `actionMatches` for actions given as event-name lists: an event matches when its name is listed (null matches every event). */
export function actionMatchesFrom(actions: Readonly<Record<number, FunnelAction>>): (actionId: number, event: RefEvent) => boolean {
  return (actionId, event) => {
    const action = actions[actionId]
    return action !== undefined && action.eventNames.some((name) => name === null || name === event.event)
  }
}

/** The in-memory dataset the reference reads, built from plain example data. */
export function toFunnelDataset(data: FunnelExampleData): FunnelRefDataset {
  const cohorts = Object.entries(data.cohorts ?? {})
  return {
    events: data.events,
    persons: data.persons,
    ...(data.groups ? { groups: data.groups } : {}),
    project: data.project,
    now: new Date(data.now),
    ...(data.actions ? { actions: data.actions, actionMatches: actionMatchesFrom(data.actions) } : {}),
    cohortMembers: Object.fromEntries(cohorts.map(([id, c]) => [Number(id), new Set(c.members)])),
    cohortNames: Object.fromEntries(cohorts.map(([id, c]) => [Number(id), c.name])),
  }
}
