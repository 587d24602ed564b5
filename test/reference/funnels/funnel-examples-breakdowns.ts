import { dataset, ev, MARCH, people, step, under, type FunnelExample } from './funnel-example-builders.js'

const AB = { ...MARCH, events: [{ id: 'signup' }, { id: 'purchase' }] }

// p1 signs up without a browser and buys on Safari; p2 signs up on Chrome and buys on Safari; p3 only signs up, on Firefox.
const TOUCHES = dataset([
  ev('p1', 'signup', '10:00'),
  ev('p1', 'purchase', '10:10', { $browser: 'Safari' }),
  ev('p2', 'signup', '10:00', { $browser: 'Chrome' }),
  ev('p2', 'purchase', '10:20', { $browser: 'Safari' }),
  ev('p3', 'signup', '10:00', { $browser: 'Firefox' }),
])

const CHROME_SAFARI = dataset([ev('p1', 'signup', '10:00', { $browser: 'Chrome' }), ev('p1', 'purchase', '10:30'), ev('p2', 'signup', '10:00', { $browser: 'Safari' })])
const chromeSteps = [step(0, 'signup', 1), step(1, 'purchase', 1, 1800)]
const safariSteps = [step(0, 'signup', 1), step(1, 'purchase', 0)]

/** Worked examples of breakdowns and attribution in the steps view. Derived by hand. */
export const BREAKDOWN_EXAMPLES: FunnelExample[] = [
  {
    name: 'event breakdown: one list per value, values boxed',
    data: CHROME_SAFARI,
    params: { ...AB, breakdown: '$browser', breakdown_type: 'event' },
    expected: [under(['Chrome'], chromeSteps), under(['Safari'], safariSteps)],
    why: "first_touch (default): p1's first event with a browser is its Chrome signup, p2's its Safari signup. Chrome 1 -> 1 (1800 s), Safari 1 -> 0; Chrome has more at the last step so it comes first. Without insight FUNNELS the values stay lists.",
  },
  {
    name: 'legacy unboxing: insight FUNNELS with a string breakdown',
    data: CHROME_SAFARI,
    params: { ...AB, insight: 'FUNNELS', breakdown: '$browser', breakdown_type: 'event' },
    expected: [under('Chrome', chromeSteps), under('Safari', safariSteps)],
    why: 'Same funnel; the request says insight FUNNELS, an event breakdown_type and a string breakdown, so protect_old_clients_from_multi_property_default unboxes breakdown and breakdown_value.',
  },
  {
    name: 'no unboxing without an explicit breakdown_type',
    data: CHROME_SAFARI,
    params: { ...AB, insight: 'FUNNELS', breakdown: '$browser' },
    expected: [under(['Chrome'], chromeSteps), under(['Safari'], safariSteps)],
    why: 'The helper tests "breakdown_type" in the request itself; the default (event) is applied later, so values stay boxed.',
  },
  {
    name: 'breakdowns (one element): the key is renamed breakdowns',
    data: CHROME_SAFARI,
    params: { ...AB, insight: 'FUNNELS', breakdown_type: 'event', breakdowns: [{ property: '$browser', type: 'event' }] },
    expected: [
      chromeSteps.map((s) => ({ ...s, breakdowns: ['Chrome'], breakdown_value: ['Chrome'] })),
      safariSteps.map((s) => ({ ...s, breakdowns: ['Safari'], breakdown_value: ['Safari'] })),
    ],
    why: 'A breakdowns request keeps list values, and the helper renames each step\'s "breakdown" to "breakdowns".',
  },
  {
    name: 'person breakdown: ties by value, missing as ""',
    data: dataset(
      [
        ev('p1', 'signup', '10:00'),
        ev('p1', 'purchase', '10:01'),
        ev('p2', 'signup', '10:00'),
        ev('p2', 'purchase', '10:02'),
        ev('p3', 'signup', '10:00'),
      ],
      people({ p1: { plan: 'pro' }, p2: { plan: 'free' }, p3: {} }),
    ),
    params: { ...AB, breakdown: 'plan', breakdown_type: 'person' },
    expected: [
      under(['free'], [step(0, 'signup', 1), step(1, 'purchase', 1, 120)]),
      under(['pro'], [step(0, 'signup', 1), step(1, 'purchase', 1, 60)]),
      under([''], [step(0, 'signup', 1), step(1, 'purchase', 0)]),
    ],
    why: 'Person property plan: pro converts in 60 s, free in 120 s, p3 has no plan (shown as "") and stops at signup. pro and free tie at every step, so value order decides: free, pro; then "".',
  },
  {
    name: 'multi-property breakdown: lists of values, "" for a missing part',
    data: dataset([
      ev('p1', 'signup', '10:00', { $browser: 'Chrome', $os: 'Mac' }),
      ev('p1', 'purchase', '10:01'),
      ev('p2', 'signup', '10:00', { $browser: 'Chrome' }),
    ]),
    params: { ...AB, breakdown: ['$browser', '$os'], breakdown_type: 'event' },
    expected: [
      under(['Chrome', 'Mac'], [step(0, 'signup', 1), step(1, 'purchase', 1, 60)]),
      under(['Chrome', ''], [step(0, 'signup', 1), step(1, 'purchase', 0)]),
    ],
    why: "p1's value is [Chrome, Mac] and it converts (60 s); p2 has no $os: [Chrome, \"\"]. A list breakdown is never unboxed.",
  },
  {
    name: 'group breakdown: scalar values',
    data: dataset(
      [
        ev('p1', 'signup', '10:00', {}, { 0: 'acme' }),
        ev('p1', 'purchase', '10:01', {}, { 0: 'acme' }),
        ev('p2', 'signup', '10:00', {}, { 0: 'beta' }),
        ev('p3', 'signup', '10:00'),
      ],
      {},
      { groups: { 0: { acme: { industry: 'finance' }, beta: {} } } },
    ),
    params: { ...AB, breakdown: 'industry', breakdown_type: 'group', breakdown_group_type_index: 0 },
    expected: [under('finance', [step(0, 'signup', 1), step(1, 'purchase', 1, 60)]), under('', [step(0, 'signup', 2), step(1, 'purchase', 0)])],
    why: "The industry of each event's company: acme is finance (p1 converts, 60 s); beta has no industry and p3 no company, both \"\". A string group breakdown stays a string.",
  },
  {
    name: 'cohort breakdown: one pass per cohort; name and id',
    data: dataset(
      [
        ev('p1', 'signup', '10:00'),
        ev('p1', 'purchase', '10:05'),
        ev('p2', 'signup', '10:00'),
        ev('p3', 'signup', '10:00'),
        ev('p3', 'purchase', '10:01'),
      ],
      people({ p1: {}, p2: {}, p3: {} }),
      { cohorts: { 1: { name: 'Power users', personIds: ['p1', 'p2'] }, 2: { name: 'Paying', personIds: ['p1'] } } },
    ),
    params: { ...AB, breakdown: [1, 2], breakdown_type: 'cohort' },
    expected: [
      under(1, [step(0, 'signup', 2), step(1, 'purchase', 1, 300)], 'Power users'),
      under(2, [step(0, 'signup', 1), step(1, 'purchase', 1, 300)], 'Paying'),
    ],
    why: 'p1 is in both cohorts and counts in both (300 s); p2 only in Power users; p3 in neither, so it is in no group. Both have 1 at the last step; Power users has more at step 0. breakdown is the cohort name, breakdown_value its id.',
  },
  {
    name: 'breakdown_limit and Other: counts summed, times pooled',
    data: dataset([
      ev('c1', 'signup', '10:00', { $browser: 'Chrome' }),
      ev('c1', 'purchase', '10:01'),
      ev('c2', 'signup', '10:00', { $browser: 'Chrome' }),
      ev('c2', 'purchase', '10:01'),
      ev('c3', 'signup', '10:00', { $browser: 'Chrome' }),
      ev('c3', 'purchase', '10:01'),
      ev('s1', 'signup', '10:00', { $browser: 'Safari' }),
      ev('s1', 'purchase', '10:02'),
      ev('s2', 'signup', '10:00', { $browser: 'Safari' }),
      ev('f1', 'signup', '10:00', { $browser: 'Firefox' }),
      ev('f1', 'purchase', '10:05'),
      ev('e1', 'signup', '10:00', { $browser: 'Edge' }),
      ev('e2', 'signup', '10:00', { $browser: 'Edge' }),
    ]),
    params: { ...AB, breakdown: '$browser', breakdown_type: 'event', breakdown_limit: 2 },
    expected: [
      under(['Chrome'], [step(0, 'signup', 3), step(1, 'purchase', 3, 60)]),
      under(['Safari'], [step(0, 'signup', 2), step(1, 'purchase', 1, 120)]),
      under(['Other'], [step(0, 'signup', 3), step(1, 'purchase', 1, 300)]),
    ],
    why: 'Ranked by the last step: Chrome 3; Safari and Firefox 1 each, Safari first with 2 at step 0 against 1; Edge 0. Limit 2 keeps Chrome and Safari; Firefox (1 -> 1, 300 s) and Edge (2 -> 0) merge into ["Other"]: 3 -> 1, time 300.',
  },
  {
    name: 'default breakdown_limit is 10',
    data: dataset([
      ...Array.from({ length: 11 }, (_, i) => ev(`p${i + 1}`, 'signup', '10:00', { $browser: `b${String(i + 1).padStart(2, '0')}` })),
      ev('p11', 'purchase', '10:01'),
    ]),
    params: { ...AB, breakdown: '$browser', breakdown_type: 'event' },
    expected: [
      under(['b11'], [step(0, 'signup', 1), step(1, 'purchase', 1, 60)]),
      ...Array.from({ length: 9 }, (_, i) => under([`b0${i + 1}`], [step(0, 'signup', 1), step(1, 'purchase', 0)])),
      under(['Other'], [step(0, 'signup', 1), step(1, 'purchase', 0)]),
    ],
    why: 'Eleven browsers b01..b11, one person each; only b11 converts, so it ranks first. The rest tie (1 -> 0) and go by value: b01..b09 fill the 10 places; b10 becomes "Other" (DECISIONS.md: 10, not PostHog\'s 25).',
  },
  {
    name: 'first_touch: the earliest event with a value',
    data: TOUCHES,
    params: { ...AB, breakdown: '$browser', breakdown_type: 'event', breakdown_attribution_type: 'first_touch' },
    expected: [
      under(['Chrome'], [step(0, 'signup', 1), step(1, 'purchase', 1, 1200)]),
      under(['Safari'], [step(0, 'signup', 1), step(1, 'purchase', 1, 600)]),
      under(['Firefox'], [step(0, 'signup', 1), step(1, 'purchase', 0)]),
    ],
    why: "p1's signup has no browser, so its first value is Safari (its purchase): 600 s. p2's first is Chrome: 1200 s. p3: Firefox, no purchase. Chrome and Safari tie (1 -> 1) and go by value, before Firefox (0 at the last step).",
  },
  {
    name: 'last_touch: the latest event with a value',
    data: TOUCHES,
    params: { ...AB, breakdown: '$browser', breakdown_type: 'event', breakdown_attribution_type: 'last_touch' },
    expected: [under(['Safari'], [step(0, 'signup', 2), step(1, 'purchase', 2, 900)]), under(['Firefox'], [step(0, 'signup', 1), step(1, 'purchase', 0)])],
    why: 'p1 and p2 both bought last on Safari: 2 -> 2, times 600 and 1200 -> 900. p3: Firefox.',
  },
  {
    name: 'all_events: one funnel per value, over the events carrying it',
    data: TOUCHES,
    params: { ...AB, breakdown: '$browser', breakdown_type: 'event', breakdown_attribution_type: 'all_events' },
    expected: [
      under([''], [step(0, 'signup', 1), step(1, 'purchase', 0)]),
      under(['Chrome'], [step(0, 'signup', 1), step(1, 'purchase', 0)]),
      under(['Firefox'], [step(0, 'signup', 1), step(1, 'purchase', 0)]),
    ],
    why: 'Each value sees only its events. p1: "" has the signup (step 0), Safari only a purchase (never enters). p2: Chrome has the signup, Safari the purchase alone. p3: Firefox signup. So nobody converts; all tie and go by value: "", Chrome, Firefox.',
  },
  {
    name: 'step attribution (step 1): the value of the event that does step 1',
    data: TOUCHES,
    params: { ...AB, breakdown: '$browser', breakdown_type: 'event', breakdown_attribution_type: 'step', breakdown_attribution_value: 1 },
    expected: [under(['Safari'], [step(0, 'signup', 2), step(1, 'purchase', 2, 900)])],
    why: "Candidates come from events matching step 1: both purchases are Safari. Under Safari, step 1 must be a Safari event (it is): p1 600 s, p2 1200 s. p3 never bought, so it has no candidate and vanishes, step 0 included.",
  },
  {
    name: 'step attribution (step 0): the value of the entering event',
    data: TOUCHES,
    params: { ...AB, breakdown: '$browser', breakdown_type: 'event', breakdown_attribution_type: 'step', breakdown_attribution_value: '0' },
    expected: [
      under([''], [step(0, 'signup', 1), step(1, 'purchase', 1, 600)]),
      under(['Chrome'], [step(0, 'signup', 1), step(1, 'purchase', 1, 1200)]),
      under(['Firefox'], [step(0, 'signup', 1), step(1, 'purchase', 0)]),
    ],
    why: 'The signups give "" (p1), Chrome (p2), Firefox (p3); each must enter with a signup of that value, which it does, and the purchase is not constrained: p1 600 s, p2 1200 s. The value may be sent as text.',
  },
  {
    name: 'step attribution: each candidate needs a step event of its own value',
    data: dataset([ev('p1', 'signup', '10:00'), ev('p1', 'purchase', '10:10', { $browser: 'Safari' }), ev('p1', 'purchase', '10:20', { $browser: 'Chrome' })]),
    params: { ...AB, breakdown: '$browser', breakdown_type: 'event', breakdown_attribution_type: 'step', breakdown_attribution_value: 1 },
    expected: [
      under(['Chrome'], [step(0, 'signup', 1), step(1, 'purchase', 1, 1200)]),
      under(['Safari'], [step(0, 'signup', 1), step(1, 'purchase', 1, 600)]),
    ],
    why: "p1 bought on Safari then on Chrome: two candidates, and p1 counts under both. Under Chrome the Safari purchase cannot be step 1, so step 1 is the 10:20 purchase (1200 s); under Safari it is the 10:10 one (600 s). Tied counts go by value.",
  },
  {
    name: 'step attribution with an exclusion in the same gap: an excluded candidate vanishes from its value only',
    data: dataset([
      ev('p1', 'signup', '10:00'),
      ev('p1', 'purchase', '10:10', { $browser: 'Safari' }),
      ev('p2', 'signup', '10:00'),
      ev('p2', 'cancel', '10:05'),
      ev('p2', 'purchase', '10:10', { $browser: 'Safari' }),
      ev('p3', 'signup', '10:00'),
      ev('p3', 'purchase', '10:20', { $browser: 'Chrome' }),
    ]),
    params: {
      ...AB,
      breakdown: '$browser',
      breakdown_type: 'event',
      breakdown_attribution_type: 'step',
      breakdown_attribution_value: 1,
      exclusions: [{ id: 'cancel', funnel_from_step: 0, funnel_to_step: 1 }],
    },
    expected: [
      under(['Chrome'], [step(0, 'signup', 1), step(1, 'purchase', 1, 1200)]),
      under(['Safari'], [step(0, 'signup', 1), step(1, 'purchase', 1, 600)]),
    ],
    why: "Candidates from the purchases: p1 and p2 Safari, p3 Chrome. p2's cancel comes within the window of its signup, in the gap the exclusion covers, so its path is excluded; the Safari purchase then completes step 1 on that excluded path, and p2 leaves the funnel, step 0 included. p1 converts in 600 s under Safari, p3 in 1200 s under Chrome; tied counts go by value.",
  },
  {
    name: 'groups with a person breakdown, step 0 attribution at one instant, limit 1: Other sums one group twice',
    // Written in this order, so the uuids rise d3, loner, d1 (the order of events at one instant).
    data: dataset(
      [ev('d3', 'a', '10:00', {}, { 0: 'acme' }), ev('loner', 'a', '10:00', {}, { 0: 'acme' }), ev('d1', 'a', '10:00', {}, { 0: 'acme' })],
      { d3: { id: 'P2', properties: { plan: 'free' } }, d1: { id: 'P1', properties: { plan: 'pro' } } },
    ),
    params: {
      ...MARCH,
      events: [{ id: 'a', order: 0 }, { id: 'a', order: 1 }],
      funnel_window_interval: 1,
      funnel_window_interval_unit: 'minute',
      aggregation_group_type_index: 0,
      breakdown: 'plan',
      breakdown_type: 'person',
      breakdown_limit: 1,
      breakdown_attribution_type: 'step',
      breakdown_attribution_value: 0,
    },
    expected: [under([''], [step(0, 'a', 1), step(1, 'a', 1)]), under(['Other'], [step(0, 'a', 2), step(1, 'a', 1)])],
    why:
      'One actor, acme, whose three events carry plan free (d3), "" (loner, no person) and pro (d1). Step 0 attribution: three candidates, acme runs under each. ' +
      'The events share an instant and identical flags [1,2], so they are processed one by one (by uuid: free, "", pro), each flag high to low; the candidate\'s own event must do step 0, any later one does step 1. ' +
      'free: free enters, "" converts (1 -> 1). "": free cannot enter, "" enters, pro converts (1 -> 1). pro: pro enters last, nothing after it (1 -> 0). Times 0 s: left out. ' +
      'Ranked by step 1 then step 0 then value: "", free, pro. Limit 1 keeps [""]; free and pro merge into Other with counts summed: 2 -> 1 (acme counted once per value).',
  },
  {
    name: 'breakdown with nobody in the funnel: []',
    data: dataset([ev('p1', 'signup', '2024-02-01T10:00:00Z', { $browser: 'Chrome' })]),
    params: { ...AB, breakdown: '$browser', breakdown_type: 'event' },
    expected: [],
    why: 'No event in range, so there is no breakdown value to show steps for.',
  },
]
