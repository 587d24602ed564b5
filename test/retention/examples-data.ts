/**
 * The worked examples' data, small enough to count by hand. Days are UTC
 * unless an example says otherwise; `now` is well after every event.
 */
import type { RefDataset, RefEvent } from '../reference/ref-dataset.js'

let serial = 0
/** An event; uuids are unique per call so storage keeps every one. */
export const ev = (event: string, distinct_id: string, timestamp: string, properties: Record<string, unknown> = {}, groups?: RefEvent['groups']): RefEvent => ({
  uuid: `00000000-0000-4000-8000-${String(++serial).padStart(12, '0')}`,
  event,
  distinct_id,
  timestamp,
  properties,
  ...(groups ? { groups } : {}),
})

export const NOW = new Date('2024-01-20T12:00:00Z')

/** p1..p3 are persons (p1 with two distinct ids); d4 has no person. */
export function dataset(events: RefEvent[], overrides: Partial<RefDataset> = {}): RefDataset {
  return {
    events,
    persons: {
      d1: { id: 'p1', properties: { plan: 'pro' } },
      d1b: { id: 'p1', properties: { plan: 'pro' } },
      d2: { id: 'p2', properties: { plan: 'free' } },
      d3: { id: 'p3', properties: { plan: 'free' } },
    },
    project: { timezone: 'UTC', weekStartDay: 0, testAccountFilters: [] },
    now: NOW,
    ...overrides,
  }
}

/**
 * Page views over 6..11 January 2024 (window: date_to 2024-01-10 with 4
 * intervals = the days 7, 8, 9, 10, rows 0..3). Active days in the window:
 * p1 {7, 8, 10} (the 8th through its second id d1b), p2 {7, 9}, p3 {8}
 * (its 6th is before the window), d4 {10} (its 11th is after it).
 */
export const pageviews = dataset([
  ev('$pageview', 'd1', '2024-01-07T10:00:00Z'),
  ev('$pageview', 'd1b', '2024-01-08T09:00:00Z'),
  ev('$pageview', 'd1', '2024-01-10T23:59:59.999999Z'),
  ev('$pageview', 'd2', '2024-01-07T12:00:00Z'),
  ev('$pageview', 'd2', '2024-01-09T08:00:00Z'),
  ev('$pageview', 'd3', '2024-01-06T23:59:59Z'),
  ev('$pageview', 'd3', '2024-01-08T10:00:00Z'),
  ev('$pageview', 'd3', '2024-01-08T11:00:00Z'),
  ev('$pageview', 'd4', '2024-01-10T00:00:00Z'),
  ev('$pageview', 'd4', '2024-01-11T00:00:00Z'),
])
