/**
 * Worked examples of series and filters (reference §1.1, §4, §10): actions,
 * ordering, labels, property filters and test accounts. Derived by hand.
 */
import { ev, personsOf, UTC, type TrendExample } from './trend-example-data.js'

const NOW = '2024-01-10T12:00:00Z'
const JAN_1 = { date_from: '2024-01-01', date_to: '2024-01-01' }

/** p1 (x1) on plan pro: Chrome 10:00, Safari 11:00; p2 (x2) on plan free: Chrome 10:00 and 12:00 (Jan 1). */
const PLANS_AND_BROWSERS = {
  project: UTC,
  now: NOW,
  persons: personsOf({ p1: [['x1'], { plan: 'pro' }], p2: [['x2'], { plan: 'free' }] }),
  events: [
    ev('$pageview', 'x1', '2024-01-01T10:00:00Z', { $browser: 'Chrome' }),
    ev('$pageview', 'x1', '2024-01-01T11:00:00Z', { $browser: 'Safari' }),
    ev('$pageview', 'x2', '2024-01-01T10:00:00Z', { $browser: 'Chrome' }),
    ev('$pageview', 'x2', '2024-01-01T12:00:00Z', { $browser: 'Chrome' }),
  ],
}

export const SERIES_EXAMPLES: TrendExample[] = [
  {
    name: 'an action series with global properties and test accounts filtered out',
    data: {
      project: { ...UTC, testAccountFilters: [{ key: 'email', value: '@test.com', operator: 'not_icontains', type: 'person' }] },
      now: NOW,
      persons: personsOf({ p1: [['x1'], { email: 'a@x.com' }], p2: [['x2'], { email: 'b@x.com' }], p3: [['x3'], { email: 'z@TEST.com' }] }),
      actions: { 7: { name: 'Signed up', eventNames: ['signup', 'register'] } },
      events: [
        ev('signup', 'x1', '2024-01-01T10:00:00Z', { $browser: 'Chrome' }),
        ev('register', 'x2', '2024-01-01T10:00:00Z', { $browser: 'Chrome' }),
        ev('register', 'x1', '2024-01-01T11:00:00Z', { $browser: 'Safari' }),
        ev('login', 'x1', '2024-01-01T12:00:00Z', { $browser: 'Chrome' }),
        ev('signup', 'x3', '2024-01-01T13:00:00Z', { $browser: 'Chrome' }),
      ],
    },
    params: {
      actions: [{ id: 7, name: 'Signed up', type: 'actions' }],
      properties: [{ key: '$browser', value: 'Chrome', operator: 'exact', type: 'event' }],
      filter_test_accounts: true,
      ...JAN_1,
    },
    expected: [{ data: [2], label: 'Signed up', action: { id: 'Signed up', type: 'events', name: 'Signed up', order: 0 } }],
    why: "The action matches signup and register: 4 events; the Safari one fails the global filter; x3 is a test account (email contains @test.com, case-insensitively). Left: signup by p1 and register by p2. action.id is series_event(), the action's name, and type is 'events' (build_series_response).",
  },
  {
    name: 'series sorted by order (0 or missing first), custom_name kept out of the label, id null is All events',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      actions: { 7: { name: 'Signed up', eventNames: ['signup'] } },
      events: [
        ev('a', 'u1', '2024-01-01T10:00:00Z'),
        ev('b', 'u1', '2024-01-01T10:00:00Z'),
        ev('b', 'u1', '2024-01-01T11:00:00Z'),
        ...['10', '11', '12'].map((h) => ev('signup', 'u1', `2024-01-01T${h}:00:00Z`)),
      ],
    },
    params: {
      actions: [{ id: 7, name: 'Signed up', type: 'actions', order: 2 }],
      events: [
        { id: 'b', order: 1 },
        { id: 'a', custom_name: 'Custom A' },
        { id: null, order: 3 },
      ],
      ...JAN_1,
    },
    expected: [
      { label: 'a', data: [1], action: { id: 'a', order: 0, custom_name: 'Custom A' } },
      { label: 'b', data: [2], action: { id: 'b', order: 1 } },
      { label: 'Signed up', data: [3], action: { id: 'Signed up', order: 2, type: 'events' } },
      { label: 'All events', data: [6], action: { id: null, order: 3, name: 'All events' } },
    ],
    why: "Sort keys: a (missing) -1, b 1, the action 2, all events 3. a 1 event, b 2, the action (signup) 3, all events 6. The action's action.id is its name (series_event).",
  },
  {
    name: 'a series whose event never occurs is returned with zeros',
    data: { project: UTC, now: NOW, persons: {}, events: [ev('$pageview', 'u1', '2024-01-01T10:00:00Z')] },
    params: { events: [{ id: 'never' }], date_from: '2024-01-01', date_to: '2024-01-02' },
    expected: [{ label: 'never', data: [0, 0], count: 0 }],
    why: 'No breakdown: the series is still there, all zeros.',
  },
  // A count reads no person, so the series leaves the person join out unless a filter reads the person (series-scope.ts,
  // readsPersons): each example below has one kind of person-reading filter only, next to an event filter.
  {
    name: 'a global person filter in a list next to an event filter, an event filter on the series: the count keeps the person join',
    data: PLANS_AND_BROWSERS,
    params: {
      events: [{ id: '$pageview', properties: [{ key: '$browser', value: 'Chrome', operator: 'exact', type: 'event' }] }],
      properties: [
        { key: '$browser', operator: 'is_set', type: 'event' },
        { key: 'plan', value: 'pro', operator: 'exact', type: 'person' },
      ],
      ...JAN_1,
    },
    expected: [{ data: [1] }],
    why: 'Chrome page views (the series): x1 at 10:00, x2 at 10:00 and 12:00; every one has a $browser. Of those only x1 is on plan pro: 1.',
  },
  {
    name: 'a global AND group of an event filter and a person filter',
    data: PLANS_AND_BROWSERS,
    params: {
      events: [{ id: '$pageview' }],
      properties: {
        type: 'AND',
        values: [
          { key: '$browser', value: 'Chrome', operator: 'exact', type: 'event' },
          { key: 'plan', value: 'free', operator: 'exact', type: 'person' },
        ],
      },
      ...JAN_1,
    },
    expected: [{ data: [2] }],
    why: "Chrome page views by plan free: x2's at 10:00 and 12:00 (x1 is pro): 2.",
  },
  {
    name: 'a global cohort filter alone',
    data: { ...PLANS_AND_BROWSERS, cohorts: { 5: ['p2'] } },
    params: { events: [{ id: '$pageview' }], properties: [{ key: 'id', value: 5, type: 'cohort' }], ...JAN_1 },
    expected: [{ data: [2] }],
    why: "Cohort 5 holds p2 (x2): x2's two page views, whatever the browser.",
  },
  {
    name: 'filters on two group types: a count joins both groups',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      groups: { 0: { acme: { industry: 'tech' }, beta: { industry: 'finance' } }, 1: { t1: { size: 'large' }, t2: { size: 'small' } } },
      events: [
        ev('$pageview', 'u1', '2024-01-01T10:00:00Z', {}, { 0: 'acme', 1: 't1' }),
        ev('$pageview', 'u1', '2024-01-01T11:00:00Z', {}, { 0: 'acme', 1: 't2' }),
        ev('$pageview', 'u2', '2024-01-01T10:00:00Z', {}, { 0: 'beta', 1: 't1' }),
        ev('$pageview', 'u2', '2024-01-01T11:00:00Z', {}, { 0: 'acme' }),
      ],
    },
    params: {
      events: [{ id: '$pageview', properties: [{ key: 'industry', value: 'tech', type: 'group', group_type_index: 0 }] }],
      properties: [{ key: 'size', value: 'large', type: 'group', group_type_index: 1 }],
      ...JAN_1,
    },
    expected: [{ data: [1] }],
    why: 'Only the first event is at a tech company (acme) and a large team (t1): the second is at t2 (small), the third at beta (finance), the fourth has no group 1.',
  },
  {
    name: 'nested OR of person and cohort filters, with a group filter on the series',
    data: {
      project: UTC,
      now: NOW,
      persons: personsOf({ p1: [['x1'], { plan: 'pro' }], p2: [['x2'], { plan: 'free' }], p3: [['x3'], { plan: 'free' }] }),
      cohorts: { 5: ['p2'] },
      groups: { 0: { acme: { industry: 'tech' }, beta: { industry: 'finance' } } },
      events: [
        ev('$pageview', 'x1', '2024-01-01T10:00:00Z', {}, { 0: 'acme' }),
        ev('$pageview', 'x2', '2024-01-01T10:00:00Z', {}, { 0: 'acme' }),
        ev('$pageview', 'x3', '2024-01-01T10:00:00Z', {}, { 0: 'acme' }),
        ev('$pageview', 'x1', '2024-01-01T11:00:00Z', {}, { 0: 'beta' }),
        ev('$pageview', 'x1', '2024-01-01T12:00:00Z', { industry: 'tech' }),
      ],
    },
    params: {
      events: [{ id: '$pageview', properties: [{ key: 'industry', value: 'tech', type: 'group', group_type_index: 0 }] }],
      properties: {
        type: 'OR',
        values: [
          { type: 'AND', values: [{ key: 'plan', value: 'pro', type: 'person' }] },
          { type: 'AND', values: [{ key: 'id', value: 5, type: 'cohort' }] },
        ],
      },
      ...JAN_1,
    },
    expected: [{ data: [2] }],
    why: 'Persons allowed: p1 (pro) and p2 (in cohort 5), not p3. Groups allowed: acme (tech), not beta, and not an event without a group (an event property named industry is not the group\'s). Left: p1 and p2 at acme.',
  },
]
