import type { FunnelExampleData } from './funnel-dataset.js'
import type { RefEvent, RefPerson, RefProject } from '../shared/ref-dataset.js'

/**
 * Helpers that write the worked examples' plain data and expected step
 * objects; they only fill in fixed fields, never compute a result.
 */

export interface FunnelExample {
  readonly name: string
  readonly data: FunnelExampleData
  readonly params: Record<string, unknown>
  /** The `result` PostHog would return, or `{ validationError: attr }` for a 400 naming that field. */
  readonly expected: unknown
  readonly why: string
}

let counter = 0
/** A valid, readable uuid: ...-000000000007 for the 7th event written. */
export const nextUuid = (): string => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`

/** An event; `at` is written without its date part when it is on 2024-03-05 (UTC): `'10:00'` or `'10:00:30'`. */
export function ev(distinctId: string, event: string, at: string, properties: Record<string, unknown> = {}, groups?: RefEvent['groups']): RefEvent {
  const timestamp = /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(at) ? `2024-03-05T${at.length === 5 ? `${at}:00` : at}Z` : at
  return { uuid: nextUuid(), event, distinct_id: distinctId, timestamp, properties, ...(groups ? { groups } : {}) }
}

export const TEST_ACCOUNT_FILTERS = [{ key: 'email', value: '@posthog.com', operator: 'not_icontains', type: 'person' }]
export const UTC: RefProject = { timezone: 'UTC', weekStartDay: 0, testAccountFilters: TEST_ACCOUNT_FILTERS }

/** One person per distinct id (its id is the distinct id), with these properties. */
export const people = (props: Record<string, Record<string, unknown>>): Record<string, RefPerson> =>
  Object.fromEntries(Object.entries(props).map(([id, properties]) => [id, { id, properties }]))

export const dataset = (events: RefEvent[], persons: Record<string, RefPerson> = {}, extra: Partial<FunnelExampleData> = {}): FunnelExampleData => ({
  events,
  persons,
  project: UTC,
  now: '2024-03-20T12:00:00Z',
  ...extra,
})

/** Most examples look at 2024-03-01 .. 2024-03-15 (UTC). */
export const MARCH = { date_from: '2024-03-01', date_to: '2024-03-15' }

/** An event step object as PostHog serialises it. */
export function step(order: number, event: string | null, count: number, avg: number | null = null, median: number | null = avg, more: Record<string, unknown> = {}) {
  return {
    action_id: event,
    name: event,
    custom_name: null,
    order,
    people: [],
    count,
    type: 'events',
    average_conversion_time: avg,
    median_conversion_time: median,
    ...more,
  }
}

/** The same steps with a breakdown's fields. */
export const under = (value: unknown, steps: object[], shown: unknown = value) => steps.map((s) => ({ ...s, breakdown: shown, breakdown_value: value }))

/** Unordered step objects: "Completed N step(s)", no action id. */
export const done = (order: number, count: number, avg: number | null = null, median: number | null = avg) =>
  step(order, null, count, avg, median, { name: `Completed ${order + 1} step${order === 0 ? '' : 's'}` })
