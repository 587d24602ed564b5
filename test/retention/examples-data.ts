/**
 * The worked examples' data, small enough to count by hand. Days are UTC
 * unless an example says otherwise; `now` is well after every event.
 */
import type { RefDataset, RefEvent } from '../reference/shared/ref-dataset.js'

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

/** p1..p3 are persons (p1 with two distinct ids); d4 is listed with none (capture gives it a person of its own). */
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

/**
 * Sign-ups and purchases over 7..10 January (same window as `pageviews`):
 * p1 signs up on the 7th (plan_choice pro) and buys on the 7th (same day:
 * never a return) and twice on the 9th; p2 signs up on the 8th (free) and
 * the 10th (pro) and buys on the 10th; p3 only buys, on the 8th; d4 signs
 * up on the 9th and buys on the 10th. Browsers: p1 Chrome, p2 and p3
 * Firefox, d4 Safari.
 */
export const purchases = dataset([
  ev('signup', 'd1', '2024-01-07T09:00:00Z', { $browser: 'Chrome', plan_choice: 'pro' }),
  ev('buy', 'd1', '2024-01-07T15:00:00Z', { $browser: 'Chrome' }),
  ev('buy', 'd1', '2024-01-09T10:00:00Z', { $browser: 'Chrome' }),
  ev('buy', 'd1b', '2024-01-09T11:00:00Z', { $browser: 'Chrome' }),
  ev('signup', 'd2', '2024-01-08T09:00:00Z', { $browser: 'Firefox', plan_choice: 'free' }),
  ev('buy', 'd2', '2024-01-10T09:00:00Z', { $browser: 'Firefox' }),
  ev('signup', 'd2', '2024-01-10T10:00:00Z', { $browser: 'Firefox', plan_choice: 'pro' }),
  ev('buy', 'd3', '2024-01-08T09:00:00Z', { $browser: 'Firefox' }),
  ev('signup', 'd4', '2024-01-09T09:00:00Z', { $browser: 'Safari' }),
  ev('buy', 'd4', '2024-01-10T09:00:00Z', { $browser: 'Safari' }),
])

/** One person whose browser changes: Chrome on the 7th, Safari on the 8th. */
export const browserSwitch = dataset([
  ev('$pageview', 'd1', '2024-01-07T10:00:00Z', { $browser: 'Chrome' }),
  ev('$pageview', 'd1', '2024-01-08T10:00:00Z', { $browser: 'Safari' }),
])

/** Companies (group type 0): acme seen on the 7th and 8th (by two persons), beta on the 9th; one event without a company. */
export const companies = dataset(
  [
    ev('$pageview', 'd1', '2024-01-07T10:00:00Z', {}, { 0: 'acme' }),
    ev('$pageview', 'd2', '2024-01-08T10:00:00Z', {}, { 0: 'acme' }),
    ev('$pageview', 'd3', '2024-01-08T11:00:00Z'),
    ev('$pageview', 'd3', '2024-01-09T10:00:00Z', {}, { 0: 'beta' }),
  ],
  { groups: { 0: { acme: { size: 'big' }, beta: { size: 'small' } } } },
)

/** `pageviews` plus one page view by p1 on 15 December 2023. */
export const withDecember = dataset([ev('$pageview', 'd1', '2023-12-15T10:00:00Z'), ...pageviews.events])

/**
 * America/New_York around the spring-forward change (2024-03-10 02:00 EST
 * -> 03:00 EDT): p1 at 00:30 EST and 03:10 EDT on the 10th, p2 at 01:59
 * EST and 03:59:59 EDT.
 */
export const springForwardHours = dataset(
  [
    ev('$pageview', 'd1', '2024-03-10T05:30:00Z'),
    ev('$pageview', 'd1', '2024-03-10T07:10:00Z'),
    ev('$pageview', 'd2', '2024-03-10T06:59:00Z'),
    ev('$pageview', 'd2', '2024-03-10T07:59:59Z'),
  ],
  { project: { timezone: 'America/New_York', weekStartDay: 0, testAccountFilters: [] }, now: new Date('2024-03-20T12:00:00Z') },
)

/** America/New_York days around the change: p1 at 23:30 on the 9th (EST) and the 10th (EDT), and 00:30 on the 11th. */
export const springForwardDays = dataset(
  [ev('$pageview', 'd1', '2024-03-10T04:30:00Z'), ev('$pageview', 'd1', '2024-03-11T03:30:00Z'), ev('$pageview', 'd1', '2024-03-11T04:30:00Z')],
  { project: { timezone: 'America/New_York', weekStartDay: 0, testAccountFilters: [] }, now: new Date('2024-03-20T12:00:00Z') },
)

/**
 * Same-instant first events (America/New_York, Sunday weeks): p1's `a` at
 * 2024-02-25T00:00Z (Saturday 24 February, 19:00 EST) twice, once with
 * $browser Chrome and once without, then at 05:00Z (Sunday 25 February,
 * 00:00 EST, the next week) with $browser ''.
 */
export const sameInstantFirst = dataset(
  [
    ev('a', 'd1', '2024-02-25T00:00:00Z', { $browser: 'Chrome' }),
    ev('a', 'd1', '2024-02-25T00:00:00Z'),
    ev('a', 'd1', '2024-02-25T05:00:00Z', { $browser: '' }),
  ],
  { project: { timezone: 'America/New_York', weekStartDay: 0, testAccountFilters: [] }, now: new Date('2024-03-25T12:00:00Z') },
)
