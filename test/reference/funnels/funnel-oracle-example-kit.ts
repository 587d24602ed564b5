/**
 * Builders that keep the worked examples short and readable: events with
 * readable uuids and timestamps, persons, and expected step objects. They
 * only spell data; nothing here computes a funnel.
 */
import type { FunnelExampleData } from './funnel-oracle-dataset.js'
import type { RefEvent, RefPerson, RefProject } from '../shared/ref-dataset.js'

export interface FunnelExample {
  readonly name: string
  readonly data: FunnelExampleData
  readonly params: Record<string, unknown>
  readonly expected: unknown
  readonly why: string
}

export const UTC: RefProject = { timezone: 'UTC', weekStartDay: 0, testAccountFilters: [] }

/** An event; `at` without a zone is read as UTC (`2024-03-01 10:00` -> `2024-03-01T10:00:00Z`). */
export function ev(uuid: string, distinctId: string, event: string, at: string, properties: Record<string, unknown> = {}, groups?: RefEvent['groups']): RefEvent {
  const timestamp = /[zZ]|[+-]\d\d:?\d\d$/.test(at) ? at : `${at.replace(' ', 'T')}${at.length === 16 ? ':00' : ''}Z`
  return { uuid, event, distinct_id: distinctId, timestamp, properties, ...(groups ? { groups } : {}) }
}

/** Persons keyed by distinct id: `{ alice: ['alice'], p: ['anon-1', 'user-1'] }` with optional properties by person id. */
export function persons(ids: Record<string, string[]>, properties: Record<string, Record<string, unknown>> = {}): Record<string, RefPerson> {
  const out: Record<string, RefPerson> = {}
  for (const [id, distinctIds] of Object.entries(ids)) for (const d of distinctIds) out[d] = { id, properties: properties[id] ?? {} }
  return out
}

/** A dataset in UTC (unless `project` says otherwise) with `now` after every example's range. */
export function dataset(events: RefEvent[], people: Record<string, RefPerson>, more: Partial<FunnelExampleData> = {}): FunnelExampleData {
  return { events, persons: people, project: UTC, now: '2024-03-20T00:00:00Z', ...more }
}

/** The usual date range of the examples: all of 1-7 March 2024 in the project's zone. */
export const MARCH = { date_from: '2024-03-01', date_to: '2024-03-07' } as const

/** An expected step object of an event step (`name` null for "All events"). */
export function step(
  order: number,
  name: string | null,
  count: number,
  average: number | null = null,
  median: number | null = average,
  more: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    action_id: name,
    name,
    custom_name: null,
    order,
    people: [],
    count,
    type: 'events',
    average_conversion_time: average,
    median_conversion_time: median,
    ...more,
  }
}

/** Expected steps of one breakdown value: `counts[i]` and `[average, median]` of step i >= 1 (null when no sample). */
export function breakdownSteps(
  names: ReadonlyArray<string>,
  value: unknown,
  counts: ReadonlyArray<number>,
  times: ReadonlyArray<readonly [number, number] | null>,
  shown: unknown = value,
): Array<Record<string, unknown>> {
  return names.map((name, i) => {
    const t = i === 0 ? null : times[i - 1] ?? null
    return step(i, name, counts[i]!, t?.[0] ?? null, t?.[1] ?? null, { breakdown: shown, breakdown_value: value })
  })
}
