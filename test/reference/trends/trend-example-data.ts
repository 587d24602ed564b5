/**
 * The plain data of a worked example (no functions, no Sets, JSON-ready) so
 * the same example can be loaded into every storage adapter, and the
 * conversion to the RefDataset the reference reads.
 */
import type { RefDataset, RefEvent, RefPerson, RefProject } from '../shared/ref-dataset.js'

export interface TrendExampleData {
  readonly events: ReadonlyArray<RefEvent>
  /** distinct_id -> person, as in RefDataset. */
  readonly persons: Readonly<Record<string, RefPerson>>
  readonly groups?: Readonly<Record<number, Readonly<Record<string, Readonly<Record<string, unknown>>>>>>
  readonly project: RefProject
  /** ISO 8601 instant. */
  readonly now: string
  /** Action id -> its name and the event names it matches (one step per name). */
  readonly actions?: Readonly<Record<number, { readonly name: string; readonly eventNames: ReadonlyArray<string> }>>
  /** Cohort id -> person ids. */
  readonly cohorts?: Readonly<Record<number, ReadonlyArray<string>>>
}

export interface TrendExample {
  readonly name: string
  readonly data: TrendExampleData
  readonly params: Record<string, unknown>
  /** The result, series by series; each object lists only the fields asserted (see matchesTrendExpected). */
  readonly expected: ReadonlyArray<Record<string, unknown>>
  readonly why: string
}

/** `actionMatches` for a dataset whose actions match by event name. */
export function actionMatchesOf(actions: TrendExampleData['actions'] = {}): (actionId: number, event: RefEvent) => boolean {
  return (actionId, event) => actions[actionId]?.eventNames.includes(event.event) ?? false
}

export function toRefDataset(d: TrendExampleData): RefDataset {
  return {
    events: d.events,
    persons: d.persons,
    ...(d.groups ? { groups: d.groups } : {}),
    project: d.project,
    now: new Date(d.now),
    actionMatches: actionMatchesOf(d.actions),
    cohortMembers: Object.fromEntries(Object.entries(d.cohorts ?? {}).map(([id, members]) => [Number(id), new Set(members)])),
  }
}

// Builders used by the example files; they only shorten the writing of plain data.

let uuidCounter = 0
/** One event; the uuid is a valid, unique v4-shaped id. */
export function ev(event: string, distinctId: string, timestamp: string, properties: Record<string, unknown> = {}, groups?: RefEvent['groups']): RefEvent {
  uuidCounter++
  return {
    uuid: `00000000-0000-4000-8000-${String(uuidCounter).padStart(12, '0')}`,
    event,
    distinct_id: distinctId,
    timestamp,
    properties,
    ...(groups ? { groups } : {}),
  }
}

/** Persons keyed by distinct id: `{ p1: [['a1', 'a2'], { plan: 'pro' }] }` gives person p1 behind a1 and a2. */
export function personsOf(spec: Record<string, readonly [ReadonlyArray<string>, Record<string, unknown>?]>): Record<string, RefPerson> {
  const out: Record<string, RefPerson> = {}
  for (const [id, [distinctIds, properties = {}]] of Object.entries(spec)) for (const d of distinctIds) out[d] = { id, properties }
  return out
}

export const UTC: RefProject = { timezone: 'UTC', weekStartDay: 0, testAccountFilters: [] }
export const NEW_YORK: RefProject = { timezone: 'America/New_York', weekStartDay: 0, testAccountFilters: [] }
