import { dataset, ev, MARCH, step, type FunnelExample } from './funnel-example-builders.js'

/**
 * On 2024-03-05: a signs up at 10:00 and buys at 10:05 in session s1, signs
 * up again at 12:00 in s2; b signs up at 11:00 in s3 and buys at 11:30 in s4;
 * c signs up at 13:00 with an empty session and buys at 13:10 with none.
 */
export const SESSIONS = dataset([
  ev('a', 'signup', '10:00', { $session_id: 's1' }),
  ev('a', 'buy', '10:05', { $session_id: 's1' }),
  ev('a', 'signup', '12:00', { $session_id: 's2' }),
  ev('b', 'signup', '11:00', { $session_id: 's3' }),
  ev('b', 'buy', '11:30', { $session_id: 's4' }),
  ev('c', 'signup', '13:00', { $session_id: '' }),
  ev('c', 'buy', '13:10'),
])
const STEPS = { ...MARCH, events: [{ id: 'signup', order: 0 }, { id: 'buy', order: 1 }] }

/** Worked examples of `funnel_aggregate_by_hogql` (PostHog's `_aggregation_target_expr`), derived by hand. */
export const AGGREGATION_EXAMPLES: FunnelExample[] = [
  {
    name: 'aggregated by an event property (funnel_aggregate_by_hogql): sessions are the targets',
    data: SESSIONS,
    params: { ...STEPS, funnel_aggregate_by_hogql: 'properties.$session_id' },
    expected: [step(0, 'signup', 3), step(1, 'buy', 1, 300)],
    why: "Targets are $session_id values: s1 signs up at 10:00 and buys at 10:05 (2 steps, 300 s); s2 and s3 only sign up; s4 only buys, so it never enters. c's '' and missing sessions take no part (_aggregation_target_filter). Step 0: s1, s2, s3 = 3; step 1: s1 = 1, 300 s.",
  },
  {
    name: "aggregated by properties['$session_id'], the same expression in brackets",
    data: SESSIONS,
    params: { ...STEPS, funnel_aggregate_by_hogql: "properties['$session_id']" },
    expected: [step(0, 'signup', 3), step(1, 'buy', 1, 300)],
    why: 'The same field as properties.$session_id, so the same targets and counts.',
  },
  {
    name: 'strict, aggregated by an event property: each session is its own sequence',
    data: SESSIONS,
    params: { ...STEPS, funnel_order_type: 'strict', funnel_aggregate_by_hogql: 'properties.$session_id' },
    expected: [step(0, 'signup', 3), step(1, 'buy', 1, 300)],
    why: "A target's sequence holds only its own events: s1 is signup 10:00, buy 10:05, with nothing between (a's signup of s2 at 12:00 is another target's), so it converts in 300 s; s2 and s3 only sign up; s4 never enters. 3 and 1. (The strict funnel first finds each target's span from its step events, grouped by the expression.)",
  },
  {
    name: 'funnel_aggregate_by_hogql person_id is the person',
    data: SESSIONS,
    params: { ...STEPS, funnel_aggregate_by_hogql: 'person_id' },
    expected: [step(0, 'signup', 3), step(1, 'buy', 3, 900, 600)],
    why: 'person_id is PostHog\'s default target. a: 10:00 -> 10:05 (300 s); b: 11:00 -> 11:30 (1800 s); c: 13:00 -> 13:10 (600 s). 3 and 3; the mean is 900 s, the median of 300, 600, 1800 is 600.',
  },
]
