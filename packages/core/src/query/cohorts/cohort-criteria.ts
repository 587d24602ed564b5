import { ValidationError } from '../../errors.js'
import type { CohortCriteriaGroup, CohortCriterion, CohortFilters } from '../../model/cohort.js'
import { MAX_FILTER_DEPTH } from '../filters/compile-property-filters.js'
import { PropertyCondition, PropertyFilters } from '../filters/property-filters.js'
import { decodeOrThrow } from '../../util/decode.js'
import type { WindowUnit } from './behavioral-window.js'
import { cohortIdsIn } from './cohort-ids.js'

type Path = ReadonlyArray<string | number>

/** How a behavioral criterion compares the number of matching events (PostHog's `get_count_operator`). */
export type CountComparison = '>=' | '>' | '<=' | '<' | '='

/** A dynamic cohort's criteria, checked and normalised: what the SQL compiler reads. */
export type CohortNode =
  | { readonly kind: 'group'; readonly type: 'AND' | 'OR'; readonly values: ReadonlyArray<CohortNode> }
  | { readonly kind: 'person'; readonly filter: PropertyCondition; readonly path: Path }
  | {
      readonly kind: 'behavioral'
      readonly negated: boolean
      readonly entity: { readonly type: 'events'; readonly event: string } | { readonly type: 'actions'; readonly actionId: number }
      readonly comparison: CountComparison
      readonly count: number
      readonly window: { readonly value: number; readonly unit: WindowUnit }
      readonly eventFilters: PropertyFilters | null
      readonly path: Path
    }
  | { readonly kind: 'cohort'; readonly negated: boolean; readonly cohortId: number; readonly path: Path }

const COMPARISONS: Readonly<Record<string, CountComparison>> = { gte: '>=', gt: '>', lte: '<=', lt: '<', eq: '=', exact: '=' }
const BEHAVIORS = ['performed_event', 'performed_event_multiple']
/** Bounds a window and a count to what a timestamp and a 64-bit count can hold. */
const MAX_COUNT = 1_000_000

const fail = (path: Path, message: string): never => {
  throw new ValidationError([{ path, message }], { context: 'invalid cohort filters' })
}

/**
 * Checks a cohort's `filters` beyond their structure and returns them as
 * nodes. Throws `ValidationError` at the failing path (from `path`, default
 * `['filters']`): group types other than AND and OR, criterion types other
 * than person, behavioral and cohort, unsupported behaviors, missing or
 * non-positive counts, `explicit_datetime` (not supported), negated person
 * criteria, malformed event filters.
 */
export function parseCohortCriteria(filters: CohortFilters, path: Path = ['filters']): CohortNode {
  return group(filters.properties, [...path, 'properties'], 0)
}

function group(g: CohortCriteriaGroup, path: Path, depth: number): CohortNode {
  if (depth >= MAX_FILTER_DEPTH) fail(path, `cohort criteria nest deeper than ${MAX_FILTER_DEPTH} levels`)
  if (g.type !== 'AND' && g.type !== 'OR') fail([...path, 'type'], `a group's type is AND or OR, not ${JSON.stringify(g.type)}`)
  return {
    kind: 'group',
    type: g.type as 'AND' | 'OR',
    values: g.values.map((v, i) => ('values' in v ? group(v, [...path, 'values', i], depth + 1) : criterion(v, [...path, 'values', i]))),
  }
}

const INTERVALS: ReadonlyArray<string> = ['minute', 'hour', 'day', 'week', 'month', 'year']

function criterion(c: CohortCriterion, path: Path): CohortNode {
  const negation = c.negation ?? false
  if (typeof negation !== 'boolean') fail([...path, 'negation'], 'expected a boolean')
  switch (c.type) {
    case 'person': {
      if (negation) fail([...path, 'negation'], 'negation applies to behavioral and cohort criteria; use a negative operator (is_not, not_icontains ...) for person properties')
      const filter = decodeOrThrow(PropertyCondition, { key: c.key, value: c.value, operator: c.operator, type: 'person' }, 'invalid cohort filters', path)
      return { kind: 'person', filter, path }
    }
    case 'cohort': {
      const id = positive(c.value, [...path, 'value'], 'a cohort id')
      const operator = c.operator ?? 'in'
      if (operator !== 'in' && operator !== 'not_in' && operator !== 'exact') fail([...path, 'operator'], `cohort criteria take the operator in or not_in, not ${JSON.stringify(operator)}`)
      return { kind: 'cohort', negated: negation !== (operator === 'not_in'), cohortId: id, path }
    }
    case 'behavioral':
      return behavioral(c, negation as boolean, path)
    default:
      return fail([...path, 'type'], `cohort criteria are of type person, behavioral or cohort, not ${JSON.stringify(c.type)}`)
  }
}

function behavioral(c: CohortCriterion, negated: boolean, path: Path): CohortNode {
  if (typeof c.value !== 'string' || !BEHAVIORS.includes(c.value)) {
    fail([...path, 'value'], `behavioral criteria supported: ${BEHAVIORS.join(', ')}; got ${JSON.stringify(c.value)}`)
  }
  if (c.explicit_datetime !== undefined && c.explicit_datetime !== null && c.explicit_datetime !== '') {
    fail([...path, 'explicit_datetime'], 'explicit_datetime is not supported: give time_value and time_interval')
  }
  const eventType = c.event_type ?? 'events'
  let entity: { type: 'events'; event: string } | { type: 'actions'; actionId: number }
  if (eventType === 'actions') entity = { type: 'actions', actionId: positive(c.key, [...path, 'key'], 'an action id') }
  else if (eventType !== 'events') entity = fail([...path, 'event_type'], `event_type is events or actions, not ${JSON.stringify(eventType)}`)
  else if (typeof c.key === 'string' && c.key !== '') entity = { type: 'events', event: c.key }
  else entity = fail([...path, 'key'], 'a behavioral criterion needs the event name as key')
  const value = positive(c.time_value, [...path, 'time_value'], 'a positive integer')
  const unit = c.time_interval
  if (typeof unit !== 'string' || !INTERVALS.includes(unit)) fail([...path, 'time_interval'], `time_interval is one of ${INTERVALS.join(', ')}; got ${JSON.stringify(unit)}`)
  let comparison: CountComparison = '>='
  let count = 1
  if (c.value === 'performed_event_multiple') {
    const operator = c.operator ?? 'eq'
    comparison = (typeof operator === 'string' && Object.hasOwn(COMPARISONS, operator) ? COMPARISONS[operator] : undefined) ?? fail([...path, 'operator'], `operator is gte, gt, lte, lt or eq, not ${JSON.stringify(operator)}`)
    count = positive(c.operator_value, [...path, 'operator_value'], 'a positive integer')
  }
  const eventFilters = c.event_filters === undefined || c.event_filters === null ? null : decodeOrThrow(PropertyFilters, c.event_filters, 'invalid cohort filters', [...path, 'event_filters'])
  return { kind: 'behavioral', negated, entity, comparison, count, window: { value, unit: unit as WindowUnit }, eventFilters, path }
}

/** A positive integer, given as a number or its digits (PostHog's `parse_and_validate_positive_integer`). */
function positive(v: unknown, path: Path, what: string): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d{1,15}\s*$/.test(v) ? Number(v) : Number.NaN
  return Number.isInteger(n) && n >= 1 && n <= MAX_COUNT ? n : fail(path, `expected ${what} (1 to ${MAX_COUNT}), got ${JSON.stringify(v)}`)
}

/** The cohorts and actions a cohort's criteria name, event filters included (not those of the cohorts or actions named). */
export function criteriaReferences(node: CohortNode): { cohorts: number[]; actions: number[] } {
  const cohorts: number[] = []
  const actions: number[] = []
  const visit = (n: CohortNode): void => {
    if (n.kind === 'group') n.values.forEach(visit)
    else if (n.kind === 'cohort') cohorts.push(n.cohortId)
    else if (n.kind === 'behavioral') {
      if (n.entity.type === 'actions') actions.push(n.entity.actionId)
      if (n.eventFilters) cohorts.push(...cohortIdsIn(n.eventFilters))
    }
  }
  visit(node)
  return { cohorts, actions }
}
