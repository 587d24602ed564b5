/**
 * Bad funnel requests are ValidationErrors naming the field (a 400 over
 * HTTP), decided before any query; good ones decode with PostHog's defaults.
 */
import { describe, expect, it } from 'vitest'
import { ValidationError } from '../../packages/core/src/errors.js'
import { decodeFunnelActorsRequest, decodeFunnelRequest } from '../../packages/core/src/query/funnels/params/decode-funnel-params.js'

const AB = { events: [{ id: 'a' }, { id: 'b' }] }
const ABC = { events: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] }

const attrOf = (params: unknown): string | null => {
  try {
    decodeFunnelRequest(params)
  } catch (error) {
    if (error instanceof ValidationError) return error.attr
    throw error
  }
  return 'no error'
}

describe('funnel request validation', () => {
  const cases: Array<[string, unknown, string | null]> = [
    ['not an object', [1, 2], null],
    ['one step', { events: [{ id: 'a' }] }, 'events'],
    ['no steps', {}, 'events'],
    ['an action with a null id does not count as a step', { events: [{ id: 'a' }], actions: [{ id: null }] }, 'events'],
    ['too many steps', { events: Array.from({ length: 31 }, (_, i) => ({ id: `e${i}` })) }, 'events'],
    ['unknown window unit', { ...AB, funnel_window_interval: 2, funnel_window_interval_type: 'FORTNIGHT' }, 'funnel_window_interval_type'],
    ["unknown window unit, PostHog's name", { ...AB, funnel_window_interval_unit: 'fortnight' }, 'funnel_window_interval_unit'],
    ['window below 1', { ...AB, funnel_window_interval: 0 }, 'funnel_window_interval'],
    ['window not an integer', { ...AB, funnel_window_interval: 1.5 }, 'funnel_window_interval'],
    ['window days below 1', { ...AB, funnel_window_days: 0 }, 'funnel_window_days'],
    ['unknown order type', { ...AB, funnel_order_type: 'sorted' }, 'funnel_order_type'],
    ['unknown visualisation', { ...AB, funnel_viz_type: 'pie' }, 'funnel_viz_type'],
    ['trends from step out of range', { ...AB, funnel_viz_type: 'trends', funnel_from_step: 1 }, 'funnel_from_step'],
    ['trends to step out of range', { ...ABC, funnel_viz_type: 'trends', funnel_to_step: 3 }, 'funnel_to_step'],
    ['trends to step before from step', { ...ABC, funnel_viz_type: 'trends', funnel_from_step: 1, funnel_to_step: 1 }, 'funnel_to_step'],
    ['time to convert to a step the funnel does not have', { ...AB, funnel_viz_type: 'time_to_convert', funnel_to_step: 5 }, 'funnel_to_step'],
    ['bad bin_count', { ...AB, funnel_viz_type: 'time_to_convert', bin_count: 'many' }, 'bin_count'],
    ['unknown interval', { ...AB, interval: 'fortnight' }, 'interval'],
    ['a breakdown type without a breakdown', { ...AB, breakdown_type: 'person' }, 'breakdown'],
    ['an unknown breakdown type', { ...AB, breakdown: 'x', breakdown_type: 'colour' }, 'breakdown_type'],
    ['a group breakdown without a group type', { ...AB, breakdown: 'x', breakdown_type: 'group' }, 'breakdown_group_type_index'],
    ['two breakdowns in breakdowns', { ...AB, breakdowns: [{ property: 'a' }, { property: 'b' }] }, 'breakdowns'],
    ['breakdown_limit below 1', { ...AB, breakdown: 'x', breakdown_limit: 0 }, 'breakdown_limit'],
    ['unknown attribution', { ...AB, breakdown: 'x', breakdown_attribution_type: 'middle_touch' }, 'breakdown_attribution_type'],
    ['attribution step out of range', { ...AB, breakdown: 'x', breakdown_attribution_type: 'step', breakdown_attribution_value: 2 }, 'breakdown_attribution_value'],
    ['unordered attribution beyond step 0', { ...AB, funnel_order_type: 'unordered', breakdown: 'x', breakdown_attribution_type: 'step', breakdown_attribution_value: 1 }, 'breakdown_attribution_value'],
    ['exclusion range reversed', { ...ABC, exclusions: [{ id: 'x', funnel_from_step: 2, funnel_to_step: 1 }] }, 'exclusions'],
    ['exclusion beyond the last step', { ...ABC, exclusions: [{ id: 'x', funnel_from_step: 1, funnel_to_step: 3 }] }, 'exclusions'],
    ['exclusion equal to a step in its range', { ...AB, exclusions: [{ id: 'b', funnel_from_step: 0, funnel_to_step: 1 }] }, 'exclusions'],
    ['exclusion on all events', { ...AB, exclusions: [{ id: null, funnel_from_step: 0, funnel_to_step: 1 }] }, 'exclusions'],
    ['partial exclusion in an unordered funnel', { ...ABC, funnel_order_type: 'unordered', exclusions: [{ id: 'x', funnel_from_step: 0, funnel_to_step: 1 }] }, 'exclusions'],
    ['aggregation group out of range', { ...AB, aggregation_group_type_index: 5 }, 'aggregation_group_type_index'],
    ['a sampling factor above 1', { ...AB, sampling_factor: 10 }, 'sampling_factor'],
    ['events not JSON', { events: '[{"id": "a"' }, 'events'],
    ['properties not filters', { ...AB, properties: [{ value: 1 }] }, 'properties__0__key'],
  ]
  for (const [name, params, attr] of cases) {
    it(name, () => expect(attrOf(params)).toBe(attr))
  }

  it('an exclusion on a step outside its range is allowed', () => {
    expect(attrOf({ ...ABC, exclusions: [{ id: 'a', funnel_from_step: 1, funnel_to_step: 2 }] })).toBe('no error')
  })

  it('reads GET query text: JSON lists, integers, booleans', () => {
    const r = decodeFunnelRequest({ events: '[{"id":"a"},{"id":"b"}]', funnel_window_interval: '3', funnel_window_interval_unit: 'HOUR', filter_test_accounts: 'true' })
    expect([r.steps.length, r.windowMicros, r.filterTestAccounts]).toEqual([2, 3 * 3600 * 1_000_000, true])
  })

  it('applies the defaults', () => {
    const r = decodeFunnelRequest(AB)
    expect({ order: r.order, viz: r.viz, window: r.windowMicros, group: r.aggregationGroup, interval: r.interval, breakdown: r.breakdown }).toEqual({
      order: 'ordered',
      viz: 'steps',
      window: 14 * 86_400 * 1_000_000,
      group: null,
      interval: 'day',
      breakdown: null,
    })
    const b = decodeFunnelRequest({ ...AB, breakdown: '$browser' }).breakdown!
    expect({ limit: b.limit, attribution: b.attribution, boxed: b.boxed, type: b.dims[0]!.type }).toEqual({ limit: 10, attribution: 'first_touch', boxed: true, type: 'event' })
    expect(decodeFunnelRequest({ ...AB, display: 'ActionsLineGraph' }).viz).toBe('trends')
    expect(decodeFunnelRequest({ ...AB, interval: 'minute' }).interval).toBe('hour')
  })

  it('funnel_step for the people endpoint', () => {
    const attr = (p: unknown) => {
      try {
        decodeFunnelActorsRequest(p)
        return 'no error'
      } catch (e) {
        return (e as ValidationError).attr
      }
    }
    expect([attr(AB), attr({ ...AB, funnel_step: 0 }), attr({ ...AB, funnel_step: -1 }), attr({ ...AB, funnel_step: 3 }), attr({ ...AB, funnel_step: '2' }), attr({ ...AB, funnel_step: -2 })]).toEqual([
      'funnel_step',
      'funnel_step',
      'funnel_step',
      'funnel_step',
      'no error',
      'no error',
    ])
  })
})
