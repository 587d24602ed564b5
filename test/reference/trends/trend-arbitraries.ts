/**
 * Random datasets for the trend, retention and lifecycle references and
 * their properties, built from per-person journeys: a few persons (one with
 * two distinct ids, one distinct id without a person), each coming back for
 * one to four sessions (hours, a day, a few days or a week apart: returns in
 * later retention cells, lifecycle's returning and resurrecting) of one to five
 * events (minutes apart, some at the instant of the one before), mostly
 * inside the range and often on New York's change day, in a zone with or
 * without daylight saving. A browser per journey (five values: breakdown
 * limits leave an Other row), amounts, sessions, group 0.
 * generator-shares.test.ts checks what the runs reach.
 */
import fc from 'fast-check'
import type { RefDataset, RefEvent } from '../shared/ref-dataset.js'

export const RANGE = { date_from: '2024-03-05', date_to: '2024-03-14' }
// Events fall from a few days before the range to a few after it; America/New_York changes clock on 2024-03-10.
const FIRST = Date.parse('2024-02-25T00:00:00Z')
// Returns stop here, days before `now` (2024-03-25T12:00Z): ingestion stores an event more than 23 hours
// ahead of the clock at the clock's time, which the references do not model.
const LAST = Date.parse('2024-03-21T00:00:00Z')
const DAY_MS = 86_400_000
const MINUTE_MS = 60_000

export const DISTINCT_IDS = ['d1', 'd2', 'd3', 'd4', 'd5']
export const PERSON_OF: Record<string, string> = { d1: 'p1', d2: 'p1', d3: 'p2', d4: 'p3' }

/** Days after FIRST: the range (days 9 to 18) most often, its change day (14) one time in four, a day out of range now and then. */
const dayArb = fc.oneof(
  { arbitrary: fc.integer({ min: 9, max: 18 }), weight: 5 },
  { arbitrary: fc.constant(14), weight: 2 },
  { arbitrary: fc.integer({ min: 0, max: 23 }), weight: 1 },
)

const eventArb = fc.record({
  event: fc.constantFrom('a', 'a', 'b'),
  // Minutes since the session's previous event: 0 is a tie.
  gap: fc.constantFrom(0, 0, 1, 5, 20, 45),
  amount: fc.oneof(fc.integer({ min: 0, max: 50 }), fc.constantFrom('3.5', 'x', null, undefined)),
  // One event in five carries another browser than its journey's.
  browser: fc.option(fc.constantFrom('Chrome', 'Safari', 'Firefox', 'Edge', '', undefined), { freq: 4 }),
})

const sessionArb = fc.record({
  // Minutes since the previous session (hours to a week), unused for the first.
  after: fc.constantFrom(90, 180, 720, DAY_MS / MINUTE_MS, 2 * DAY_MS / MINUTE_MS, 3 * DAY_MS / MINUTE_MS, 7 * DAY_MS / MINUTE_MS),
  session: fc.constantFrom('s1', 's2', 's3', undefined),
  events: fc.array(eventArb, { minLength: 1, maxLength: 5, size: 'max' }),
})

const journeyArb = fc.record({
  distinct_id: fc.constantFrom(...DISTINCT_IDS),
  day: dayArb,
  minuteOfDay: fc.integer({ min: 0, max: 24 * 60 - 1 }),
  browser: fc.constantFrom('Chrome', 'Safari', 'Firefox', 'Edge', '', undefined),
  group: fc.constantFrom('g1', 'g2', undefined),
  sessions: fc.array(sessionArb, { minLength: 1, maxLength: 4, size: 'max' }),
})

type Journey = typeof journeyArb extends fc.Arbitrary<infer J> ? J : never

function eventsOf(journeys: ReadonlyArray<Journey>): RefEvent[] {
  const out: RefEvent[] = []
  for (const j of journeys) {
    let at = FIRST + j.day * DAY_MS + j.minuteOfDay * MINUTE_MS
    j.sessions.forEach((s, k) => {
      if (k > 0) at += s.after * MINUTE_MS
      for (const e of s.events) {
        at += e.gap * MINUTE_MS
        if (at > LAST) return
        const browser = e.browser === null ? j.browser : e.browser
        out.push({
          uuid: `00000000-0000-4000-8000-${String(out.length).padStart(12, '0')}`,
          event: e.event,
          distinct_id: j.distinct_id,
          timestamp: new Date(at).toISOString(),
          properties: {
            ...(browser === undefined ? {} : { $browser: browser }),
            ...(e.amount === undefined ? {} : { amount: e.amount }),
            ...(s.session === undefined ? {} : { $session_id: s.session }),
          },
          ...(j.group === undefined ? {} : { groups: { 0: j.group } }),
        })
      }
    })
  }
  return out
}

/** 3 to 8 journeys: a median of 38 events, 21 to 59 in four datasets of five, at most about 85. */
export const dataset: fc.Arbitrary<RefDataset> = fc
  .record({
    journeys: fc.array(journeyArb, { minLength: 3, maxLength: 8, size: 'max' }),
    timezone: fc.constantFrom('UTC', 'America/New_York', 'Asia/Kolkata'),
    weekStartDay: fc.constantFrom(0 as const, 1 as const),
  })
  .map(({ journeys, timezone, weekStartDay }) => ({
    events: eventsOf(journeys),
    persons: Object.fromEntries(Object.entries(PERSON_OF).map(([d, id]) => [d, { id, properties: { plan: id === 'p2' ? 'pro' : 'free' } }])),
    project: { timezone, weekStartDay, testAccountFilters: [] },
    now: new Date('2024-03-25T12:00:00Z'),
  }))

export const interval = fc.constantFrom('hour', 'day', 'week', 'month')
