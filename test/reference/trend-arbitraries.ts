/**
 * Random small datasets for the trend reference's invariants: a few persons
 * (one with two distinct ids, one distinct id without a person), a handful
 * of events around a fixed range, in a zone with or without daylight saving.
 */
import fc from 'fast-check'
import type { RefDataset, RefEvent } from './ref-dataset.js'

export const RANGE = { date_from: '2024-03-05', date_to: '2024-03-14' }
// Events fall from a few days before the range to a few after it; America/New_York changes clock on 2024-03-10.
const FIRST = Date.parse('2024-02-25T00:00:00Z')
const LAST = Date.parse('2024-03-20T00:00:00Z')

export const DISTINCT_IDS = ['d1', 'd2', 'd3', 'd4', 'd5']
export const PERSON_OF: Record<string, string> = { d1: 'p1', d2: 'p1', d3: 'p2', d4: 'p3' }

const event: fc.Arbitrary<RefEvent> = fc
  .record({
    n: fc.nat(),
    event: fc.constantFrom('a', 'b'),
    distinct_id: fc.constantFrom(...DISTINCT_IDS),
    at: fc.integer({ min: FIRST, max: LAST }),
    browser: fc.constantFrom('Chrome', 'Safari', 'Firefox', 'Edge', '', undefined),
    amount: fc.oneof(fc.integer({ min: 0, max: 50 }), fc.constantFrom('3.5', 'x', null, undefined)),
    session: fc.constantFrom('s1', 's2', 's3', undefined),
    group: fc.constantFrom('g1', 'g2', undefined),
  })
  .map(({ n, event, distinct_id, at, browser, amount, session, group }) => ({
    uuid: `00000000-0000-4000-8000-${String(n % 1e12).padStart(12, '0')}`,
    event,
    distinct_id,
    timestamp: new Date(at).toISOString(),
    properties: {
      ...(browser === undefined ? {} : { $browser: browser }),
      ...(amount === undefined ? {} : { amount }),
      ...(session === undefined ? {} : { $session_id: session }),
    },
    ...(group === undefined ? {} : { groups: { 0: group } }),
  }))

export const dataset: fc.Arbitrary<RefDataset> = fc
  .record({
    events: fc.array(event, { maxLength: 25 }),
    timezone: fc.constantFrom('UTC', 'America/New_York', 'Asia/Kolkata'),
    weekStartDay: fc.constantFrom(0 as const, 1 as const),
  })
  .map(({ events, timezone, weekStartDay }) => ({
    events,
    persons: Object.fromEntries(Object.entries(PERSON_OF).map(([d, id]) => [d, { id, properties: { plan: id === 'p2' ? 'pro' : 'free' } }])),
    project: { timezone, weekStartDay, testAccountFilters: [] },
    now: new Date('2024-03-25T12:00:00Z'),
  }))

export const interval = fc.constantFrom('hour', 'day', 'week', 'month')
