/**
 * Worked examples of exclusions (ordered and unordered) and of aggregation
 * by group. Every `expected` is derived by hand in `why`.
 */
import { dataset, ev, MARCH, persons, step, type FunnelExample } from './funnel-oracle-example-kit.js'

const THREE = [{ id: 'signup', order: 0 }, { id: 'view', order: 1 }, { id: 'pay', order: 2 }]
const REFUND_0_1 = [{ id: 'refund', type: 'events', funnel_from_step: 0, funnel_to_step: 1 }]

export const EXCLUSION_EXAMPLES: FunnelExample[] = [
  {
    name: 'an exclusion inside its step range removes the person from every step',
    data: dataset(
      [
        ev('a1', 'a', 'signup', '2024-03-01 10:00'),
        ev('a2', 'a', 'refund', '2024-03-01 10:05'),
        ev('a3', 'a', 'view', '2024-03-01 10:10'),
        ev('a4', 'a', 'pay', '2024-03-01 10:20'),
        ev('b1', 'b', 'signup', '2024-03-01 10:00'),
        ev('b2', 'b', 'view', '2024-03-01 10:10'),
        ev('b3', 'b', 'refund', '2024-03-01 10:15'),
        ev('b4', 'b', 'pay', '2024-03-01 10:20'),
        ev('c1', 'c', 'signup', '2024-03-01 10:00'),
      ],
      persons({ a: ['a'], b: ['b'], c: ['c'] }),
    ),
    params: { ...MARCH, events: THREE, exclusions: REFUND_0_1 },
    expected: [step(0, 'signup', 2), step(1, 'view', 1, 600), step(2, 'pay', 1, 600)],
    why:
      'The exclusion covers the gap between step 0 and step 1. a refunds in that gap: the path is excluded, and completing later steps on it keeps it excluded, so a is not even counted at step 0. ' +
      'b refunds after reaching step 1, outside the range: no effect; b converts (600 s, 600 s). c only signs up. Steps: 2 (b, c), 1, 1.',
  },
  {
    name: 'a later clean attempt brings an excluded person back',
    data: dataset(
      [
        ev('d1', 'd', 'signup', '2024-03-01 10:00'),
        ev('d2', 'd', 'refund', '2024-03-01 10:05'),
        ev('d3', 'd', 'signup', '2024-03-01 11:00'),
        ev('d4', 'd', 'view', '2024-03-01 11:10'),
        ev('e1', 'e', 'signup', '2024-03-01 10:00'),
        ev('e2', 'e', 'refund', '2024-03-01 10:05'),
      ],
      persons({ d: ['d'], e: ['e'] }),
    ),
    params: { ...MARCH, events: THREE, exclusions: REFUND_0_1 },
    expected: [step(0, 'signup', 1), step(1, 'view', 1, 600), step(2, 'pay', 0)],
    why: 'd\'s first attempt is excluded, the 11:00 signup starts a clean one that replaces it at the same depth, then reaches view 600 s later. e stays excluded and disappears.',
  },
  {
    name: 'an exclusion outside the conversion window is ignored',
    data: dataset(
      [
        ev('f1', 'f', 'signup', '2024-03-01 10:00'),
        ev('f2', 'f', 'refund', '2024-03-01 11:30'),
        ev('f3', 'f', 'signup', '2024-03-01 12:00'),
        ev('f4', 'f', 'view', '2024-03-01 12:10'),
        ev('g1', 'g', 'signup', '2024-03-01 10:00'),
        ev('g2', 'g', 'refund', '2024-03-01 10:30'),
      ],
      persons({ f: ['f'], g: ['g'] }),
    ),
    params: { ...MARCH, events: [{ id: 'signup', order: 0 }, { id: 'view', order: 1 }], exclusions: REFUND_0_1, funnel_window_interval: 1, funnel_window_interval_type: 'HOUR' },
    expected: [step(0, 'signup', 1), step(1, 'view', 1, 600)],
    why: 'Window 1 h. f\'s refund is 90 minutes after the 10:00 signup: outside the window, ignored; f converts from 12:00 in 600 s. g refunds 30 minutes after signing up: excluded.',
  },
  {
    name: 'an exclusion that hits a later attempt, not the reported one, does not exclude',
    data: dataset(
      [ev('a1', 'p', 'a', '2024-03-01 05:15'), ev('a2', 'p', 'a', '2024-03-01 06:30'), ev('x1', 'p', 'x', '2024-03-01 06:55')],
      persons({ p: ['p'] }),
    ),
    params: {
      ...MARCH,
      events: [{ id: 'a', order: 0 }, { id: 'b', order: 1 }],
      exclusions: [{ id: 'x', type: 'events', funnel_from_step: 0, funnel_to_step: 1 }],
      funnel_window_interval: 41,
      funnel_window_interval_unit: 'minute',
    },
    expected: [step(0, 'a', 1), step(1, 'b', 0)],
    why:
      'Window 41 minutes. The 05:15 attempt is the reported one (first to reach step 0); the 06:30 attempt is only a later one at the same depth. ' +
      'x at 06:55 is 25 minutes into the 06:30 attempt, which it marks, but 100 minutes after the reported attempt\'s start: funnels.md §3 marks the person only ' +
      'when the exclusion is within the window of the reported path. p stays, at step 0.',
  },
  {
    name: 'an action as exclusion',
    data: dataset(
      [
        ev('p1', 'p', 'signup', '2024-03-01 10:00'),
        ev('p2', 'p', 'support_ticket', '2024-03-01 10:05'),
        ev('p3', 'p', 'pay', '2024-03-01 10:10'),
        ev('q1', 'q', 'signup', '2024-03-01 10:00'),
        ev('q2', 'q', 'pay', '2024-03-01 10:10'),
      ],
      persons({ p: ['p'], q: ['q'] }),
      { actions: { 9: { name: 'Support', eventNames: ['support_ticket', 'refund'] } } },
    ),
    params: { ...MARCH, events: [{ id: 'signup', order: 0 }, { id: 'pay', order: 1 }], exclusions: [{ id: 9, type: 'actions', funnel_from_step: 0, funnel_to_step: 1 }] },
    expected: [step(0, 'signup', 1), step(1, 'pay', 1, 600)],
    why: 'Action 9 matches support_ticket. p files one between signup and pay: excluded. q converts in 600 s.',
  },
  {
    name: 'unordered: an exclusion resets progress instead of removing the person',
    data: dataset(
      [
        ev('x1', 'x', 'view', '2024-03-01 10:00'),
        ev('x2', 'x', 'refund', '2024-03-01 10:05'),
        ev('x3', 'x', 'cart', '2024-03-01 10:10'),
        ev('y1', 'y', 'view', '2024-03-01 10:00'),
        ev('y2', 'y', 'cart', '2024-03-01 10:10'),
      ],
      persons({ x: ['x'], y: ['y'] }),
    ),
    params: { ...MARCH, funnel_order_type: 'unordered', events: [{ id: 'view', order: 0 }, { id: 'cart', order: 1 }], exclusions: REFUND_0_1 },
    expected: [
      { ...step(0, null, 2), name: 'Completed 1 step' },
      { ...step(1, null, 1, 600), name: 'Completed 2 steps' },
    ],
    why:
      'x\'s view is still inside the window when the refund comes, so nothing was recorded yet; the refund empties the window. The cart then makes one step, recorded at the last event: x counts at step 0 only. ' +
      'y does both steps, 600 s apart.',
  },
  {
    name: 'unordered: an exclusion at the same instant as a step comes after it (pinned order)',
    data: dataset(
      [
        ev('x1', 'x', 'view', '2024-03-01 10:00'),
        ev('x2', 'x', 'refund', '2024-03-01 10:00'),
        ev('x3', 'x', 'cart', '2024-03-01 10:05'),
        ev('y1', 'y', 'cart', '2024-03-01 10:00'),
        ev('y2', 'y', 'view', '2024-03-01 10:10'),
      ],
      persons({ x: ['x'], y: ['y'] }),
    ),
    params: { ...MARCH, funnel_order_type: 'unordered', events: [{ id: 'view', order: 0 }, { id: 'cart', order: 1 }], exclusions: REFUND_0_1 },
    expected: [
      { ...step(0, null, 2), name: 'Completed 1 step' },
      { ...step(1, null, 1, 600), name: 'Completed 2 steps' },
    ],
    why:
      'PostHog leaves the order of equal times open; the reference puts step events first and step-less ones (here the refund) last. ' +
      'So x\'s refund empties the window right after the 10:00 view, and the 10:05 cart makes one step. y does both steps in 600 s.',
  },
  {
    name: 'aggregation by group: a group converts through different persons',
    data: dataset(
      [
        ev('a1', 'a', 'signup', '2024-03-01 10:00', {}, { 0: 'acme' }),
        ev('b1', 'b', 'pay', '2024-03-01 10:30', {}, { 0: 'acme' }),
        ev('c1', 'c', 'signup', '2024-03-01 11:00', {}, { 0: 'beta' }),
        ev('d1', 'd', 'signup', '2024-03-01 12:00'),
        ev('d2', 'd', 'pay', '2024-03-01 12:05'),
      ],
      persons({ a: ['a'], b: ['b'], c: ['c'], d: ['d'] }),
      { groups: { 0: { acme: { industry: 'finance' }, beta: { industry: 'retail' } } } },
    ),
    params: { ...MARCH, events: [{ id: 'signup', order: 0 }, { id: 'pay', order: 1 }], aggregation_group_type_index: 0 },
    expected: [step(0, 'signup', 2), step(1, 'pay', 1, 1800)],
    why: 'Counted by $group_0: acme (a signs up, b pays 1800 s later) converts; beta only signs up. d\'s events have no group 0 and do not take part.',
  },
]
