/**
 * Worked examples of the steps view without breakdowns: steps, filters,
 * windows, order types, same-timestamp events. Every `expected` is derived
 * by hand in `why`.
 */
import { dataset, ev, MARCH, persons, step, type FunnelExample } from './funnel-oracle-example-kit.js'

const SIGNUP_PAY = { ...MARCH, events: [{ id: 'signup', order: 0 }, { id: 'pay', order: 1 }] }

export const STEP_EXAMPLES: FunnelExample[] = [
  {
    name: 'two ordered steps',
    data: dataset(
      [
        ev('a1', 'alice', 'signup', '2024-03-01 10:00'),
        ev('a2', 'alice', 'pay', '2024-03-01 11:00'),
        ev('b1', 'bob', 'signup', '2024-03-02 09:00'),
        ev('c1', 'carol', 'pay', '2024-03-02 10:00'),
        ev('c2', 'carol', 'signup', '2024-03-02 11:00'),
      ],
      persons({ alice: ['alice'], bob: ['bob'], carol: ['carol'] }),
    ),
    params: SIGNUP_PAY,
    expected: [step(0, 'signup', 3), step(1, 'pay', 1, 3600)],
    why: 'All three signed up. Only alice paid after signing up (1 h later). Carol paid before her signup, and events before step 0 are not used.',
  },
  {
    name: 'steps from actions and events, ordered by order with 0 and missing as -1 (stable)',
    data: dataset(
      [
        ev('p1', 'p', 'signup', '2024-03-01 10:00'),
        ev('p2', 'p', 'view', '2024-03-01 10:05'),
        ev('p3', 'p', 'cart', '2024-03-01 10:10'),
        ev('p4', 'p', 'pay', '2024-03-01 10:20'),
        ev('q1', 'q', 'signup', '2024-03-01 11:00'),
        ev('q2', 'q', 'view', '2024-03-01 11:01'),
        ev('q3', 'q', 'checkout', '2024-03-01 11:02'),
        ev('r1', 'r', 'view', '2024-03-01 12:00'),
        ev('r2', 'r', 'signup', '2024-03-01 12:01'),
      ],
      persons({ p: ['p'], q: ['q'], r: ['r'] }),
      { actions: { 7: { name: 'Checkout', eventNames: ['checkout', 'cart'] } } },
    ),
    params: { ...MARCH, actions: [{ id: 7, type: 'actions', order: 2 }], events: [{ id: 'pay', order: 3 }, { id: 'signup', order: 0 }, { id: 'view' }] },
    expected: [
      step(0, 'signup', 3),
      step(1, 'view', 2, 180, 180),
      { ...step(2, null, 2, 180, 180), action_id: 7, name: 'Checkout', type: 'actions' },
      step(3, 'pay', 1, 600),
    ],
    why:
      'Actions come first, then events: [A7 (2), pay (3), signup (0 -> -1), view (missing -> -1)]; a stable sort gives signup, view, A7, pay. ' +
      'p: signup, view +300 s, cart (action 7) +300 s, pay +600 s. q: signup, view +60 s, checkout (action 7) +60 s. r viewed before signing up: step 0 only. ' +
      'Step 1 times 300 and 60 (mean = median = 180); step 2 the same; step 3 only p (600). An action step shows its integer id, its name and type "actions".',
  },
  {
    name: 'an "All events" step (id null)',
    data: dataset(
      [
        ev('a1', 'a', 'signup', '2024-03-01 10:00'),
        ev('a2', 'a', 'anything', '2024-03-01 10:30'),
        ev('b1', 'b', 'signup', '2024-03-01 10:00'),
      ],
      persons({ a: ['a'], b: ['b'] }),
    ),
    params: { ...MARCH, events: [{ id: 'signup', order: 0 }, { id: null, order: 1 }] },
    expected: [step(0, 'signup', 2), step(1, null, 1, 1800)],
    why: 'Step 1 matches any event. b has one signup, which matches both steps but fills only one. a\'s later event fills step 1, 1800 s later. The All events step has action_id and name null.',
  },
  {
    name: 'per-step properties and custom_name',
    data: dataset(
      [
        ev('a1', 'a', 'pageview', '2024-03-01 10:00', { $current_url: '/home' }),
        ev('a2', 'a', 'signup', '2024-03-01 10:10'),
        ev('b1', 'b', 'pageview', '2024-03-01 10:00', { $current_url: '/pricing' }),
        ev('b2', 'b', 'signup', '2024-03-01 10:30'),
      ],
      persons({ a: ['a'], b: ['b'] }),
    ),
    params: {
      ...MARCH,
      events: [
        { id: 'pageview', order: 0, custom_name: 'Pricing page', properties: [{ key: '$current_url', value: '/pricing', type: 'event' }] },
        { id: 'signup', order: 1 },
      ],
    },
    expected: [step(0, 'pageview', 1, null, null, { custom_name: 'Pricing page' }), step(1, 'signup', 1, 1800)],
    why: 'Only b\'s pageview is on /pricing; a never enters. b signs up 30 minutes later. custom_name is echoed on its step.',
  },
  {
    name: 'global properties apply to every step',
    data: dataset(
      [
        ev('a1', 'a', 'signup', '2024-03-01 10:00', { plan: 'pro' }),
        ev('a2', 'a', 'pay', '2024-03-01 10:30', { plan: 'pro' }),
        ev('b1', 'b', 'signup', '2024-03-01 10:00', { plan: 'pro' }),
        ev('b2', 'b', 'pay', '2024-03-01 10:30'),
        ev('c1', 'c', 'signup', '2024-03-01 10:00'),
      ],
      persons({ a: ['a'], b: ['b'], c: ['c'] }),
    ),
    params: { ...SIGNUP_PAY, properties: [{ key: 'plan', value: 'pro', type: 'event' }] },
    expected: [step(0, 'signup', 2), step(1, 'pay', 1, 1800)],
    why: 'plan=pro filters every event: c\'s signup is out, and b\'s pay (no plan) cannot be step 1. a converts in 1800 s.',
  },
  {
    name: 'filter_test_accounts applies the project\'s filters to every event',
    data: dataset(
      [
        ev('a1', 'a', 'signup', '2024-03-01 10:00'),
        ev('a2', 'a', 'pay', '2024-03-01 10:10'),
        ev('b1', 'b', 'signup', '2024-03-01 10:00'),
        ev('b2', 'b', 'pay', '2024-03-01 10:10'),
        ev('c1', 'c', 'signup', '2024-03-01 10:00'),
        ev('c2', 'c', 'pay', '2024-03-01 10:10'),
      ],
      persons({ a: ['a'], b: ['b'], c: ['c'] }, { a: { email: 'a@posthog.com' }, b: { email: 'b@example.com' } }),
      { project: { timezone: 'UTC', weekStartDay: 0, testAccountFilters: [{ key: 'email', value: '@posthog.com', operator: 'not_icontains', type: 'person' }] } },
    ),
    params: { ...SIGNUP_PAY, filter_test_accounts: true },
    expected: [step(0, 'signup', 2), step(1, 'pay', 2, 600)],
    why: 'a is a test account (email contains @posthog.com). c has no email, and not_icontains is true for a missing property, so c stays. b and c convert in 600 s.',
  },
  {
    name: 'a person with several distinct ids, and a personless distinct id',
    data: dataset(
      [
        ev('p1', 'anon-1', 'signup', '2024-03-01 10:00'),
        ev('p2', 'user-1', 'pay', '2024-03-01 10:20'),
        ev('q1', 'q', 'signup', '2024-03-01 10:00'),
        ev('g1', 'ghost', 'signup', '2024-03-01 11:00'),
        ev('g2', 'ghost', 'pay', '2024-03-01 11:05'),
      ],
      persons({ P: ['anon-1', 'user-1'], Q: ['q'] }),
    ),
    params: SIGNUP_PAY,
    expected: [step(0, 'signup', 3), step(1, 'pay', 2, 750, 750)],
    why: 'anon-1 and user-1 are one person: signup then pay 1200 s later. q only signs up. "ghost" has no person row and counts as its own person: 300 s. Times 1200 and 300: mean = median = 750.',
  },
  {
    name: 'the window boundary is inclusive: exactly 5 minutes converts, one microsecond more does not',
    data: dataset(
      [
        ev('a1', 'a', 'signup', '2024-03-01 10:00:00'),
        ev('a2', 'a', 'pay', '2024-03-01 10:05:00'),
        ev('b1', 'b', 'signup', '2024-03-01 10:00:00'),
        ev('b2', 'b', 'pay', '2024-03-01T10:05:00.000001Z'),
      ],
      persons({ a: ['a'], b: ['b'] }),
    ),
    params: { ...SIGNUP_PAY, funnel_window_interval: 5, funnel_window_interval_unit: 'minute' },
    expected: [step(0, 'signup', 2), step(1, 'pay', 1, 300)],
    why: 'Window 5 minutes (PostHog\'s funnel_window_interval_unit). a pays exactly 300 s after signup: ts - start <= W holds. b pays 300.000001 s after: out.',
  },
  {
    name: 'funnel_window_interval_type (upper case) wins over funnel_window_interval_unit',
    data: dataset(
      [
        ev('a1', 'a', 'signup', '2024-03-01 10:00'),
        ev('a2', 'a', 'pay', '2024-03-01 11:00'),
        ev('b1', 'b', 'signup', '2024-03-01 10:00'),
        ev('b2', 'b', 'pay', '2024-03-01 11:30'),
      ],
      persons({ a: ['a'], b: ['b'] }),
    ),
    params: { ...SIGNUP_PAY, funnel_window_interval: 1, funnel_window_interval_type: 'HOUR', funnel_window_interval_unit: 'day' },
    expected: [step(0, 'signup', 2), step(1, 'pay', 1, 3600)],
    why: 'DECISIONS.md: both names are read, in any case, and the interface document\'s name wins: 1 hour, not 1 day. a pays at exactly 1 h (in), b at 1.5 h (out).',
  },
  {
    name: 'funnel_window_days is used when funnel_window_interval is absent',
    data: dataset(
      [
        ev('a1', 'a', 'signup', '2024-03-01 10:00'),
        ev('a2', 'a', 'pay', '2024-03-02 10:00'),
        ev('b1', 'b', 'signup', '2024-03-01 10:00'),
        ev('b2', 'b', 'pay', '2024-03-02 12:00'),
      ],
      persons({ a: ['a'], b: ['b'] }),
    ),
    params: { ...SIGNUP_PAY, funnel_window_days: 1 },
    expected: [step(0, 'signup', 2), step(1, 'pay', 1, 86400)],
    why: 'A one-day window: a pays exactly 86400 s later (in), b 93600 s later (out).',
  },
  {
    name: 'funnel_window_days is ignored when funnel_window_interval is present',
    data: dataset(
      [
        ev('a1', 'a', 'signup', '2024-03-01 10:00'),
        ev('a2', 'a', 'pay', '2024-03-02 10:00'),
        ev('b1', 'b', 'signup', '2024-03-01 10:00'),
        ev('b2', 'b', 'pay', '2024-03-02 12:00'),
      ],
      persons({ a: ['a'], b: ['b'] }),
    ),
    params: { ...SIGNUP_PAY, funnel_window_interval: 2, funnel_window_days: 1 },
    expected: [step(0, 'signup', 2), step(1, 'pay', 2, 90000, 90000)],
    why: 'funnel_window_interval 2 (unit defaults to day) wins: both convert, in 86400 and 93600 s; mean and median 90000.',
  },
  {
    name: 're-entering step 0 moves the start forward',
    data: dataset(
      [ev('a1', 'a', 'a', '2024-03-01 13:01'), ev('a2', 'a', 'a', '2024-03-01 13:35'), ev('a3', 'a', 'b', '2024-03-01 13:41')],
      persons({ a: ['a'] }),
    ),
    params: { ...MARCH, events: [{ id: 'a', order: 0 }, { id: 'b', order: 1 }], funnel_window_interval: 10, funnel_window_interval_type: 'MINUTE' },
    expected: [step(0, 'a', 1), step(1, 'b', 1, 360)],
    why: 'funnels.md §3: with a 10-minute window, the 13:35 "a" starts a new attempt; "b" at 13:41 is 6 minutes after it, so it converts in 360 s.',
  },
  {
    name: 'different steps at the same timestamp convert; the zero time is left out of the averages',
    data: dataset(
      [
        ev('a1', 'a', 'signup', '2024-03-01 10:00'),
        ev('a2', 'a', 'pay', '2024-03-01 10:00'),
        ev('b1', 'b', 'signup', '2024-03-01 10:00'),
        ev('b2', 'b', 'pay', '2024-03-01 10:10'),
      ],
      persons({ a: ['a'], b: ['b'] }),
    ),
    params: SIGNUP_PAY,
    expected: [step(0, 'signup', 2), step(1, 'pay', 2, 600)],
    why: 'a\'s signup and pay share a timestamp: they convert with time 0, which `timings[i] > 0` drops from the mean and median. Only b\'s 600 s remains.',
  },
  {
    name: 'a repeated step needs two events; two identical events at one timestamp count as two',
    data: dataset(
      [
        ev('a1', 'a', 'signup', '2024-03-01 10:00'),
        ev('b1', 'b', 'signup', '2024-03-01 10:00'),
        ev('b2', 'b', 'signup', '2024-03-01 10:00'),
        ev('c1', 'c', 'signup', '2024-03-01 10:00'),
        ev('c2', 'c', 'signup', '2024-03-01 10:30'),
      ],
      persons({ a: ['a'], b: ['b'], c: ['c'] }),
    ),
    params: { ...MARCH, events: [{ id: 'signup', order: 0 }, { id: 'signup', order: 1 }] },
    expected: [step(0, 'signup', 3), step(1, 'signup', 2, 1800)],
    why: 'One event never fills two steps (flags are read high to low), so a stays at step 0. b\'s two events at the same instant have identical flags and are processed one after the other: the second fills step 1 (time 0, left out). c converts in 1800 s.',
  },
  {
    name: 'strict: an unrelated event in between breaks the chain; a repeated step 0 does not',
    data: dataset(
      [
        ev('a1', 'a', 'signup', '2024-03-01 10:00'),
        ev('a2', 'a', 'pageview', '2024-03-01 10:05'),
        ev('a3', 'a', 'pay', '2024-03-01 10:10'),
        ev('b1', 'b', 'signup', '2024-03-01 10:00'),
        ev('b2', 'b', 'pay', '2024-03-01 10:10'),
        ev('c1', 'c', 'signup', '2024-03-01 10:00'),
        ev('c2', 'c', 'signup', '2024-03-01 10:05'),
        ev('c3', 'c', 'pay', '2024-03-01 10:10'),
      ],
      persons({ a: ['a'], b: ['b'], c: ['c'] }),
    ),
    params: { ...SIGNUP_PAY, funnel_order_type: 'strict' },
    expected: [step(0, 'signup', 3), step(1, 'pay', 2, 450, 450)],
    why: 'Strict funnels see every event. a\'s pageview clears the partial path, so the pay does not count. b converts in 600 s. c\'s second signup restarts at 10:05 and pay follows directly: 300 s. Mean = median = 450.',
  },
  {
    name: 'ordered: the same data without strictness',
    data: dataset(
      [
        ev('a1', 'a', 'signup', '2024-03-01 10:00'),
        ev('a2', 'a', 'pageview', '2024-03-01 10:05'),
        ev('a3', 'a', 'pay', '2024-03-01 10:10'),
        ev('b1', 'b', 'signup', '2024-03-01 10:00'),
        ev('b2', 'b', 'pay', '2024-03-01 10:10'),
        ev('c1', 'c', 'signup', '2024-03-01 10:00'),
        ev('c2', 'c', 'signup', '2024-03-01 10:05'),
        ev('c3', 'c', 'pay', '2024-03-01 10:10'),
      ],
      persons({ a: ['a'], b: ['b'], c: ['c'] }),
    ),
    params: SIGNUP_PAY,
    expected: [step(0, 'signup', 3), step(1, 'pay', 3, 500, 600)],
    why: 'The pageview is not a funnel event. a and b convert in 600 s; c\'s latest signup (10:05) starts the conversion: 300 s. Mean (600+600+300)/3 = 500, median 600.',
  },
  {
    name: 'unordered: k different steps in any order within the window',
    data: dataset(
      [
        ev('x1', 'x', 'pay', '2024-03-01 10:00'),
        ev('x2', 'x', 'view', '2024-03-01 10:05'),
        ev('x3', 'x', 'cart', '2024-03-01 10:10'),
        ev('y1', 'y', 'cart', '2024-03-01 11:00'),
        ev('z1', 'z', 'view', '2024-03-01 12:00'),
        ev('z2', 'z', 'view', '2024-03-01 12:05'),
        ev('z3', 'z', 'pay', '2024-03-01 12:10'),
      ],
      persons({ x: ['x'], y: ['y'], z: ['z'] }),
    ),
    params: { ...MARCH, funnel_order_type: 'unordered', events: [{ id: 'view', order: 0 }, { id: 'cart', order: 1 }, { id: 'pay', order: 2 }] },
    expected: [
      { ...step(0, null, 3), name: 'Completed 1 step' },
      { ...step(1, null, 2, 450, 450), name: 'Completed 2 steps' },
      { ...step(2, null, 1, 300), name: 'Completed 3 steps' },
    ],
    why:
      'x did all three (pay, view, cart) within 10 minutes: heads 10:00, 10:05, 10:10, gaps 300 and 300. y did one step. ' +
      'z did two different steps (view twice, then pay): heads 12:00 (first view) and 12:10, gap 600. ' +
      'Step 1 times 300 (x) and 600 (z): 450. Unordered steps are named "Completed n step(s)" with action_id null.',
  },
  {
    name: 'an empty funnel gives its steps with count 0',
    data: dataset([ev('a1', 'a', 'signup', '2024-02-01 10:00')], persons({ a: ['a'] })),
    params: SIGNUP_PAY,
    expected: [step(0, 'signup', 0), step(1, 'pay', 0)],
    why: 'The only event is before date_from. DECISIONS.md: steps with count 0 (PostHog answers []).',
  },
  {
    name: 'the date range is read in the project\'s time zone',
    data: dataset(
      [
        ev('a1', 'a', 'signup', '2024-03-01 05:00'),
        ev('a2', 'a', 'pay', '2024-03-01 09:00'),
        ev('b1', 'b', 'signup', '2024-03-01 09:00'),
        ev('b2', 'b', 'pay', '2024-03-02 07:00'),
        ev('c1', 'c', 'signup', '2024-03-02 08:30'),
      ],
      persons({ a: ['a'], b: ['b'], c: ['c'] }),
      { project: { timezone: 'America/Los_Angeles', weekStartDay: 0, testAccountFilters: [] } },
    ),
    params: { date_from: '2024-03-01', date_to: '2024-03-01', events: [{ id: 'signup', order: 0 }, { id: 'pay', order: 1 }] },
    expected: [step(0, 'signup', 1), step(1, 'pay', 1, 79200)],
    why:
      '1 March in Los Angeles (PST, UTC-8) is 08:00Z on 1 March to 07:59:59.999999Z on 2 March. a\'s signup (05:00Z = 29 Feb 21:00) is out, so a never enters. ' +
      'b signs up at 01:00 and pays at 23:00 local: 79200 s. c\'s signup (08:30Z on 2 March) is 2 March locally: out.',
  },
]
