/**
 * Worked examples of breakdowns: every attribution type, the limit and
 * "Other", several properties, person, group and cohort breakdowns, and the
 * unboxing for old clients. Every `expected` is derived by hand in `why`.
 */
import { breakdownSteps, dataset, ev, MARCH, persons, type FunnelExample } from './funnel-oracle-example-kit.js'

const NAMES = ['signup', 'pay']
const STEPS = [{ id: 'signup', order: 0 }, { id: 'pay', order: 1 }]

// a: signup on Chrome, pays on Safari 10 min later; b: signup on Safari; c: signup without a browser, pays on Firefox 30 min later.
const TOUCHES = dataset(
  [
    ev('a1', 'a', 'signup', '2024-03-01 10:00', { $browser: 'Chrome' }),
    ev('a2', 'a', 'pay', '2024-03-01 10:10', { $browser: 'Safari' }),
    ev('b1', 'b', 'signup', '2024-03-01 11:00', { $browser: 'Safari' }),
    ev('c1', 'c', 'signup', '2024-03-01 12:00'),
    ev('c2', 'c', 'pay', '2024-03-01 12:30', { $browser: 'Firefox' }),
  ],
  persons({ a: ['a'], b: ['b'], c: ['c'] }),
)
const BY_BROWSER = { ...MARCH, events: STEPS, breakdown: '$browser', breakdown_type: 'event' }

// Eleven browsers v01..v11, one person each; only v11 pays.
const ELEVEN = Array.from({ length: 11 }, (_, i) => `v${String(i + 1).padStart(2, '0')}`)

export const BREAKDOWN_EXAMPLES: FunnelExample[] = [
  {
    name: 'event breakdown, first_touch (the default)',
    data: TOUCHES,
    params: BY_BROWSER,
    expected: [
      breakdownSteps(NAMES, ['Chrome'], [1, 1], [[600, 600]]),
      breakdownSteps(NAMES, ['Firefox'], [1, 1], [[1800, 1800]]),
      breakdownSteps(NAMES, ['Safari'], [1, 0], [null]),
    ],
    why:
      'Each person takes the value of their earliest funnel event with a non-empty value: a Chrome, b Safari, c Firefox (its signup has none). ' +
      'Values are lists (boxed) without `insight: FUNNELS`. Ranked by last-step count, then step 0, then value: Chrome and Firefox (1, 1) before Safari (1, 0).',
  },
  {
    name: 'event breakdown, last_touch',
    data: TOUCHES,
    params: { ...BY_BROWSER, breakdown_attribution_type: 'last_touch' },
    expected: [breakdownSteps(NAMES, ['Safari'], [2, 1], [[600, 600]]), breakdownSteps(NAMES, ['Firefox'], [1, 1], [[1800, 1800]])],
    why: 'The latest non-empty value: a Safari (its pay), b Safari, c Firefox. Safari has 2 entrants and 1 conversion (a, 600 s); it ranks first on step 0 after the tie on the last step.',
  },
  {
    name: 'event breakdown, all_events',
    data: TOUCHES,
    params: { ...BY_BROWSER, breakdown_attribution_type: 'all_events' },
    expected: [
      breakdownSteps(NAMES, [''], [1, 0], [null]),
      breakdownSteps(NAMES, ['Chrome'], [1, 0], [null]),
      breakdownSteps(NAMES, ['Safari'], [1, 0], [null]),
    ],
    why:
      'The funnel runs once per value over the events carrying it. a: Chrome sees only the signup (step 0), Safari only the pay (never enters). ' +
      'b: Safari, step 0. c: "" sees the signup (step 0), Firefox only the pay. Nobody converts within one value; ties order by value: "", Chrome, Safari.',
  },
  {
    name: 'event breakdown, step attribution on step 1',
    data: TOUCHES,
    params: { ...BY_BROWSER, breakdown_attribution_type: 'step', breakdown_attribution_value: 1 },
    expected: [breakdownSteps(NAMES, ['Firefox'], [1, 1], [[1800, 1800]]), breakdownSteps(NAMES, ['Safari'], [1, 1], [[600, 600]])],
    why: 'Values come from the events matching step 1 (pay): a Safari, c Firefox; b never pays and vanishes, step 0 included. Both convert; tie ordered by value.',
  },
  {
    name: 'step attribution on step 0: a person under two values',
    data: dataset(
      [
        ev('a1', 'a', 'signup', '2024-03-01 10:00', { $browser: 'Chrome' }),
        ev('a2', 'a', 'pay', '2024-03-01 10:10', { $browser: 'Safari' }),
        ev('b1', 'b', 'signup', '2024-03-01 11:00', { $browser: 'Safari' }),
        ev('d1', 'd', 'signup', '2024-03-01 13:00', { $browser: 'Chrome' }),
        ev('d2', 'd', 'signup', '2024-03-01 13:05', { $browser: 'Safari' }),
        ev('d3', 'd', 'pay', '2024-03-01 13:20'),
      ],
      persons({ a: ['a'], b: ['b'], d: ['d'] }),
    ),
    params: { ...BY_BROWSER, breakdown_attribution_type: 'step', breakdown_attribution_value: 0 },
    expected: [breakdownSteps(NAMES, ['Chrome'], [2, 2], [[900, 900]]), breakdownSteps(NAMES, ['Safari'], [2, 1], [[900, 900]])],
    why:
      'd signed up on Chrome and on Safari, so d runs under both, each run using only the signup with that value: Chrome from 13:00 (pay after 1200 s), Safari from 13:05 (900 s). ' +
      'a runs under Chrome (600 s); b under Safari (step 0). Chrome: 2, 2, times 600 and 1200 (900). Safari: 2, 1, time 900.',
  },
  {
    name: 'breakdown_limit with "Other": counts summed, times pooled',
    data: dataset(
      [
        ev('c1', 'ch', 'signup', '2024-03-01 10:00', { $browser: 'Chrome' }),
        ev('c2', 'ch', 'pay', '2024-03-01 10:10'),
        ev('f1', 'ff', 'signup', '2024-03-01 10:00', { $browser: 'Firefox' }),
        ev('f2', 'ff', 'pay', '2024-03-01 10:20'),
        ev('s1', 'sa', 'signup', '2024-03-01 10:00', { $browser: 'Safari' }),
        ev('s2', 'sa', 'pay', '2024-03-01 10:30'),
        ev('e1', 'ed', 'signup', '2024-03-01 10:00', { $browser: 'Edge' }),
        ev('o1', 'op', 'signup', '2024-03-01 10:00', { $browser: 'Opera' }),
      ],
      persons({ ch: ['ch'], ff: ['ff'], sa: ['sa'], ed: ['ed'], op: ['op'] }),
    ),
    params: { ...BY_BROWSER, breakdown_limit: 2 },
    expected: [
      breakdownSteps(NAMES, ['Chrome'], [1, 1], [[600, 600]]),
      breakdownSteps(NAMES, ['Firefox'], [1, 1], [[1200, 1200]]),
      breakdownSteps(NAMES, ['Other'], [3, 1], [[1800, 1800]]),
    ],
    why: 'Ranked: Chrome, Firefox, Safari (1, 1 each; ties by value), then Edge, Opera (1, 0). The first 2 stay; Safari, Edge and Opera merge into ["Other"]: 3 entrants, 1 conversion (Safari, 1800 s).',
  },
  {
    name: 'the default breakdown_limit is 10',
    data: dataset(
      ELEVEN.flatMap((v) => [
        ev(`${v}-1`, v, 'signup', '2024-03-01 10:00', { $browser: v }),
        ...(v === 'v11' ? [ev(`${v}-2`, v, 'pay', '2024-03-01 10:01')] : []),
      ]),
      persons(Object.fromEntries(ELEVEN.map((v) => [v, [v]]))),
    ),
    params: BY_BROWSER,
    expected: [
      breakdownSteps(NAMES, ['v11'], [1, 1], [[60, 60]]),
      ...ELEVEN.slice(0, 9).map((v) => breakdownSteps(NAMES, [v], [1, 0], [null])),
      breakdownSteps(NAMES, ['Other'], [1, 0], [null]),
    ],
    why: 'DECISIONS.md: 10 by default for funnels. v11 converts (60 s) and ranks first; v01..v10 tie at (1, 0) and order by value, so v01..v09 fill the other 9 places and v10 becomes "Other".',
  },
  {
    name: 'a breakdown on two properties',
    data: dataset(
      [
        ev('a1', 'a', 'signup', '2024-03-01 10:00', { $browser: 'Chrome', $os: 'Mac' }),
        ev('a2', 'a', 'pay', '2024-03-01 10:10'),
        ev('b1', 'b', 'signup', '2024-03-01 11:00', { $browser: 'Chrome' }),
      ],
      persons({ a: ['a'], b: ['b'] }),
    ),
    params: { ...BY_BROWSER, breakdown: ['$browser', '$os'] },
    expected: [breakdownSteps(NAMES, ['Chrome', 'Mac'], [1, 1], [[600, 600]]), breakdownSteps(NAMES, ['Chrome', ''], [1, 0], [null])],
    why: 'Values are lists of both properties, a missing one as "". a: ["Chrome","Mac"] converts in 600 s; b: ["Chrome",""] at step 0 (one non-empty element is enough for first_touch).',
  },
  {
    name: 'a person-property breakdown, unboxed for old clients (insight FUNNELS, string breakdown)',
    data: dataset(
      [
        ev('a1', 'a', 'signup', '2024-03-01 10:00'),
        ev('a2', 'a', 'pay', '2024-03-01 10:10'),
        ev('b1', 'b', 'signup', '2024-03-01 10:00'),
        ev('c1', 'c', 'signup', '2024-03-01 10:00'),
      ],
      persons({ a: ['a'], b: ['b'], c: ['c'] }, { a: { plan: 'pro' }, b: { plan: 'free' } }),
    ),
    params: { ...MARCH, insight: 'FUNNELS', events: STEPS, breakdown: 'plan', breakdown_type: 'person' },
    expected: [breakdownSteps(NAMES, 'pro', [1, 1], [[600, 600]]), breakdownSteps(NAMES, '', [1, 0], [null]), breakdownSteps(NAMES, 'free', [1, 0], [null])],
    why:
      'Values by person property: a pro (600 s), b free, c "" (no plan). Ranked pro, then the (1, 0) tie by value: "" before "free". ' +
      'insight FUNNELS + breakdown_type person + a string breakdown: each ["x"] is unboxed to "x" (protect_old_clients_from_multi_property_default).',
  },
  {
    name: 'a group-property breakdown (scalar values)',
    data: dataset(
      [
        ev('a1', 'a', 'signup', '2024-03-01 10:00', {}, { 0: 'acme' }),
        ev('a2', 'a', 'pay', '2024-03-01 10:10', {}, { 0: 'acme' }),
        ev('b1', 'b', 'signup', '2024-03-01 10:00', {}, { 0: 'beta' }),
        ev('c1', 'c', 'signup', '2024-03-01 10:00'),
      ],
      persons({ a: ['a'], b: ['b'], c: ['c'] }),
      { groups: { 0: { acme: { industry: 'finance' }, beta: { industry: 'retail' } } } },
    ),
    params: { ...MARCH, insight: 'FUNNELS', events: STEPS, breakdown: 'industry', breakdown_type: 'group', breakdown_group_type_index: 0 },
    expected: [breakdownSteps(NAMES, 'finance', [1, 1], [[600, 600]]), breakdownSteps(NAMES, '', [1, 0], [null]), breakdownSteps(NAMES, 'retail', [1, 0], [null])],
    why: 'The industry of each event\'s group 0: a finance (600 s), b retail, c has no group: "". Group values are not boxed, and unboxing applies only to event and person breakdowns.',
  },
  {
    name: 'a cohort breakdown, with "all"',
    data: dataset(
      [
        ev('a1', 'pa', 'signup', '2024-03-01 10:00'),
        ev('a2', 'pa', 'pay', '2024-03-01 10:10'),
        ev('b1', 'pb', 'signup', '2024-03-01 10:00'),
      ],
      persons({ pa: ['pa'], pb: ['pb'] }),
      { cohorts: { 1: { name: 'Paying', members: ['pa'] } } },
    ),
    params: { ...MARCH, events: STEPS, breakdown: [1, 'all'], breakdown_type: 'cohort' },
    expected: [breakdownSteps(NAMES, 'all', [2, 1], [[600, 600]], 'all users'), breakdownSteps(NAMES, 1, [1, 1], [[600, 600]], 'Paying')],
    why: 'Every person is in "all" (2 entrants, pa converts in 600 s); only pa is in cohort 1. breakdown shows the cohort name, breakdown_value the id. "all" ranks first on step 0 after the last-step tie.',
  },
]
