/**
 * Worked examples of the trends and time-to-convert views. Every
 * `expected` is derived by hand in `why`.
 */
import { dataset, ev, persons, type FunnelExample } from './funnel-oracle-example-kit.js'

const STEPS = [{ id: 'signup', order: 0 }, { id: 'pay', order: 1 }]
const THREE = [{ id: 'signup', order: 0 }, { id: 'view', order: 1 }, { id: 'pay', order: 2 }]
const NEW_YORK = { timezone: 'America/New_York', weekStartDay: 0 as const, testAccountFilters: [] }

export const VIEW_EXAMPLES: FunnelExample[] = [
  {
    name: 'trends by day across the spring DST change in New York',
    data: dataset(
      [
        ev('p1a', 'p1', 'signup', '2024-03-10T04:30:00Z'),
        ev('p1b', 'p1', 'pay', '2024-03-10T05:30:00Z'),
        ev('p2a', 'p2', 'signup', '2024-03-11T03:30:00Z'),
        ev('p3a', 'p3', 'signup', '2024-03-10T06:30:00Z'),
        ev('p3b', 'p3', 'pay', '2024-03-10T07:30:00Z'),
        ev('p4a', 'p4', 'signup', '2024-03-11T04:30:00Z'),
      ],
      persons({ p1: ['p1'], p2: ['p2'], p3: ['p3'], p4: ['p4'] }),
      { project: NEW_YORK },
    ),
    params: { funnel_viz_type: 'trends', interval: 'day', date_from: '2024-03-09', date_to: '2024-03-11', events: STEPS },
    expected: [{ count: 3, data: [100, 50, 0], days: ['2024-03-09', '2024-03-10', '2024-03-11'], labels: ['9-Mar-2024', '10-Mar-2024', '11-Mar-2024'] }],
    why:
      'Clocks go from 02:00 EST to 03:00 EDT on 10 March; days are New York days. p1 signs up at 23:30 EST on the 9th (04:30Z on the 10th) and pays at 00:30 on the 10th: ' +
      'a conversion counted on the entry day, the 9th (1/1 = 100). p2 signs up at 23:30 EDT on the 10th (03:30Z on the 11th), no pay; p3 signs up at 01:30 EST and pays at 03:30 EDT on the 10th: ' +
      'the 10th has 1 of 2 (50). p4 signs up at 00:30 EDT on the 11th: 0 of 1 (0).',
  },
  {
    name: 'trends from step 1 to step 2: entrants reached step 1, the period is the step-0 event\'s',
    data: dataset(
      [
        ev('p1a', 'p1', 'signup', '2024-03-01 10:00'),
        ev('p1b', 'p1', 'view', '2024-03-01 11:00'),
        ev('p1c', 'p1', 'pay', '2024-03-02 09:00'),
        ev('p2a', 'p2', 'signup', '2024-03-01 12:00'),
        ev('p3a', 'p3', 'signup', '2024-03-02 10:00'),
        ev('p3b', 'p3', 'view', '2024-03-02 10:30'),
      ],
      persons({ p1: ['p1'], p2: ['p2'], p3: ['p3'] }),
    ),
    params: { funnel_viz_type: 'trends', funnel_from_step: 1, funnel_to_step: 2, date_from: '2024-03-01', date_to: '2024-03-03', events: THREE },
    expected: [{ count: 3, data: [100, 0, 0], days: ['2024-03-01', '2024-03-02', '2024-03-03'], labels: ['1-Mar-2024', '2-Mar-2024', '3-Mar-2024'] }],
    why: 'p1 entered on 1 March, reached view and paid the next day: a conversion on the 1st. p2 never reached view, so it is not an entrant. p3 entered on the 2nd and reached view only: 0 of 1. Nobody entered on the 3rd: 0.',
  },
  {
    name: 'trends: the conversion rate is rounded to two decimals',
    data: dataset(
      [
        ev('x1', 'x', 'signup', '2024-03-01 10:00'),
        ev('x2', 'x', 'pay', '2024-03-01 10:05'),
        ev('y1', 'y', 'signup', '2024-03-01 11:00'),
        ev('z1', 'z', 'signup', '2024-03-01 12:00'),
      ],
      persons({ x: ['x'], y: ['y'], z: ['z'] }),
    ),
    params: { funnel_viz_type: 'trends', date_from: '2024-03-01', date_to: '2024-03-01', events: STEPS },
    expected: [{ count: 1, data: [33.33], days: ['2024-03-01'], labels: ['1-Mar-2024'] }],
    why: '1 of 3 entrants converts: round(100/3, 2) = 33.33.',
  },
  {
    name: 'trends: step 0 and step 1 at the same instant convert, whatever their uuids',
    data: dataset(
      [
        ev('00000000-0000-4000-8000-000000000001', 'p', 'pay', '2024-03-01 10:00'),
        ev('00000000-0000-4000-8000-000000000002', 'p', 'signup', '2024-03-01 10:00'),
      ],
      persons({ p: ['p'] }),
    ),
    params: { funnel_viz_type: 'trends', date_from: '2024-03-01', date_to: '2024-03-01', events: STEPS },
    expected: [{ count: 1, data: [100], days: ['2024-03-01'], labels: ['1-Mar-2024'] }],
    why:
      'Events at one instant are taken lowest step first, so the signup opens the attempt before the pay, which completes it: 1 of 1. ' +
      'In uuid order the pay would come first and find no attempt (0). The steps view converts such pairs too (funnels.md §3).',
  },
  {
    name: 'trends: a converted period ignores its later step-0 events, so a later exclusion cannot spoil it',
    data: dataset(
      [
        ev('p1', 'p', 'signup', '2024-03-01 10:00'),
        ev('p2', 'p', 'pay', '2024-03-01 10:10'),
        ev('p3', 'p', 'signup', '2024-03-01 11:00'),
        ev('p4', 'p', 'refund', '2024-03-01 11:05'),
        ev('p5', 'p', 'pay', '2024-03-01 11:10'),
        ev('p6', 'p', 'signup', '2024-03-02 09:00'),
        ev('q1', 'q', 'signup', '2024-03-02 10:00'),
        ev('q2', 'q', 'pay', '2024-03-02 10:30'),
      ],
      persons({ p: ['p'], q: ['q'] }),
    ),
    params: {
      funnel_viz_type: 'trends',
      date_from: '2024-03-01',
      date_to: '2024-03-02',
      events: STEPS,
      exclusions: [{ id: 'refund', type: 'events', funnel_from_step: 0, funnel_to_step: 1 }],
    },
    expected: [{ count: 2, data: [100, 50], days: ['2024-03-01', '2024-03-02'], labels: ['1-Mar-2024', '2-Mar-2024'] }],
    why:
      'funnels.md §10.2: p converts on 1 March at 10:10; the period is then closed, so the 11:00 signup opens nothing and the refund and pay that follow touch no attempt. ' +
      'p enters again on the 2nd without paying; q converts on the 2nd. 1 March: 1 of 1; 2 March: 1 of 2 = 50. (Had the 11:00 signup re-opened 1 March, ' +
      'the refund then pay would make it fully excluded, and p would count only where it converted, turning the 2nd into 1 of 1.)',
  },
  {
    name: 'trends by week: labels are date ranges clipped to the query range',
    data: dataset([ev('a1', 'a', 'signup', '2024-03-05 10:00'), ev('a2', 'a', 'pay', '2024-03-06 10:00')], persons({ a: ['a'] })),
    params: { funnel_viz_type: 'trends', interval: 'week', date_from: '2024-03-01', date_to: '2024-03-20', events: STEPS },
    expected: [
      {
        count: 4,
        data: [0, 100, 0, 0],
        days: ['2024-02-25', '2024-03-03', '2024-03-10', '2024-03-17'],
        labels: ['1–2 Mar', '3–9 Mar', '10–16 Mar', '17–20 Mar'],
      },
    ],
    why:
      'Weeks start on Sunday (weekStartDay 0): 25 Feb, 3, 10 and 17 March. The first label is clipped to date_from (1 March), the last to date_to (20 March); ' +
      'format_label_date writes "d–d Mon" within a month. a enters on 5 March and converts: 100 in the week of 3 March.',
  },
  {
    name: 'trends with a breakdown: one summary per value, sorted by value',
    data: dataset(
      [
        ev('a1', 'a', 'signup', '2024-03-01 10:00', { $browser: 'Safari' }),
        ev('b1', 'b', 'signup', '2024-03-01 10:00', { $browser: 'Chrome' }),
        ev('b2', 'b', 'pay', '2024-03-01 10:30', { $browser: 'Chrome' }),
      ],
      persons({ a: ['a'], b: ['b'] }),
    ),
    params: { funnel_viz_type: 'trends', date_from: '2024-03-01', date_to: '2024-03-02', events: STEPS, breakdown: '$browser', breakdown_type: 'event' },
    expected: [
      { count: 2, data: [100, 0], days: ['2024-03-01', '2024-03-02'], labels: ['1-Mar-2024', '2-Mar-2024'], breakdown_value: ['Chrome'] },
      { count: 2, data: [0, 0], days: ['2024-03-01', '2024-03-02'], labels: ['1-Mar-2024', '2-Mar-2024'], breakdown_value: ['Safari'] },
    ],
    why: 'b (Chrome) converts on the 1st; a (Safari) enters and does not. Each value gets every period of the range; summaries are sorted by value, which stays a list (no unboxing for trends).',
  },
  {
    name: 'time to convert: automatic bins',
    data: dataset(
      [
        ev('t1a', 't1', 'signup', '2024-03-01 10:00'),
        ev('t1b', 't1', 'pay', '2024-03-01 11:00'),
        ev('t2a', 't2', 'signup', '2024-03-01 10:00'),
        ev('t2b', 't2', 'pay', '2024-03-01 10:37'),
        ev('t3a', 't3', 'signup', '2024-03-01 10:00'),
        ev('t3b', 't3', 'pay', '2024-03-02 09:00'),
        ev('t4a', 't4', 'signup', '2024-03-01 10:00'),
      ],
      persons({ t1: ['t1'], t2: ['t2'], t3: ['t3'], t4: ['t4'] }),
    ),
    params: { funnel_viz_type: 'time_to_convert', date_from: '2024-03-01', date_to: '2024-03-07', events: STEPS },
    expected: { bins: [[2220, 2], [42510, 0], [82800, 1]], average_conversion_time: 29540 },
    why:
      'funnels.md §11: samples 3600, 2220, 82800 (t4 never converts). Bins: ceil(cbrt(3)) = 2, min 2220, max 82800, width ceil(80580 / 2) = 40290; ' +
      'starts 2220, 42510, 82800; 3600 and 2220 fall in bin 0, 82800 in bin 2. Mean 88620 / 3 = 29540.',
  },
  {
    name: 'time to convert between chosen steps, with bin_count',
    data: dataset(
      [
        ev('u1a', 'u1', 'signup', '2024-03-01 10:00:00'),
        ev('u1b', 'u1', 'view', '2024-03-01 10:00:50'),
        ev('u1c', 'u1', 'pay', '2024-03-01 10:02:30'),
        ev('u2a', 'u2', 'signup', '2024-03-01 10:00:00'),
        ev('u2b', 'u2', 'view', '2024-03-01 10:01:00'),
        ev('u2c', 'u2', 'pay', '2024-03-01 10:07:40'),
        ev('u3a', 'u3', 'signup', '2024-03-01 10:00:00'),
        ev('u3b', 'u3', 'view', '2024-03-01 10:01:10'),
        ev('u3c', 'u3', 'pay', '2024-03-01 10:17:50'),
        ev('u4a', 'u4', 'signup', '2024-03-01 10:00:00'),
        ev('u4b', 'u4', 'view', '2024-03-01 10:01:00'),
      ],
      persons({ u1: ['u1'], u2: ['u2'], u3: ['u3'], u4: ['u4'] }),
    ),
    params: { funnel_viz_type: 'time_to_convert', funnel_from_step: 1, funnel_to_step: 2, bin_count: 3, date_from: '2024-03-01', date_to: '2024-03-07', events: THREE },
    expected: { bins: [[100, 1], [400, 1], [700, 0], [1000, 1]], average_conversion_time: 500 },
    why: 'From view to pay: u1 100 s, u2 400 s, u3 1000 s (u4 never pays). 3 bins: width ceil(900 / 3) = 300, starts 100, 400, 700, 1000; indexes 0, 1, 3. Mean 500.',
  },
]
