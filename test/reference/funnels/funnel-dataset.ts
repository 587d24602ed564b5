import type { RefDataset, RefEvent, RefPerson, RefProject } from '../shared/ref-dataset.js'

/**
 * What the funnel reference reads beyond the shared RefDataset: the names
 * PostHog prints for action steps and cohort breakdowns. Both optional; a
 * missing action name prints as null, a missing cohort name as the id's text.
 * With `actionNames`, an action step whose id is not listed is a 400.
 */
export type FunnelRefDataset = RefDataset & {
  readonly actionNames?: Readonly<Record<number, string>>
  readonly cohortNames?: Readonly<Record<number, string>>
}

/**
 * A worked example's data as plain JSON-like values, so that the same data
 * can be loaded into every database: actions as the event names their steps
 * match (any of them), cohorts as lists of person ids, the clock as text.
 */
export interface FunnelExampleData {
  readonly events: ReadonlyArray<RefEvent>
  readonly persons: Readonly<Record<string, RefPerson>>
  readonly groups?: Readonly<Record<number, Readonly<Record<string, Readonly<Record<string, unknown>>>>>>
  readonly project: RefProject
  /** ISO 8601, UTC. */
  readonly now: string
  /** Action id -> its name and the event names its steps match (`null` = any event). */
  readonly actions?: Readonly<Record<number, { readonly name: string; readonly eventNames: ReadonlyArray<string | null> }>>
  /** Cohort id -> its name and the ids of the persons in it. */
  readonly cohorts?: Readonly<Record<number, { readonly name: string; readonly personIds: ReadonlyArray<string> }>>
}

/** The dataset the reference reads, built from an example's plain data. */
export function toRefDataset(data: FunnelExampleData): FunnelRefDataset {
  const actions = data.actions ?? {}
  const cohorts = data.cohorts ?? {}
  return {
    events: data.events,
    persons: data.persons,
    ...(data.groups ? { groups: data.groups } : {}),
    project: data.project,
    now: new Date(data.now),
    actionMatches: (id, event) => actions[id]?.eventNames.some((name) => name === null || name === event.event) ?? false,
    cohortMembers: Object.fromEntries(Object.entries(cohorts).map(([id, c]) => [id, new Set(c.personIds)])),
    actionNames: Object.fromEntries(Object.entries(actions).map(([id, a]) => [id, a.name])),
    cohortNames: Object.fromEntries(Object.entries(cohorts).map(([id, c]) => [id, c.name])),
  }
}
