/**
 * PostHog's cohort membership (FOSSCohortQuery and EnterpriseCohortQuery,
 * posthog/queries/foss_cohort_query.py, ee/clickhouse/queries/enterprise_cohort_query.py)
 * over plain objects, independent of Sightline's SQL. W(n unit) is now minus
 * n units (calendar months). Person criteria are property filters on the
 * person, negated: not matched. Behavioral criteria read the person's events
 * of the key (an event name): performed_event(_multiple) counts those in
 * (W, now) (both ends open), or in (explicit_datetime, explicit_datetime_to
 * or now) when given (PostHog's HogQL query: EventsQuery's `timestamp <
 * before`); first time: the first ever is in [W, now), or in
 * [explicit_datetime, explicit_datetime_to or now), and passes the event
 * filters (first_time_for_user: the earliest event, then the filters);
 * stopped: some in (W(time), W(seq)], none in (W(seq), now], of the events
 * passing the event filters; restarted: some
 * at or before W(time), none in (W(time), W(seq)], some in (W(seq), now];
 * regularly: the periods (W(v(p+1)), W(vp)], p < total, whose count compares
 * so number at least min; sequence: a key event at a and a seq_event at b,
 * a < b <= a + seq span (calendar months after a, on its UTC date, the day
 * clamped, for months), both in (W(time), now], or in (explicit_datetime,
 * explicit_datetime_to) (open) or (explicit_datetime, now]. Event filters
 * on restarted, regularly and sequences, and explicit datetimes on stopped,
 * restarted and regularly are not read (HogQLCohortQuery's reading). A person with no matching
 * event in the span a criterion reads never meets it (the behavior subquery
 * only holds persons with events). Cohort criteria recurse. A cohort whose
 * negations are not paired with a positive criterion in an AND group
 * (check_negation_clause) has no members: PostHog's calculation fails.
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
type Unit = 'hour' | 'day' | 'week' | 'month'
type Op = 'gte' | 'gt' | 'lte' | 'lt' | 'eq'
export type RefCriterion =
  | { readonly type: 'person'; readonly key: string; readonly value?: unknown; readonly operator?: string; readonly negation?: boolean }
  | {
      readonly type: 'behavioral'
      readonly value:
        | 'performed_event'
        | 'performed_event_multiple'
        | 'performed_event_first_time'
        | 'stopped_performing_event'
        | 'restarted_performing_event'
        | 'performed_event_regularly'
        | 'performed_event_sequence'
      readonly key: string
      readonly time_value: number
      readonly time_interval: Unit
      readonly operator?: Op
      readonly operator_value?: number
      readonly seq_time_value?: number
      readonly seq_time_interval?: Unit
      readonly seq_event?: string
      readonly min_periods?: number
      readonly total_periods?: number
      readonly negation?: boolean
      readonly event_filters?: RefFilters
      /** ISO instants (with their offset): read by performed_event(_multiple), first time and sequences. */
      readonly explicit_datetime?: string
      readonly explicit_datetime_to?: string
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
function since(now: Date, value: number, unit: Unit): number {
  if (unit !== 'month') return now.getTime() - value * { hour: HOUR, day: 24 * HOUR, week: 168 * HOUR }[unit]
  return monthsAfter(now.getTime(), -value)
}

/** `at` plus `months` calendar months (negative: minus) on its UTC date, the day clamped to the month's length. */
function monthsAfter(at: number, months: number): number {
  const d = new Date(at)
  const day = d.getUTCDate()
  d.setUTCDate(1)
  d.setUTCMonth(d.getUTCMonth() + months)
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
  if (negationPending(cohort.filters.properties).negated) return new Set()
  return new Set(world.persons.filter((p) => meets(world, cohort.filters.properties, p)).map((p) => p.id))
}

/** check_negation_clause: a group's negated and positive criteria, an AND holding both settling its negations. */
function negationPending(group: RefCriteriaGroup): { negated: boolean; positive: boolean } {
  let negated = false
  let positive = false
  for (const v of group.values) {
    if ('values' in v) {
      const inner = negationPending(v)
      negated = negated || inner.negated
      positive = positive || inner.positive
    } else if (v.negation === true) negated = true
    else positive = true
  }
  if (group.type === 'AND' && negated && positive) return { negated: false, positive: true }
  return { negated, positive }
}

function meets(world: RefCohortWorld, node: RefCriteriaGroup | RefCriterion, person: RefCohortPerson): boolean {
  // An empty group is no condition (PostHog leaves it out), whatever its type.
  if ('values' in node && node.values.length === 0) return true
  if ('values' in node) return node.type === 'AND' ? node.values.every((v) => meets(world, v, person)) : node.values.some((v) => meets(world, v, person))
  switch (node.type) {
    case 'person':
      return referenceMatches([{ ...node, type: 'person', negation: undefined } as never], { event: {}, person: person.properties as never }) !== (node.negation === true)
    case 'cohort':
      return referenceCohortMembers(world, node.value).has(person.id) !== (node.negation === true)
    case 'behavioral':
      return performed(world, node, person) !== (node.negation === true)
  }
}

function performed(world: RefCohortWorld, node: Extract<RefCriterion, { type: 'behavioral' }>, person: RefCohortPerson): boolean {
  const now = world.now.getTime()
  const times = (key: string, filters?: RefFilters) =>
    world.events.filter((e) => e.personId === person.id && e.event === key && (!filters || referenceMatches(filters, { event: e.properties as never }))).map((e) => e.at)
  const filtered = node.value === 'performed_event' || node.value === 'performed_event_multiple' || node.value === 'stopped_performing_event'
  const own = times(node.key, filtered ? node.event_filters : undefined)
  const explicit = node.value === 'performed_event' || node.value === 'performed_event_multiple' || node.value === 'performed_event_first_time' || node.value === 'performed_event_sequence'
  const W = explicit && node.explicit_datetime !== undefined ? Date.parse(node.explicit_datetime) : since(world.now, node.time_value, node.time_interval)
  // explicit_datetime_to is read only beside explicit_datetime.
  const until = explicit && node.explicit_datetime !== undefined && node.explicit_datetime_to !== undefined ? Date.parse(node.explicit_datetime_to) : null
  const recent = node.seq_time_value === undefined ? now : since(world.now, node.seq_time_value, node.seq_time_interval!)
  const some = (test: (at: number) => boolean) => own.some(test)
  switch (node.value) {
    case 'performed_event':
    case 'performed_event_multiple': {
      const n = own.filter((at) => at > W && at < (until ?? now)).length
      return node.value === 'performed_event' ? n >= 1 : n >= 1 && compare(n, node.operator, node.operator_value!)
    }
    case 'performed_event_first_time': {
      const first = Math.min(...own)
      if (!(own.length > 0 && first >= W && first < (until ?? now))) return false
      if (!node.event_filters) return true
      // The earliest event must pass the filters; a tie there whose events disagree is not drawn (the database breaks it by uuid).
      const earliest = world.events.filter((e) => e.personId === person.id && e.event === node.key && e.at === first)
      const passes = earliest.map((e) => referenceMatches(node.event_filters!, { event: e.properties as never }))
      if (new Set(passes).size > 1) throw new Error('reference: first events at one instant disagree on the event filters')
      return passes[0]!
    }
    case 'stopped_performing_event':
      return some((at) => at > W && at <= recent) && !some((at) => at > recent && at <= now)
    case 'restarted_performing_event':
      return some((at) => at <= W) && !some((at) => at > W && at <= recent) && some((at) => at > recent && at <= now)
    case 'performed_event_regularly': {
      const total = node.total_periods!
      const edge = (p: number) => since(world.now, node.time_value * p, node.time_interval)
      if (!some((at) => at > edge(total) && at <= now)) return false
      let periods = 0
      for (let p = 0; p < total; p++) {
        const n = own.filter((at) => at > edge(p + 1) && at <= (p === 0 ? now : edge(p))).length
        if (compare(n, node.operator, node.operator_value!)) periods++
      }
      return periods >= node.min_periods!
    }
    case 'performed_event_sequence': {
      // ClickHouse's `latest_0 + INTERVAL n unit`: a fixed length, or calendar months after each event.
      const unit = node.seq_time_interval!
      const reach = (a: number) => (unit === 'month' ? monthsAfter(a, node.seq_time_value!) : a + (now - since(world.now, node.seq_time_value!, unit)))
      const inWindow = (at: number) => at > W && (until === null ? at <= now : at < until)
      const thens = times(node.seq_event!).filter(inWindow)
      return own.filter(inWindow).some((a) => thens.some((b) => a < b && b <= reach(a)))
    }
  }
}
