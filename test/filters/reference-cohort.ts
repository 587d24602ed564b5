/**
 * PostHog's cohort membership (FOSSCohortQuery, posthog/queries/foss_cohort_query.py)
 * over plain objects, independent of Sightline's SQL: person criteria are
 * property filters on the person, behavioral criteria count the person's
 * events in `(now - time_value time_interval, now)` (both ends open), a
 * person with no such event never meets one (the behavior subquery only
 * holds persons with events), and cohort criteria recurse.
 */
import { referenceMatches, type RefFilters } from './reference-filter.js'

export interface RefCohortPerson {
  readonly id: string
  readonly properties: Readonly<Record<string, unknown>>
}
export interface RefCohortEvent {
  readonly personId: string
  readonly event: string
  /** Milliseconds since the epoch. */
  readonly at: number
  readonly properties: Readonly<Record<string, unknown>>
}
export type RefCriterion =
  | { readonly type: 'person'; readonly key: string; readonly value?: unknown; readonly operator?: string }
  | {
      readonly type: 'behavioral'
      readonly value: 'performed_event' | 'performed_event_multiple'
      readonly key: string
      readonly time_value: number
      readonly time_interval: 'hour' | 'day' | 'week' | 'month'
      readonly operator?: 'gte' | 'gt' | 'lte' | 'lt' | 'eq'
      readonly operator_value?: number
      readonly negation?: boolean
      readonly event_filters?: RefFilters
    }
  | { readonly type: 'cohort'; readonly key: 'id'; readonly value: number; readonly negation?: boolean }
export interface RefCriteriaGroup {
  readonly type: 'AND' | 'OR'
  readonly values: ReadonlyArray<RefCriteriaGroup | RefCriterion>
}
export type RefCohort = { readonly static: ReadonlyArray<string> } | { readonly filters: { readonly properties: RefCriteriaGroup } }

export interface RefCohortWorld {
  readonly persons: ReadonlyArray<RefCohortPerson>
  readonly events: ReadonlyArray<RefCohortEvent>
  readonly now: Date
  /** By id; a cohort names only cohorts of this map. */
  readonly cohorts: ReadonlyMap<number, RefCohort>
}

const HOUR = 3_600_000

/** `now` minus the interval; calendar months as ClickHouse counts them (the day clamped to the month's length). */
function since(now: Date, value: number, unit: 'hour' | 'day' | 'week' | 'month'): number {
  if (unit !== 'month') return now.getTime() - value * { hour: HOUR, day: 24 * HOUR, week: 168 * HOUR }[unit]
  const d = new Date(now.getTime())
  const day = d.getUTCDate()
  d.setUTCDate(1)
  d.setUTCMonth(d.getUTCMonth() - value)
  const monthLength = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate()
  d.setUTCDate(Math.min(day, monthLength))
  return d.getTime()
}

const compare = (n: number, op: string | undefined, m: number) =>
  op === 'gte' ? n >= m : op === 'gt' ? n > m : op === 'lte' ? n <= m : op === 'lt' ? n < m : n === m

/** The ids of the persons in cohort `id`. */
export function referenceCohortMembers(world: RefCohortWorld, id: number): Set<string> {
  const cohort = world.cohorts.get(id)
  if (!cohort) return new Set()
  if ('static' in cohort) return new Set(cohort.static.filter((p) => world.persons.some((q) => q.id === p)))
  return new Set(world.persons.filter((p) => meets(world, cohort.filters.properties, p)).map((p) => p.id))
}

function meets(world: RefCohortWorld, node: RefCriteriaGroup | RefCriterion, person: RefCohortPerson): boolean {
  // An empty group is no condition (PostHog leaves it out), whatever its type.
  if ('values' in node && node.values.length === 0) return true
  if ('values' in node) return node.type === 'AND' ? node.values.every((v) => meets(world, v, person)) : node.values.some((v) => meets(world, v, person))
  switch (node.type) {
    case 'person':
      return referenceMatches([{ ...node, type: 'person' } as never], { event: {}, person: person.properties as never })
    case 'cohort':
      return referenceCohortMembers(world, node.value).has(person.id) !== (node.negation === true)
    case 'behavioral': {
      const from = since(world.now, node.time_value, node.time_interval)
      const n = world.events.filter(
        (e) =>
          e.personId === person.id &&
          e.event === node.key &&
          e.at > from &&
          e.at < world.now.getTime() &&
          (!node.event_filters || referenceMatches(node.event_filters, { event: e.properties as never })),
      ).length
      const performed = node.value === 'performed_event' ? n >= 1 : n >= 1 && compare(n, node.operator, node.operator_value!)
      return performed !== (node.negation === true)
    }
  }
}
