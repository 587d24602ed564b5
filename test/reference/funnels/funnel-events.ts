import { parseTimestamp } from '../shared/ref-time.js'
import { eventBreakdownValue, type BreakdownValue } from './funnel-breakdown-value.js'
import type { FunnelRefDataset } from './funnel-dataset.js'
import { matchesFilters, type FilterSubject } from './funnel-filters.js'
import type { FunnelEntity, FunnelSpec } from './funnel-spec.js'

/** One event of a funnel's aggregation target, as PostHog's UDF receives it. */
export interface FunnelEvent {
  readonly uuid: string
  /** Microseconds since the epoch. */
  readonly ts: number
  /**
   * 1-based numbers of the steps it matches (ascending), then `-(i+1)` for
   * each gap i (between step i-1 and step i) an exclusion covers (§2.7).
   */
  readonly flags: ReadonlyArray<number>
  /** Its breakdown value (event, person, group breakdowns); null without one. */
  readonly value: BreakdownValue | null
  /** Cohort breakdowns: the requested cohorts its person is in. */
  readonly cohorts: ReadonlySet<number | 'all'>
}

/**
 * Per aggregation target (person id, or group key), the events that take
 * part in the funnel, in time order (funnels.md §2): inside the date range,
 * passing the global properties and test-account filters; for ordered and
 * unordered funnels only events matching a step or an exclusion, for strict
 * ones every event. Only the first `stepCount` steps count (trends
 * truncate the funnel at `funnel_to_step`).
 *
 * Events sharing a timestamp have no order in PostHog (arraySort by time
 * only); here they are taken by their lowest step number (events matching
 * none last), then by uuid, so that same-instant steps can convert.
 */
export function targetEvents(
  spec: FunnelSpec,
  data: FunnelRefDataset,
  range: { readonly fromMicros: number; readonly toMicros: number },
  stepCount: number,
): Map<string, FunnelEvent[]> {
  const steps = spec.steps.slice(0, stepCount)
  const firsts = steps.map((s) => (s.math ? firstTimeEvents(s, data, range.toMicros) : null))
  const out = new Map<string, FunnelEvent[]>()
  for (const event of data.events) {
    const ts = parseTimestamp(event.timestamp)
    if (ts === null) throw new Error(`funnel reference: bad timestamp ${event.timestamp}`)
    if (ts < range.fromMicros || ts > range.toMicros) continue
    const person = data.persons[event.distinct_id]
    const subject: FilterSubject = { event, personId: person?.id ?? null, personProperties: person?.properties ?? {} }
    if (!matchesFilters(spec.properties, subject, data)) continue
    if (spec.filterTestAccounts && !matchesFilters(data.project.testAccountFilters, subject, data)) continue
    const target = targetOf(spec, subject)
    if (target === null) continue

    const flags: number[] = []
    steps.forEach((step, i) => {
      if (matchesEntity(step, subject, data) && (firsts[i] === null || firsts[i]!.get(personOf(subject)) === event.uuid)) flags.push(i + 1)
    })
    for (let gap = 1; gap < stepCount; gap++) {
      if (spec.exclusions.some((x) => x.from < gap && gap <= x.to && matchesEntity(x, subject, data))) flags.push(-(gap + 1))
    }
    if (flags.length === 0 && spec.orderType !== 'strict') continue

    const b = spec.breakdown
    const cohorts = new Set<number | 'all'>()
    if (b?.type === 'cohort') {
      for (const c of b.cohorts) if (c === 'all' || (person && data.cohortMembers?.[c]?.has(person.id))) cohorts.add(c)
    }
    const value = b && b.type !== 'cohort' ? eventBreakdownValue(b, subject, data) : null
    const list = out.get(target) ?? []
    list.push({ uuid: event.uuid, ts, flags, value, cohorts })
    out.set(target, list)
  }
  for (const list of out.values()) list.sort(eventOrder)
  return out
}

const firstStep = (e: FunnelEvent): number => (e.flags[0] !== undefined && e.flags[0] > 0 ? e.flags[0] : Number.POSITIVE_INFINITY)

const eventOrder = (a: FunnelEvent, b: FunnelEvent): number =>
  a.ts - b.ts || firstStep(a) - firstStep(b) || (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0)

/**
 * Persons (all distinct ids merged; an unknown distinct id is its own person),
 * the event's group of the chosen type, or the text of the aggregating event
 * property (strings as they are, numbers and booleans in JSON; missing, null
 * and '' have no target, PostHog's `_aggregation_target_filter`).
 */
function targetOf(spec: FunnelSpec, subject: FilterSubject): string | null {
  if (spec.aggregationGroup === null && spec.aggregateByProperty) {
    const v = subject.event.properties?.[spec.aggregateByProperty]
    const text = v === undefined || v === null ? null : typeof v === 'string' ? v : JSON.stringify(v)
    return text === null || text === '' ? null : `hogql:${text}`
  }
  if (spec.aggregationGroup === null) return subject.personId !== null ? `person:${subject.personId}` : `distinct:${subject.event.distinct_id}`
  const key = subject.event.groups?.[spec.aggregationGroup as 0]
  return key ? `group:${key}` : null
}

/** An event entity matches by name ("All events" matches any), an action when any of its steps does; then the entity's properties. */
/** A person's key for first-time maths: its person id, or its distinct id when it has no person. */
const personOf = (subject: FilterSubject): string => subject.personId ?? `distinct:${subject.event.distinct_id}`

/**
 * First-time step maths (PostHog's FirstTimeForUserAggregationQuery): per
 * person, the uuid of its earliest event up to date_to, before the range
 * too, of the step's event or action (with the step's filters for
 * `first_time_for_user_with_filters`), ties to the smaller uuid; global
 * filters play no part. Only that event can fill the step, and only if it
 * also matches the step as usual (in range, its filters, the global ones).
 */
function firstTimeEvents(step: FunnelEntity, data: FunnelRefDataset, toMicros: number): Map<string, string> {
  const entity = step.math === 'first_time_for_user' ? { ...step, properties: null } : step
  const best = new Map<string, { ts: number; uuid: string }>()
  for (const event of data.events) {
    const ts = parseTimestamp(event.timestamp)!
    if (ts > toMicros) continue
    const person = data.persons[event.distinct_id]
    const subject: FilterSubject = { event, personId: person?.id ?? null, personProperties: person?.properties ?? {} }
    if (!matchesEntity(entity, subject, data)) continue
    const key = personOf(subject)
    const current = best.get(key)
    if (!current || ts < current.ts || (ts === current.ts && event.uuid < current.uuid)) best.set(key, { ts, uuid: event.uuid })
  }
  return new Map([...best].map(([k, v]) => [k, v.uuid]))
}

function matchesEntity(entity: FunnelEntity, subject: FilterSubject, data: FunnelRefDataset): boolean {
  if (entity.type === 'actions') {
    if (!data.actionMatches) throw new Error('funnel reference: action steps need dataset.actionMatches')
    if (!data.actionMatches(entity.id as number, subject.event)) return false
  } else if (entity.id !== null && entity.id !== subject.event.event) return false
  return matchesFilters(entity.properties, subject, data)
}
