/**
 * Random retention requests over the trend arbitraries' datasets (events
 * `a` and `b` from 2024-02-25 to 2024-03-20, browsers, plans, group 0,
 * UTC / New York / Kolkata): every parameter the endpoint reads, with
 * windows placed where the events are (and across New York's change on
 * 2024-03-10).
 */
import fc from 'fast-check'

const entity = fc
  .record({
    id: fc.constantFrom('a', 'b', null),
    filtered: fc.boolean(),
    asText: fc.boolean(),
  })
  .map(({ id, filtered, asText }) => {
    const e = { id, type: 'events', ...(filtered ? { properties: [{ key: '$browser', value: ['Chrome', 'Safari'], operator: 'exact' }] } : {}) }
    return asText ? JSON.stringify(e) : e
  })

const window = fc.oneof(
  fc.record({ period: fc.constantFrom('Hour', 'hour'), date_to: fc.constantFrom('2024-03-10T03:30:00', '2024-03-05T12:00:00', '2024-03-10T08:00:00Z') }),
  fc.record({ period: fc.constant('Hour'), date_from: fc.constant('2024-03-09T18:00:00'), date_to: fc.constant('2024-03-10T09:00:00') }),
  fc.record({ period: fc.constantFrom('Day', 'DAY'), date_to: fc.constantFrom('2024-03-14', '2024-03-10', '2024-03-12T10:00:00') }),
  fc.record({ period: fc.constant('Day'), date_from: fc.constantFrom('2024-02-28', '-30d'), date_to: fc.constantFrom('2024-03-16', '2024-03-08') }),
  fc.record({ period: fc.constant('Week'), date_to: fc.constantFrom('2024-03-20', '2024-03-09') }),
  fc.record({ period: fc.constant('Month'), date_to: fc.constantFrom('2024-03-31', '2024-03-01') }),
)

const breakdown = fc.oneof(
  fc.constant({}),
  fc.record({ breakdown: fc.constant('$browser') }, { requiredKeys: ['breakdown'] }),
  fc.record({ breakdown: fc.constant('plan'), breakdown_type: fc.constant('person') }),
  fc.record({ breakdown: fc.constant('$browser'), breakdown_limit: fc.integer({ min: 1, max: 3 }) }),
)

export const retentionParams: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    window,
    breakdown,
    target_entity: entity,
    returning_entity: entity,
    retention_type: fc.constantFrom('retention_recurring', 'retention_first_time', 'retention_first_ever_occurrence'),
    total_intervals: fc.integer({ min: 1, max: 8 }),
    properties: fc.constantFrom(
      undefined,
      [{ key: '$browser', value: 'Firefox', operator: 'is_not', type: 'event' }],
      [{ key: 'plan', value: 'free', operator: 'exact', type: 'person' }],
    ),
    filter_test_accounts: fc.boolean(),
    cumulative: fc.boolean(),
    minimum_occurrences: fc.constantFrom(undefined, 1, 2),
    aggregation_group_type_index: fc.constantFrom(undefined, undefined, 0),
  })
  .map(({ window, breakdown, ...rest }) => {
    const out: Record<string, unknown> = { ...window, ...breakdown }
    for (const [k, v] of Object.entries(rest)) if (v !== undefined) out[k] = v
    return out
  })
