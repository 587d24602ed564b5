import { ValidationError } from '../../errors.js'
import type { CohortCriterion } from '../../model/cohort.js'
import { decodeOrThrow } from '../../util/decode.js'
import { parseAbsoluteDate } from '../dates/absolute-date.js'
import { parseRelativeDate } from '../dates/relative-date.js'
import { PropertyFilters } from '../filters/property-filters.js'
import { secondsOf, type WindowUnit } from './behavioral-window.js'

type Path = ReadonlyArray<string | number>

/** How a criterion compares a number of events (PostHog's `get_count_operator`). */
export type CountComparison = '>=' | '>' | '<=' | '<' | '='

/** An event name, or an action by id. */
export type CohortEntity = { readonly type: 'events'; readonly event: string } | { readonly type: 'actions'; readonly actionId: number }

/** `time_value time_interval`: a span ending now. */
export interface RelativeSpan {
  readonly value: number
  readonly unit: WindowUnit
}

/**
 * What a behavioral criterion asks of the person's matching events, as
 * PostHog's ClickHouse cohort query (`enterprise_cohort_query.py`) computes
 * it, W(span) being `now - span`:
 * - `count`: `performed_event` / `performed_event_multiple`, the events with
 *   `since < timestamp < until` (`since` is W(span), or the explicit
 *   datetime; `until` is now, or the explicit datetime's `until`) number
 *   `comparison count` (at least one, for `performed_event`);
 * - `first_time`: the first event ever is in `[W(span), now)`, or in
 *   `[explicit, until)` with an explicit range, and passes the event
 *   filters (PostHog's `first_time_for_user` math: the earliest event of the
 *   entity, then the filters);
 * - `stopped`: some in `(W(span), W(recent)]`, none in `(W(recent), now]`,
 *   of the events passing the event filters;
 * - `restarted`: some at or before W(span), none in `(W(span), W(recent)]`,
 *   some in `(W(recent), now]`;
 * - `regularly`: in at least `minPeriods` of the periods
 *   `(W(span * (p + 1)), W(span * p)]`, p < `totalPeriods`, the events
 *   number `comparison count`;
 * - `sequence`: an event at `a` and an event of `then` at `b` with
 *   `a < b <= a + within` (calendar months after `a` for months and years),
 *   both in `(W(span), now]`, or in `(explicit, until)` with an explicit
 *   range (`until` absent: `now`, included).
 */
export type Behavior =
  | { readonly type: 'count'; readonly since: RelativeSpan | ExplicitRange; readonly comparison: CountComparison; readonly count: number }
  | { readonly type: 'first_time'; readonly since: RelativeSpan | ExplicitRange }
  | { readonly type: 'stopped' | 'restarted'; readonly span: RelativeSpan; readonly recent: RelativeSpan }
  | { readonly type: 'regularly'; readonly span: RelativeSpan; readonly comparison: CountComparison; readonly count: number; readonly minPeriods: number; readonly totalPeriods: number }
  | { readonly type: 'sequence'; readonly since: RelativeSpan | ExplicitRange; readonly then: CohortEntity; readonly within: RelativeSpan }

/**
 * `explicit_datetime` and, when given, `explicit_datetime_to`: texts PostHog's
 * `relative_date_parse` reads, resolved in the project's zone when compiled.
 */
export interface ExplicitRange {
  readonly explicit: string
  readonly until?: string
}

export interface BehavioralNode {
  readonly kind: 'behavioral'
  readonly negated: boolean
  readonly entity: CohortEntity
  readonly behavior: Behavior
  readonly eventFilters: PropertyFilters | null
  readonly path: Path
}

const COMPARISONS: Readonly<Record<string, CountComparison>> = { gte: '>=', gt: '>', lte: '<=', lt: '<', eq: '=', exact: '=' }
const BEHAVIORS = [
  'performed_event',
  'performed_event_multiple',
  'performed_event_first_time',
  'performed_event_sequence',
  'performed_event_regularly',
  'stopped_performing_event',
  'restarted_performing_event',
]
/**
 * Which behaviors read `event_filters` and the explicit range, as PostHog's
 * `HogQLCohortQuery` reads them (its ClickHouse query reads them on none
 * but performed_event): the trends actors query of performed_event and
 * first time (the series' properties, the date range), performed_event_multiple's
 * EventsQuery, stopped's two trends ranges (their event filters; an explicit
 * range would be both ranges, so their EXCEPT empty, and is not read:
 * the ClickHouse query's reading), a sequence's funnel (its date range, no
 * step properties). restarted and regularly build queries from neither.
 * A field a behavior does not read is checked and ignored, as in PostHog.
 */
const READS: Readonly<Record<string, { readonly filters: boolean; readonly explicit: boolean }>> = {
  performed_event: { filters: true, explicit: true },
  performed_event_multiple: { filters: true, explicit: true },
  performed_event_first_time: { filters: true, explicit: true },
  stopped_performing_event: { filters: true, explicit: false },
  performed_event_sequence: { filters: false, explicit: true },
  restarted_performing_event: { filters: false, explicit: false },
  performed_event_regularly: { filters: false, explicit: false },
}
const INTERVALS: ReadonlyArray<string> = ['minute', 'hour', 'day', 'week', 'month', 'year']
/** Bounds a window and a count to what a timestamp and a 64-bit count can hold. */
export const MAX_COUNT = 1_000_000

const fail = (path: Path, message: string): never => {
  throw new ValidationError([{ path, message }], { context: 'invalid cohort filters' })
}

const given = (v: unknown): boolean => v !== undefined && v !== null && v !== ''

/**
 * Checks a behavioral criterion field by field and returns it as a node.
 * Throws `ValidationError` at the failing field: behaviors PostHog does not
 * have; missing or non-positive numbers (PostHog's
 * `parse_and_validate_positive_integer`); intervals other than minute to
 * year; `seq_time_value seq_time_interval` longer than `time_value
 * time_interval` for stopped and restarted (PostHog's "seq_date must be more
 * recent than date", months as 30 days and years as 365); `min_periods` above
 * `total_periods`; malformed `event_filters` and unreadable explicit
 * datetimes, also where the behavior does not read them (`READS`).
 * `explicit_datetime_to` without `explicit_datetime` is not read, as
 * PostHog's HogQL cohort query reads it only beside it.
 */
export function parseBehavioral(c: CohortCriterion, negated: boolean, path: Path): BehavioralNode {
  const at = (field: string): Path => [...path, field]
  const behavior = c.value
  if (typeof behavior !== 'string' || !BEHAVIORS.includes(behavior)) fail(at('value'), `behavioral criteria are one of ${BEHAVIORS.join(', ')}; got ${JSON.stringify(behavior)}`)
  const reads = READS[behavior as string]!
  const entity = parseEntity(c.event_type, c.key, at('event_type'), at('key'), 'key')
  const filters = !given(c.event_filters) ? null : decodeOrThrow(PropertyFilters, c.event_filters, 'invalid cohort filters', at('event_filters'))
  const eventFilters = reads.filters ? filters : null
  const until = given(c.explicit_datetime_to) ? { until: explicitDatetime(c.explicit_datetime_to, at('explicit_datetime_to')) } : {}
  const range: ExplicitRange | null = given(c.explicit_datetime) ? { explicit: explicitDatetime(c.explicit_datetime, at('explicit_datetime')), ...until } : null
  // time_value and time_interval are not read beside an explicit range the behavior reads, as in PostHog.
  const since = (): RelativeSpan | ExplicitRange => (reads.explicit && range !== null ? range : span(c.time_value, c.time_interval, path, 'time'))
  const node = (b: Behavior): BehavioralNode => ({ kind: 'behavioral', negated, entity, behavior: b, eventFilters, path })
  switch (behavior) {
    case 'performed_event':
    case 'performed_event_multiple': {
      const multiple = behavior === 'performed_event_multiple'
      return node({ type: 'count', since: since(), comparison: multiple ? comparison(c.operator, at('operator')) : '>=', count: multiple ? countOf(c.operator_value, at('operator_value')) : 1 })
    }
    case 'performed_event_first_time':
      return node({ type: 'first_time', since: since() })
    case 'stopped_performing_event':
    case 'restarted_performing_event': {
      const whole = span(c.time_value, c.time_interval, path, 'time')
      const recent = span(c.seq_time_value, c.seq_time_interval, path, 'seq_time')
      if (secondsOf(recent) > secondsOf(whole)) fail(at('seq_time_value'), 'seq_date must be more recent than date')
      return node({ type: behavior === 'stopped_performing_event' ? 'stopped' : 'restarted', span: whole, recent })
    }
    case 'performed_event_regularly': {
      const minPeriods = countOf(c.min_periods, at('min_periods'))
      const totalPeriods = countOf(c.total_periods, at('total_periods'))
      if (minPeriods > totalPeriods) fail(at('min_periods'), `min_periods (${minPeriods}) cannot be greater than total_periods (${totalPeriods})`)
      const s = span(c.time_value, c.time_interval, path, 'time')
      if (s.value * totalPeriods > MAX_COUNT) fail(at('total_periods'), `time_value times total_periods is at most ${MAX_COUNT}`)
      return node({ type: 'regularly', span: s, comparison: comparison(c.operator, at('operator')), count: countOf(c.operator_value, at('operator_value')), minPeriods, totalPeriods })
    }
    default: {
      const then = parseEntity(c.seq_event_type ?? 'events', c.seq_event, at('seq_event_type'), at('seq_event'), 'seq_event')
      const within = span(c.seq_time_value, c.seq_time_interval, path, 'seq_time')
      return node({ type: 'sequence', since: since(), then, within })
    }
  }
}

function parseEntity(type: unknown, key: unknown, typePath: Path, keyPath: Path, keyName: string): CohortEntity {
  const eventType = type ?? 'events'
  if (eventType === 'actions') return { type: 'actions', actionId: positive(key, keyPath, 'an action id') }
  if (eventType !== 'events') fail(typePath, `the event type is events or actions, not ${JSON.stringify(eventType)}`)
  if (typeof key === 'string' && key !== '') return { type: 'events', event: key }
  return fail(keyPath, `a behavioral criterion needs the event name as ${keyName}`)
}

function span(value: unknown, unit: unknown, path: Path, prefix: 'time' | 'seq_time'): RelativeSpan {
  const n = countOf(value, [...path, `${prefix}_value`])
  if (typeof unit !== 'string' || !INTERVALS.includes(unit)) fail([...path, `${prefix}_interval`], `${prefix}_interval is one of ${INTERVALS.join(', ')}; got ${JSON.stringify(unit)}`)
  return { value: n, unit: unit as WindowUnit }
}

function comparison(operator: unknown, path: Path): CountComparison {
  const op = operator ?? 'eq'
  return (typeof op === 'string' && Object.hasOwn(COMPARISONS, op) ? COMPARISONS[op] : undefined) ?? fail(path, `operator is gte, gt, lte, lt or eq, not ${JSON.stringify(op)}`)
}

/** PostHog's `relative_date_parse` input: an absolute date or a relative one (`-30d`); resolved in the project's zone when compiled. */
function explicitDatetime(v: unknown, path: Path): string {
  const text = typeof v === 'string' ? v.trim() : ''
  if (text.length > 64 || (parseAbsoluteDate(text) === null && parseRelativeDate(text) === null)) {
    fail(path, `cannot read ${JSON.stringify(v)}; use an ISO 8601 date such as 2024-01-31, or a relative date such as -30d`)
  }
  return text
}

/**
 * PostHog's `parse_and_validate_positive_integer`: Python's `int()` of the
 * value (a number truncated, a boolean as 0 or 1, digits), at least 1.
 */
export function countOf(v: unknown, path: Path): number {
  return positive(typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : typeof v === 'boolean' ? Number(v) : v, path)
}

/** A positive integer, given as a number or its digits. */
export function positive(v: unknown, path: Path, what = 'a positive integer'): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\+?\d{1,15}\s*$/.test(v) ? Number(v) : Number.NaN
  return Number.isInteger(n) && n >= 1 && n <= MAX_COUNT ? n : fail(path, `expected ${what} (1 to ${MAX_COUNT}), got ${JSON.stringify(v)}`)
}
