import { dataset, ev, MARCH, step, type FunnelExample } from './funnel-example-builders.js'

/**
 * Worked examples of the first-time step maths (PostHog's
 * FirstTimeForUserAggregationQuery: the person's earliest event of the step's
 * event or action up to date_to, before the range too, must be in the range
 * and, for `first_time_for_user`, pass the step's filters; only that event
 * fills the step). Derived by hand; run against the funnel reference
 * (funnel-reference.test.ts) and every storage (first-time-examples.test.ts).
 */
const CHROME = [{ key: '$browser', value: 'Chrome', type: 'event' }]

export const FIRST_TIME_EXAMPLES: FunnelExample[] = [
  {
    name: 'first_time_for_user on step 0: only the first signup ever, and it must be in the range',
    data: dataset([
      ev('p1', 'signup', '2024-02-20T10:00:00Z'),
      ev('p1', 'signup', '10:00'),
      ev('p1', 'buy', '10:10'),
      ev('p2', 'signup', '10:00'),
      ev('p2', 'buy', '10:10'),
      ev('p3', 'signup', '09:00'),
      ev('p3', 'signup', '11:00'),
      ev('p3', 'buy', '12:00'),
    ]),
    params: { ...MARCH, events: [{ id: 'signup', order: 0, math: 'first_time_for_user' }, { id: 'buy', order: 1 }] },
    expected: [step(0, 'signup', 2), step(1, 'buy', 2, 5700)],
    why:
      "p1's first signup is on Feb 20, before the range, so the March 5 signup is not a first time: p1 never enters. p2 enters at 10:00 and buys 600 s later. " +
      'p3 enters only with the 09:00 signup (the 11:00 one is not the first) and buys at 12:00: 10800 s. Mean and median of 600 and 10800: 5700.',
  },
  {
    name: 'first_time_for_user on a later step: a first buy before the range never completes it',
    data: dataset([
      ev('p6', 'buy', '2024-02-25T10:00:00Z'),
      ev('p6', 'signup', '10:00'),
      ev('p6', 'buy', '10:10'),
      ev('p7', 'signup', '10:00'),
      ev('p7', 'buy', '10:30'),
    ]),
    params: { ...MARCH, events: [{ id: 'signup', order: 0 }, { id: 'buy', order: 1, math: 'first_time_for_user' }] },
    expected: [step(0, 'signup', 2), step(1, 'buy', 1, 1800)],
    why: "Both sign up. p6's first buy ever was on Feb 25, so the March buy is not a first time: p6 stops at step 0. p7's first buy comes 30 min after signing up: 1800 s.",
  },
  {
    name: 'first_time_for_user with step filters: the first pageview ever must pass them',
    data: dataset([
      ev('p4', 'pageview', '10:00', { $browser: 'Safari' }),
      ev('p4', 'pageview', '10:05', { $browser: 'Chrome' }),
      ev('p4', 'purchase', '10:10'),
      ev('p5', 'pageview', '10:00', { $browser: 'Chrome' }),
      ev('p5', 'purchase', '10:20'),
    ]),
    params: { ...MARCH, events: [{ id: 'pageview', order: 0, math: 'first_time_for_user', properties: CHROME }, { id: 'purchase', order: 1 }] },
    expected: [step(0, 'pageview', 1), step(1, 'purchase', 1, 1200)],
    why: "p4's first pageview ever is on Safari, which fails the Chrome filter, and later pageviews are not first times: p4 never enters. p5's first pageview is on Chrome; the purchase comes 20 min later: 1200 s.",
  },
  {
    name: 'first_time_for_user_with_filters: the first pageview that passes the filters',
    data: dataset([
      ev('p4', 'pageview', '10:00', { $browser: 'Safari' }),
      ev('p4', 'pageview', '10:05', { $browser: 'Chrome' }),
      ev('p4', 'purchase', '10:10'),
      ev('p5', 'pageview', '10:00', { $browser: 'Chrome' }),
      ev('p5', 'purchase', '10:20'),
      ev('p10', 'pageview', '2024-02-28T10:00:00Z', { $browser: 'Chrome' }),
      ev('p10', 'pageview', '10:00', { $browser: 'Chrome' }),
      ev('p10', 'purchase', '10:10'),
    ]),
    params: { ...MARCH, events: [{ id: 'pageview', order: 0, math: 'first_time_for_user_with_filters', properties: CHROME }, { id: 'purchase', order: 1 }] },
    expected: [step(0, 'pageview', 2), step(1, 'purchase', 2, 750)],
    why:
      "The filters choose first: p4's first Chrome pageview (10:05) enters, the purchase follows 300 s later; p5's at 10:00, purchase after 1200 s. " +
      "p10's first Chrome pageview was on Feb 28, before the range: p10 never enters (a plain step would let the March one in). Mean and median of 300 and 1200: 750.",
  },
  {
    name: 'first_time_for_user: global filters do not choose the first event',
    data: dataset([
      ev('p8', 'signup', '10:00', { $browser: 'Safari' }),
      ev('p8', 'signup', '11:00', { $browser: 'Chrome' }),
      ev('p8', 'buy', '11:30', { $browser: 'Chrome' }),
      ev('p9', 'signup', '10:00', { $browser: 'Chrome' }),
      ev('p9', 'buy', '10:05', { $browser: 'Chrome' }),
    ]),
    params: { ...MARCH, properties: CHROME, events: [{ id: 'signup', order: 0, math: 'first_time_for_user' }, { id: 'buy', order: 1 }] },
    expected: [step(0, 'signup', 1), step(1, 'buy', 1, 300)],
    why: "PostHog's first-time subquery reads the step's event alone: p8's first signup is the Safari one, which the global Chrome filter then removes, and the Chrome signup is not a first time: p8 never enters. p9: 300 s.",
  },
  {
    name: 'other step maths are dropped: first_matching_event_for_user reads as a plain step',
    data: dataset([ev('p1', 'signup', '2024-02-20T10:00:00Z'), ev('p1', 'signup', '10:00'), ev('p1', 'buy', '10:10')]),
    params: { ...MARCH, events: [{ id: 'signup', order: 0, math: 'first_matching_event_for_user' }, { id: 'buy', order: 1, math: 'dau' }] },
    expected: [step(0, 'signup', 1), step(1, 'buy', 1, 600)],
    why: 'The legacy translation keeps only first_time_for_user and first_time_for_user_with_filters on funnel steps (MathAvailability.FunnelsOnly). As a plain funnel p1 signs up on March 5 and buys 600 s later.',
  },
]
