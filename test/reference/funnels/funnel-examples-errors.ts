import { dataset, ev, MARCH, type FunnelExample } from './funnel-example-builders.js'

const DATA = dataset([ev('p1', 'a', '10:00'), ev('p1', 'b', '10:10')])
const AB = [{ id: 'a' }, { id: 'b' }]

/** Bad input: each is a 400 naming the field (`expected.validationError` is the error's attr). */
export const ERROR_EXAMPLES: FunnelExample[] = [
  {
    name: 'fewer than two steps',
    data: DATA,
    params: { ...MARCH, events: [{ id: 'a' }] },
    expected: { validationError: 'events' },
    why: 'RequireAtLeastTwoFunnelSteps: "Funnels require at least two steps."',
  },
  {
    name: 'unknown window unit',
    data: DATA,
    params: { ...MARCH, events: AB, funnel_window_interval: 2, funnel_window_interval_type: 'FORTNIGHT' },
    expected: { validationError: 'funnel_window_interval_type' },
    why: 'Units are second, minute, hour, day, week and month, in any case.',
  },
  {
    name: 'an exclusion that is one of the steps in its range',
    data: DATA,
    params: { ...MARCH, events: AB, exclusions: [{ id: 'b', funnel_from_step: 0, funnel_to_step: 1 }] },
    expected: { validationError: 'exclusions' },
    why: "ValidateFunnelExclusions: \"Exclusion steps cannot contain an event that's part of funnel steps.\"",
  },
  {
    name: 'partial exclusion in an unordered funnel',
    data: DATA,
    params: { ...MARCH, events: [...AB, { id: 'c' }], funnel_order_type: 'unordered', exclusions: [{ id: 'x', funnel_from_step: 0, funnel_to_step: 1 }] },
    expected: { validationError: 'exclusions' },
    why: 'Unordered exclusions must cover the whole funnel: "Partial Exclusions not allowed in unordered funnels".',
  },
  {
    name: 'time to convert to a step the funnel does not have',
    data: DATA,
    params: { ...MARCH, events: AB, funnel_viz_type: 'time_to_convert', funnel_to_step: 5 },
    expected: { validationError: 'funnel_to_step' },
    why: '"Filter parameter funnel_to_step can only be one of 1 for time to convert!"',
  },
  {
    name: 'trends from a step out of range',
    data: DATA,
    params: { ...MARCH, events: AB, funnel_viz_type: 'trends', funnel_from_step: 3 },
    expected: { validationError: 'funnel_from_step' },
    why: '"funnelFromStep is out of bounds": a 2-step funnel has steps 0 and 1.',
  },
]
