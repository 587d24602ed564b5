/**
 * Worked examples of PostHog's behavioral cohort criteria, ported from
 * `ee/clickhouse/queries/test/test_cohort_query.py` (each names its test) and
 * worked out by hand from `enterprise_cohort_query.py`, W(n unit) being
 * `now - n unit`. Each example runs in a project of its own, so its persons
 * are the only ones; the engine clock is NOW (2026-03-01 12:00 UTC), the
 * project's zone Europe/Berlin (UTC+1 that day).
 */
import { describe, expect } from 'vitest'
import type { Organization, Sightline } from '@sightline/core'
import { conformanceCase } from './case.js'
import { NOW, openEngine } from './harness.js'
import { failure } from './insights.support.js'
import type { ConformanceTarget } from './target.js'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString()

type Event = { distinctId: string; event: string; timestamp: string; properties?: Record<string, unknown> }
const ev = (distinctId: string, event: string, msAgo: number, properties: Record<string, unknown> = {}): Event => ({ distinctId, event, timestamp: ago(msAgo), properties })

/** PostHog's `_make_event_sequence`: `counts[p]` events in period p, the i-th at `now - intervalDays * p days - 1 hour - i minutes`. */
const sequenceOf = (distinctId: string, intervalDays: number, counts: number[], event = '$pageview'): Event[] =>
  counts.flatMap((n, p) => Array.from({ length: n }, (_, i) => ev(distinctId, event, intervalDays * p * DAY + HOUR + i * MINUTE)))

const and = (...values: object[]) => ({ properties: { type: 'AND', values } })
const pageview = (extra: Record<string, unknown>) => ({ type: 'behavioral', key: '$pageview', event_type: 'events', ...extra })
/** A $new_view in the last week, the positive criterion of PostHog's negation examples. */
const newView = { type: 'behavioral', key: '$new_view', event_type: 'events', value: 'performed_event', time_value: 1, time_interval: 'week' }

/** Runs one example in a fresh project: its events (persons made with a `$set` of `persons[id]`), then each cohort's members. */
async function example(s: Sightline, organizationId: Organization['id'], persons: Record<string, Record<string, unknown>>, events: Event[]) {
  const project = await s.projects.create({ organizationId, name: 'Example', timezone: 'Europe/Berlin' })
  const created = Object.entries(persons).map(([id, props]) => ({ distinctId: id, event: 'created', timestamp: ago(400 * DAY), properties: { $set: props } }))
  await s.capture(project.id, [...created, ...events])
  return {
    projectId: project.id,
    /** The members of a cohort of these criteria (`{properties}`, as `filters`) or of this input (`{groups, filters}`). */
    async members(input: object): Promise<string[]> {
      const cohort = await s.cohorts.create(project.id, ('properties' in input ? { filters: input } : input) as never)
      const page = await s.cohorts.persons(project.id, cohort.id, { limit: 100 })
      expect((await s.cohorts.get(project.id, cohort.id)).count).toBe(page.results.length)
      return page.results.flatMap((p) => p.distinctIds).sort()
    },
  }
}

/** Runs `fn` on a fresh engine (its sightline and organization), closed after. */
async function withEngine(target: ConformanceTarget, fn: (s: Sightline, org: Organization['id']) => Promise<void>): Promise<void> {
  const e = await openEngine(target)
  try {
    await fn(e.sightline, e.organizationId)
  } finally {
    await e.close()
  }
}

export function cohortBehaviorCases(target: ConformanceTarget): void {
  describe('cohort behaviors (PostHog worked examples)', () => {
    conformanceCase(target, 'first time, stopped, restarted, regularly and in sequence', async () => {
      await withEngine(target, async (s, org) => {
        const people = (...ids: string[]) => Object.fromEntries(ids.map((id) => [id, { email: `${id}@posthog.com` }]))

        // test_performed_event_first_time: first pageview in the last week. W(1 week) = 22 Feb 12:00.
        // p1's first is 20 days ago (before W): no; p2's only one is 4 days ago (in [W, now)): yes.
        // p3's only one is 10 days ago: not in the week either.
        let x = await example(s, org, people('p1', 'p2', 'p3'), [ev('p1', '$pageview', 20 * DAY), ev('p1', '$pageview', 4 * DAY), ev('p2', '$pageview', 4 * DAY), ev('p3', '$pageview', 10 * DAY)])
        expect(await x.members(and(pageview({ value: 'performed_event_first_time', time_value: 1, time_interval: 'week' })))).toEqual(['p2'])
        // PostHog reads time_value with Python's int(): 1.9 weeks is 1 week, so p3 (10 days, inside 1.9 weeks = 13.3 days) is still out; '+1' is 1 too.
        expect(await x.members(and(pageview({ value: 'performed_event_first_time', time_value: 1.9, time_interval: 'week' })))).toEqual(['p2'])
        expect(await x.members(and(pageview({ value: 'performed_event_first_time', time_value: '+1', time_interval: 'week' })))).toEqual(['p2'])

        // test_stopped_performing_event: did it in (W(2 weeks), W(1 week)] and not in (W(1 week), now].
        // p1: 10 days ago is in (14 days, 7 days] ago, nothing since: yes. p2: 3 days ago is in the recent part: no.
        x = await example(s, org, people('p1', 'p2'), [ev('p1', '$pageview', 10 * DAY), ev('p2', '$pageview', 3 * DAY)])
        const stopped = pageview({ value: 'stopped_performing_event', time_value: 2, time_interval: 'week', seq_time_value: 1, seq_time_interval: 'week' })
        expect(await x.members(and(stopped))).toEqual(['p1'])
        // The recent span's edge belongs to the earlier part: an event exactly 7 days ago was "happening", not "recent".
        x = await example(s, org, people('p3'), [ev('p3', '$pageview', 7 * DAY)])
        expect(await x.members(and(stopped))).toEqual(['p3'])

        // test_restarted_performing_event: some at or before W(1 week), none in (W(1 week), W(2 days)], some in (W(2 days), now].
        // p1: 20 days ago, then 1 day ago: yes. p2: also 5 days ago, in the gap: no. p3: only 1 day ago, nothing before: no.
        x = await example(s, org, people('p1', 'p2', 'p3'), [
          ev('p1', '$pageview', 20 * DAY),
          ev('p1', '$pageview', 1 * DAY),
          ev('p2', '$pageview', 20 * DAY),
          ev('p2', '$pageview', 5 * DAY),
          ev('p2', '$pageview', 1 * DAY),
          ev('p3', '$pageview', 1 * DAY),
        ])
        expect(await x.members(and(pageview({ value: 'restarted_performing_event', time_value: 1, time_interval: 'week', seq_time_value: 2, seq_time_interval: 'day' })))).toEqual(['p1'])

        // test_performed_event_regularly: one pageview per 3-day period, 3 of the last 3 periods.
        // Events at 1 h, 3 d + 1 h, 6 d + 1 h, 9 d + 1 h ago; period p is (W(3(p+1) days), W(3p days)]: 1 event in each of p = 0, 1, 2 -> 3 >= 3.
        x = await example(s, org, people('p1'), sequenceOf('p1', 3, [1, 1, 1, 1]))
        const regularly = (operator_value: number, min_periods: number, extra: Record<string, unknown> = {}) =>
          and(pageview({ value: 'performed_event_regularly', operator: 'gte', operator_value, time_value: 3, time_interval: 'day', total_periods: 3, min_periods, ...extra }))
        expect(await x.members(regularly(1, 3))).toEqual(['p1'])

        // test_performed_event_regularly_with_variable_event_counts_in_each_period: p1 has [0, 1, 2] events in periods 0..2, p2 [1, 2, 2].
        // At least 2 per period in 2 of 3: p1 only in period 2 (1 period), p2 in periods 1 and 2. At least 1 in 2 of 3: p1 periods 1, 2; p2 all three.
        x = await example(s, org, people('p1', 'p2'), [...sequenceOf('p1', 3, [0, 1, 2]), ...sequenceOf('p2', 3, [1, 2, 2])])
        expect(await x.members(regularly(2, 2))).toEqual(['p2'])
        expect(await x.members(regularly(1, 2))).toEqual(['p1', 'p2'])

        // test_performed_event_regularly_month: a pageview every 28 days (28k days + 1 h ago, k < 20), at least 2 per 2-month period in 2 of 3.
        // Calendar months back from 1 Mar 12:00: W(2) = 1 Jan, W(4) = 1 Nov, W(6) = 1 Sep (12:00).
        // Period 0 spans 59 days (Jan 31 + Feb 28): k = 0, 1, 2 (56 d + 1 h) -> 3 events. Period 1 spans 59..120 days ago: k = 3 (84), 4 (112) -> 2.
        // Period 2 spans 120..181 days ago: k = 5 (140), 6 (168) -> 2. Three periods with >= 2 events: in.
        x = await example(s, org, people('p1'), sequenceOf('p1', 28, Array.from({ length: 20 }, () => 1)))
        expect(await x.members(and(pageview({ value: 'performed_event_regularly', operator: 'gte', operator_value: 2, time_value: 2, time_interval: 'month', total_periods: 3, min_periods: 2 })))).toEqual(['p1'])
        // Exactly 3 per period in 1 of 3 periods: only period 0 has 3, so 1 >= 1: in; exactly 3 in 2 of 3: out.
        expect(await x.members(and(pageview({ value: 'performed_event_regularly', operator: 'eq', operator_value: 3, time_value: 2, time_interval: 'month', total_periods: 3, min_periods: 1 })))).toEqual(['p1'])
        expect(await x.members(and(pageview({ value: 'performed_event_regularly', operator: 'eq', operator_value: 3, time_value: 2, time_interval: 'month', total_periods: 3, min_periods: 2 })))).toEqual([])

        // Sequences: a pageview, then a $new_view within 3 days, both in the last 8 days (W(8 days) = 21 Feb 12:00).
        // p1: pageview 5 d ago, new_view 4 d ago (1 day later): yes. p2: new_view 4 d, pageview 3 d (wrong order): no.
        // p3: pageview 7 d 23 h ago, new_view 4 d 23 h ago: exactly 3 days later, the reach is closed: yes.
        // p4: pageview 9 d ago (before W), new_view 7 d ago: no. p5: pageview 6 d, new_view 2 d (4 days later): no.
        x = await example(s, org, people('p1', 'p2', 'p3', 'p4', 'p5'), [
          ev('p1', '$pageview', 5 * DAY),
          ev('p1', '$new_view', 4 * DAY),
          ev('p2', '$new_view', 4 * DAY),
          ev('p2', '$pageview', 3 * DAY),
          ev('p3', '$pageview', 7 * DAY + 23 * HOUR),
          ev('p3', '$new_view', 4 * DAY + 23 * HOUR),
          ev('p4', '$pageview', 9 * DAY),
          ev('p4', '$new_view', 7 * DAY),
          ev('p5', '$pageview', 6 * DAY),
          ev('p5', '$new_view', 2 * DAY),
        ])
        const sequence = (extra: Record<string, unknown>) =>
          pageview({ value: 'performed_event_sequence', time_value: 8, time_interval: 'day', seq_event: '$new_view', seq_event_type: 'events', seq_time_value: 3, seq_time_interval: 'day', ...extra })
        expect(await x.members(and(sequence({})))).toEqual(['p1', 'p3'])

        // test_negation_dynamic_time_bound_with_performed_event_sequence: a $new_view in the last week and NOT two pageviews within 3 days (in 8 days).
        // p1: pageviews 1 h and 2 d 1 h ago (2 days apart), new_view 4 d ago: out. p2: the same pageviews, no new_view: out.
        // p3: pageviews 35 and 37 days ago (before W(8 d)), new_view: in. p4: only a new_view: in. p5: one pageview (no second), new_view: in.
        // p6: pageviews 1 h and 4 d 1 h ago (4 days apart > 3), new_view: in.
        x = await example(s, org, people('p1', 'p2', 'p3', 'p4', 'p5', 'p6'), [
          ...sequenceOf('p1', 2, [1, 1]),
          ev('p1', '$new_view', 4 * DAY),
          ...sequenceOf('p2', 2, [1, 1]),
          ev('p3', '$pageview', 35 * DAY),
          ev('p3', '$pageview', 37 * DAY),
          ev('p3', '$new_view', 4 * DAY),
          ev('p4', '$new_view', 4 * DAY),
          ev('p5', '$pageview', 5 * DAY),
          ev('p5', '$new_view', 4 * DAY),
          ...sequenceOf('p6', 4, [1, 1]),
          ev('p6', '$new_view', 4 * DAY),
        ])
        expect(await x.members(and(newView, sequence({ seq_event: '$pageview', negation: true })))).toEqual(['p3', 'p4', 'p5', 'p6'])
      })
    }, 120_000)

    conformanceCase(target, 'sequence windows in calendar months and years', async () => {
      await withEngine(target, async (s, org) => {
        // enterprise_cohort_query.py's sequence: latest_1 <= latest_0 + INTERVAL n MONTH, on UTC timestamps: a calendar month after
        // each event, the day clamped to the month's last. $pageview then $new_view; NOW is 2026-03-01 12:00 UTC.
        const on = (distinctId: string, event: string, iso: string): Event => ({ distinctId, event, timestamp: iso, properties: {} })
        const x = await example(s, org, { p1: {}, p2: {}, p3: {}, p4: {}, p5: {}, p6: {}, p7: {} }, [
          // 31 Jan 10:00 plus a month is 28 Feb 10:00 (2026 is not a leap year): p1's $new_view at that instant is within, p2's a minute later is not
          // (30 days, PostHog's INTERVAL_TO_SECONDS month, would reach 2 March).
          on('p1', '$pageview', '2026-01-31T10:00:00Z'),
          on('p1', '$new_view', '2026-02-28T10:00:00Z'),
          on('p2', '$pageview', '2026-01-31T10:00:00Z'),
          on('p2', '$new_view', '2026-02-28T10:01:00Z'),
          // On the UTC date: 31 Jan 03:00 UTC plus a month is 28 Feb 03:00 UTC, before p3's $new_view at 12:00 (New York's calendar would give 1 Mar 03:00 UTC).
          on('p3', '$pageview', '2026-01-31T03:00:00Z'),
          on('p3', '$new_view', '2026-02-28T12:00:00Z'),
          // Exactly a month: 15 Jan 09:00 to 15 Feb 09:00, the reach closed.
          on('p4', '$pageview', '2026-01-15T09:00:00Z'),
          on('p4', '$new_view', '2026-02-15T09:00:00Z'),
          // A pageview before W(2 months) = 1 Jan 12:00 does not start a sequence.
          on('p5', '$pageview', '2025-12-31T12:00:00Z'),
          on('p5', '$new_view', '2026-01-20T12:00:00Z'),
          // A year: 31 Mar 2024 08:00 to 31 Mar 2025 08:00 is within a year, a second later is not.
          on('p6', '$pageview', '2024-03-31T08:00:00Z'),
          on('p6', '$new_view', '2025-03-31T08:00:00Z'),
          on('p7', '$pageview', '2024-03-31T08:00:00Z'),
          on('p7', '$new_view', '2025-03-31T08:00:01Z'),
        ])
        const sequence = (time: [number, string], seq: [number, string]) =>
          and(pageview({ value: 'performed_event_sequence', time_value: time[0], time_interval: time[1], seq_event: '$new_view', seq_event_type: 'events', seq_time_value: seq[0], seq_time_interval: seq[1] }))
        // In the last 2 months (W = 1 Jan 12:00; p6 and p7 are older), within a month: p1 and p4.
        expect(await x.members(sequence([2, 'month'], [1, 'month']))).toEqual(['p1', 'p4'])
        // Within a year, in the last 2 months: every pair in the window is (p1 to p4).
        expect(await x.members(sequence([2, 'month'], [1, 'year']))).toEqual(['p1', 'p2', 'p3', 'p4'])
        // In the last 2 years (W = 1 Mar 2024 12:00), within a year: p6 (exactly a year) and every pair of this year; not p7, a second late.
        expect(await x.members(sequence([2, 'year'], [1, 'year']))).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6'])
        // Within 12 months is the same rule as within a year.
        expect(await x.members(sequence([2, 'year'], [12, 'month']))).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6'])
      })
    }, 120_000)

    conformanceCase(target, 'regularly over 500 days: periods without events count when zero compares true', async () => {
      await withEngine(target, async (s, org) => {
        // Day periods p = 0..499, period p = (W(p + 1 days), W(p days)]; W(500 days) is the range's open start.
        // p1: one pageview 1 h ago (p 0) and two 10 d + 1 h ago (p 10). p2: two 1 h ago and two 20 d + 1 h ago. p3: one 1 h ago.
        // p4: one exactly 500 days ago (W(500), outside) and one 1 h ago. p5: one 500 days less a second ago (p 499) and one 1 h ago.
        const x = await example(s, org, { p1: {}, p2: {}, p3: {}, p4: {}, p5: {} }, [
          ev('p1', '$pageview', HOUR),
          ev('p1', '$pageview', 10 * DAY + HOUR),
          ev('p1', '$pageview', 10 * DAY + HOUR + MINUTE),
          ev('p2', '$pageview', HOUR),
          ev('p2', '$pageview', HOUR + MINUTE),
          ev('p2', '$pageview', 20 * DAY + HOUR),
          ev('p2', '$pageview', 20 * DAY + HOUR + MINUTE),
          ev('p3', '$pageview', HOUR),
          ev('p4', '$pageview', 500 * DAY),
          ev('p4', '$pageview', HOUR),
          ev('p5', '$pageview', 500 * DAY - 1000),
          ev('p5', '$pageview', HOUR),
        ])
        const regularly = (operator: string, operator_value: number, min_periods: number) =>
          and(pageview({ value: 'performed_event_regularly', operator, operator_value, time_value: 1, time_interval: 'day', total_periods: 500, min_periods }))
        // Fewer than 2 a day in 499 of 500 days (empty days count: 0 < 2). p1: 499 (p 10 has two). p2: 498. p3, p4, p5: 500.
        expect(await x.members(regularly('lt', 2, 499))).toEqual(['p1', 'p3', 'p4', 'p5'])
        // All 500: p3, p4 (its day-500 event is outside the range), p5.
        expect(await x.members(regularly('lte', 1, 500))).toEqual(['p3', 'p4', 'p5'])
        // At least one a day on 2 of the 500 days (empty days do not count): p1 (p 0, 10), p2 (p 0, 20), p5 (p 0, 499); not p3 or p4.
        expect(await x.members(regularly('gte', 1, 2))).toEqual(['p1', 'p2', 'p5'])
        // Exactly 2 on at least 1 day: p1 (p 10), p2 (p 0 and 20).
        expect(await x.members(regularly('eq', 2, 1))).toEqual(['p1', 'p2'])
      })
    }, 120_000)

    conformanceCase(target, 'regularly over 500 months and 401 years: each event in its whole months back from now', async () => {
      await withEngine(target, async (s, org) => {
        const at = (distinctId: string, iso: string): Event => ({ distinctId, event: '$pageview', timestamp: iso, properties: {} })
        // Months back from NOW (1 Mar 2026 12:00 UTC): W(k months) = 1 (Mar - k) 12:00 UTC; period p = (W(p + 1), W(p)].
        // W(500) = 1 Jul 1984 12:00 (2026 * 12 + 2 - 500 = 1984 * 12 + 6), the range's open start.
        // m1: 1 Feb 2026 12:00:01 (p 0), 1 Feb 12:00:00 (= W(1): p 1), 1 Jul 1984 12:00:01 (p 499): 3 periods.
        // m2: 1 Feb 2026 12:00 (p 1), 1 Jan 2026 12:00 (= W(2): p 2), 1 Jul 1984 12:00 (= W(500): outside): 2 periods.
        // m3: 29 Feb 2024 23:00 (after W(25) = 1 Feb 2024 12:00, before W(24) = 1 Mar 2024 12:00: p 24), 1 Mar 2024 12:00 (= W(24): p 24),
        //     1 Mar 2024 12:00:01 (p 23): 2 periods, two events in p 24.
        let x = await example(s, org, { m1: {}, m2: {}, m3: {} }, [
          at('m1', '2026-02-01T12:00:01Z'),
          at('m1', '2026-02-01T12:00:00Z'),
          at('m1', '1984-07-01T12:00:01Z'),
          at('m2', '2026-02-01T12:00:00Z'),
          at('m2', '2026-01-01T12:00:00Z'),
          at('m2', '1984-07-01T12:00:00Z'),
          at('m3', '2024-02-29T23:00:00Z'),
          at('m3', '2024-03-01T12:00:00Z'),
          at('m3', '2024-03-01T12:00:01Z'),
        ])
        const regularly = (operator: string, operator_value: number, time_value: number, time_interval: string, total_periods: number, min_periods: number) =>
          and(pageview({ value: 'performed_event_regularly', operator, operator_value, time_value, time_interval, total_periods, min_periods }))
        // At least one in 3 of 500 months: m1.
        expect(await x.members(regularly('gte', 1, 1, 'month', 500, 3))).toEqual(['m1'])
        // Exactly 2 in some month: m3 (p 24).
        expect(await x.members(regularly('eq', 2, 1, 'month', 500, 1))).toEqual(['m3'])
        // None in 498 of 500 months (empty months count): m2 (498 empty), m3 (498); m1 has 497.
        expect(await x.members(regularly('lt', 1, 1, 'month', 500, 498))).toEqual(['m2', 'm3'])
        // Periods of 2 months, p = (W(2(p + 1)), W(2p)] = floor(months back / 2): m1 0, 0, 249; m2 0, 1; m3 12, 12, 11.
        // At least 2 events in some period: m1 (p 0) and m3 (p 12).
        expect(await x.members(regularly('gte', 2, 2, 'month', 250, 1))).toEqual(['m1', 'm3'])

        // Years back: W(k years) = 1 Mar (2026 - k) 12:00 UTC; W(401) = 1 Mar 1625 12:00 (the old budget was 400).
        // y1: 28 Feb 2026 (p 0), 1 Mar 2025 12:00 (= W(1): p 1), 31 Dec 1969 23:59:59 (after W(57) = 1 Mar 1969 12:00: p 56): 3 periods.
        // y2: 1 Mar 1625 12:00:01 (p 400). y3: 31 Dec 1969 23:59:59 and 1 Mar 1969 12:00:01 (both p 56), 1 Mar 1969 12:00 (= W(57): p 57).
        x = await example(s, org, { y1: {}, y2: {}, y3: {} }, [
          at('y1', '2026-02-28T00:00:00Z'),
          at('y1', '2025-03-01T12:00:00Z'),
          at('y1', '1969-12-31T23:59:59Z'),
          at('y2', '1625-03-01T12:00:01Z'),
          at('y3', '1969-12-31T23:59:59Z'),
          at('y3', '1969-03-01T12:00:01Z'),
          at('y3', '1969-03-01T12:00:00Z'),
        ])
        // At least one in 3 of 401 years: y1. In 1 of them: all three (y2's event is inside W(401)).
        expect(await x.members(regularly('gte', 1, 1, 'year', 401, 3))).toEqual(['y1'])
        expect(await x.members(regularly('gte', 1, 1, 'year', 401, 1))).toEqual(['y1', 'y2', 'y3'])
        // Exactly 2 in a year: y3 (p 56). In periods of 2 years, p = floor(years back / 2): y1 has 28 Feb 2026 and 1 Mar 2025 in p 0, y3 all three in p 28.
        expect(await x.members(regularly('eq', 2, 1, 'year', 401, 1))).toEqual(['y3'])
        expect(await x.members(regularly('eq', 2, 2, 'year', 200, 1))).toEqual(['y1'])
        expect(await x.members(regularly('eq', 3, 2, 'year', 200, 1))).toEqual(['y3'])
      })
    }, 120_000)

    conformanceCase(target, 'event_filters and explicit datetimes on the other behaviors, as HogQLCohortQuery reads them', async () => {
      await withEngine(target, async (s, org) => {
        // f1: a free pageview 10 days ago (19 Feb 12:00 UTC), a pro one 2 days ago. f2: a pro one 2 days ago.
        // f3: a free one 2 days ago, a pro one 1 day ago.
        let x = await example(s, org, { f1: {}, f2: {}, f3: {} }, [
          ev('f1', '$pageview', 10 * DAY, { plan: 'free' }),
          ev('f1', '$pageview', 2 * DAY, { plan: 'pro' }),
          ev('f2', '$pageview', 2 * DAY, { plan: 'pro' }),
          ev('f3', '$pageview', 2 * DAY, { plan: 'free' }),
          ev('f3', '$pageview', DAY, { plan: 'pro' }),
        ])
        const pro = [{ key: 'plan', value: 'pro' }]
        const firstTime = (extra: Record<string, unknown>) => and(pageview({ value: 'performed_event_first_time', ...extra }))
        // First time in the last week: f2 and f3 (f1's first is 10 days ago).
        expect(await x.members(firstTime({ time_value: 1, time_interval: 'week' }))).toEqual(['f2', 'f3'])
        // With event filters (first_time_for_user: the earliest pageview, which must be pro): f2; f3's first is free,
        // and f1's first pro pageview is in the week but is not its first pageview.
        expect(await x.members(firstTime({ time_value: 1, time_interval: 'week', event_filters: pro }))).toEqual(['f2'])
        // explicit_datetime -3d (26 Feb 12:00 UTC) instead of the week: f2, f3. From -12d to -5d (17 to 24 Feb 12:00): f1's first
        // (19 Feb); time_value is not read beside it.
        expect(await x.members(firstTime({ time_value: 1, time_interval: 'day', explicit_datetime: '-3d' }))).toEqual(['f2', 'f3'])
        expect(await x.members(firstTime({ explicit_datetime: '-12d', explicit_datetime_to: '-5d' }))).toEqual(['f1'])
        // explicit_datetime_to alone is not read: the week.
        expect(await x.members(firstTime({ time_value: 1, time_interval: 'week', explicit_datetime_to: '-5d' }))).toEqual(['f2', 'f3'])

        // Stopped (some in the 2 weeks before the last week, none in the last week), of the free pageviews: f1 (free 10 days
        // ago; its pageview 2 days ago is pro; f3's free one is 2 days ago). Without filters no one: each has a pageview in the last week.
        const stopped = (extra: Record<string, unknown>) =>
          and(pageview({ value: 'stopped_performing_event', time_value: 2, time_interval: 'week', seq_time_value: 1, seq_time_interval: 'week', ...extra }))
        expect(await x.members(stopped({}))).toEqual([])
        expect(await x.members(stopped({ event_filters: [{ key: 'plan', value: 'free' }] }))).toEqual(['f1'])
        // An explicit range is not read on stopped (HogQLCohortQuery would put it on both of its ranges: always empty).
        expect(await x.members(stopped({ event_filters: [{ key: 'plan', value: 'free' }], explicit_datetime: '-30d' }))).toEqual(['f1'])

        // Neither restarted nor regularly reads them (in both PostHog queries): the same members with them.
        // Restarted: some at or before W(1 week), none in (W(1 week), W(3 days)], some since: f1.
        const restarted = (extra: Record<string, unknown>) =>
          and(pageview({ value: 'restarted_performing_event', time_value: 1, time_interval: 'week', seq_time_value: 3, seq_time_interval: 'day', ...extra }))
        expect(await x.members(restarted({}))).toEqual(['f1'])
        expect(await x.members(restarted({ event_filters: pro, explicit_datetime: '-30d', explicit_datetime_to: '-20d' }))).toEqual(['f1'])
        // Regularly: at least one a day on 1 of the last 3 days: everyone (with the filter read it would be f2 and f3; with the range, f1).
        const regularly = (extra: Record<string, unknown>) =>
          and(pageview({ value: 'performed_event_regularly', operator: 'gte', operator_value: 1, time_value: 1, time_interval: 'day', total_periods: 3, min_periods: 1, ...extra }))
        expect(await x.members(regularly({ event_filters: [{ key: 'plan', value: 'none' }], explicit_datetime: '-12d', explicit_datetime_to: '-5d' }))).toEqual(['f1', 'f2', 'f3'])

        // Sequences: s1 a pageview 10 days ago then a $new_view an hour later; s2 the same 2 days ago.
        x = await example(s, org, { s1: {}, s2: {} }, [
          ev('s1', '$pageview', 10 * DAY),
          ev('s1', '$new_view', 10 * DAY - HOUR),
          ev('s2', '$pageview', 2 * DAY),
          ev('s2', '$new_view', 2 * DAY - HOUR),
        ])
        const sequence = (extra: Record<string, unknown>) =>
          and(pageview({ value: 'performed_event_sequence', seq_event: '$new_view', seq_event_type: 'events', seq_time_value: 1, seq_time_interval: 'day', ...extra }))
        // In the last week: s2. Between -12d and -5d (the funnel's date range in HogQLCohortQuery): s1. Since -12d: both.
        expect(await x.members(sequence({ time_value: 1, time_interval: 'week' }))).toEqual(['s2'])
        expect(await x.members(sequence({ explicit_datetime: '-12d', explicit_datetime_to: '-5d' }))).toEqual(['s1'])
        expect(await x.members(sequence({ time_value: 1, time_interval: 'week', explicit_datetime: '-12d' }))).toEqual(['s1', 's2'])
        // The range ends before the $new_view: s1's pair is cut (both events must be in it).
        expect(await x.members(sequence({ explicit_datetime: '-12d', explicit_datetime_to: ago(10 * DAY - 30 * MINUTE) }))).toEqual([])
        // Event filters are not read on sequences (the funnel's steps carry none): still s2.
        expect(await x.members(sequence({ time_value: 1, time_interval: 'week', event_filters: [{ key: 'plan', value: 'none' }] }))).toEqual(['s2'])
      })
    }, 120_000)

    conformanceCase(target, 'explicit datetimes, negations, first time of an action, and what is refused', async () => {
      await withEngine(target, async (s, org) => {
        // test_performed_event: explicit_datetime -1w reads as W(1 week) = 22 Feb 12:00; p1's pageview 2 days ago is after it, p2's 9 days ago is not.
        let x = await example(s, org, { p1: {}, p2: {} }, [ev('p1', '$pageview', 2 * DAY), ev('p2', '$pageview', 9 * DAY)])
        expect(await x.members(and(pageview({ value: 'performed_event', explicit_datetime: '-1w' })))).toEqual(['p1'])

        // test_performed_event_with_event_filters_and_explicit_date: since 3 days ago, as naive text in the project's zone:
        // 26 Feb 13:00 Berlin = 12:00 UTC (it overrides time_value 1 week). p1: a filtered pageview 2 days ago: yes.
        // p2: an unfiltered one 2 days ago, a filtered one 5 days ago (before the datetime): no.
        x = await example(s, org, { p1: {}, p2: {} }, [
          ev('p1', '$pageview', 2 * DAY, { $filter_prop: 'something' }),
          ev('p2', '$pageview', 2 * DAY),
          ev('p2', '$pageview', 5 * DAY, { $filter_prop: 'something' }),
        ])
        const filtered = (explicit: string) =>
          and(pageview({ value: 'performed_event', explicit_datetime: explicit, time_value: 1, time_interval: 'week', event_filters: [{ key: '$filter_prop', value: 'something', operator: 'exact', type: 'event' }] }))
        expect(await x.members(filtered('2026-02-26 13:00:00'))).toEqual(['p1'])
        // Read in UTC the same text would be an hour later, 26 Feb 13:00 UTC; a filtered event at 12:30 UTC falls between the two readings.
        x = await example(s, org, { p3: {} }, [ev('p3', '$pageview', 3 * DAY - 30 * MINUTE, { $filter_prop: 'something' })])
        expect(await x.members(filtered('2026-02-26 13:00:00'))).toEqual(['p3'])
        expect(await x.members(filtered('2026-02-26T13:00:00Z'))).toEqual([])
        // performed_event_multiple reads it too: at least 2 since the 25th (Berlin midnight = 24 Feb 23:00 UTC).
        x = await example(s, org, { p1: {}, p2: {} }, [ev('p1', '$pageview', 1 * DAY), ev('p1', '$pageview', 2 * DAY), ev('p2', '$pageview', 1 * DAY), ev('p2', '$pageview', 6 * DAY)])
        expect(await x.members(and(pageview({ value: 'performed_event_multiple', operator: 'gte', operator_value: 2, explicit_datetime: '2026-02-25' })))).toEqual(['p1'])

        // explicit_datetime_to, as PostHog's HogQL cohort query reads it (EventsQuery's `timestamp < before`), in the project's zone:
        // 20 Feb 13:00 to 27 Feb 13:00 Berlin is 12:00 to 12:00 UTC, both ends open. p1 on the 24th: in. p2 on the 28th: after it.
        // p3 at 27 Feb 12:00 UTC exactly: not before it. p4 a second earlier: in. p5 on the 21st and 26th: in, twice.
        x = await example(s, org, { p1: {}, p2: {}, p3: {}, p4: {}, p5: {} }, [
          ev('p1', '$pageview', 5 * DAY),
          ev('p2', '$pageview', 1 * DAY),
          ev('p3', '$pageview', 2 * DAY),
          ev('p4', '$pageview', 2 * DAY + 1000),
          ev('p5', '$pageview', 8 * DAY),
          ev('p5', '$pageview', 3 * DAY),
        ])
        const range = { explicit_datetime: '2026-02-20 13:00', explicit_datetime_to: '2026-02-27 13:00' }
        expect(await x.members(and(pageview({ value: 'performed_event', ...range })))).toEqual(['p1', 'p4', 'p5'])
        expect(await x.members(and(pageview({ value: 'performed_event_multiple', operator: 'gte', operator_value: 2, ...range })))).toEqual(['p5'])
        // Without explicit_datetime it is not read (HogQLCohortQuery sets date_to only beside it): the last week, W = 22 Feb 12:00 UTC, to now.
        expect(await x.members(and(pageview({ value: 'performed_event', time_value: 1, time_interval: 'week', explicit_datetime_to: '2026-02-25' })))).toEqual(['p1', 'p2', 'p3', 'p4', 'p5'])

        // test_negation_dynamic_time_bound_with_performed_event: a $new_view in the last week and no pageview in the last 2 weeks.
        // p1: pageview 2 d ago: out. p2: no new_view: out. p3: pageview 35 d ago only: in. p4: never a pageview: in.
        x = await example(s, org, { p1: {}, p2: {}, p3: {}, p4: {} }, [
          ev('p1', '$pageview', 2 * DAY),
          ev('p1', '$new_view', 4 * DAY),
          ev('p2', '$pageview', 4 * DAY),
          ev('p3', '$pageview', 35 * DAY),
          ev('p3', '$new_view', 4 * DAY),
          ev('p4', '$new_view', 4 * DAY),
        ])
        expect(await x.members(and(newView, pageview({ value: 'performed_event', time_value: 2, time_interval: 'week', negation: true })))).toEqual(['p3', 'p4'])
        // test_negation_raises: a negation alone is not paired with a positive filter; PostHog's calculation fails, so the cohort holds no one.
        expect(await x.members(and(pageview({ value: 'performed_event', time_value: 1, time_interval: 'week', negation: true })))).toEqual([])
        // An OR of a negation and a positive criterion leaves the negation pending too (check_negation_clause), ...
        expect(await x.members({ properties: { type: 'OR', values: [newView, pageview({ value: 'performed_event', time_value: 2, time_interval: 'week', negation: true })] } })).toEqual([])
        // ... unless an AND around it pairs it: AND(OR(new_view, NOT pageview), new_view) -> new_view and (new_view or no pageview): p1, p3, p4.
        const orGroup = { type: 'OR', values: [newView, pageview({ value: 'performed_event', time_value: 2, time_interval: 'week', negation: true })] }
        expect(await x.members(and(orGroup, { type: 'AND', values: [newView] }))).toEqual(['p1', 'p3', 'p4'])

        // test_negation_with_simplify_filters (numbers as text): no pageview in 30 days and a $feature_flag_called in 30 days.
        // p1, p2: pageviews 2 and 10 days ago: out. p3: only the flag event 10 days ago: in.
        x = await example(s, org, { p1: {}, p2: {}, p3: {} }, [ev('p1', '$pageview', 2 * DAY), ev('p2', '$pageview', 10 * DAY), ev('p3', '$feature_flag_called', 10 * DAY)])
        expect(
          await x.members(
            and(
              pageview({ value: 'performed_event', negation: true, time_value: '30', time_interval: 'day' }),
              { type: 'behavioral', key: '$feature_flag_called', event_type: 'events', value: 'performed_event', negation: false, time_value: '30', time_interval: 'day' },
            ),
          ),
        ).toEqual(['p3'])

        // Negated person criteria: the persons the filter does not match, a missing property included (PostHog subtracts the matching ones).
        // p1 gold, p2 silver, p3 no tier; all have an email. AND(email set, NOT tier = gold) -> p2, p3. NOT (tier is_set) with email set -> p3.
        x = await example(s, org, { p1: { email: 'a', tier: 'gold' }, p2: { email: 'b', tier: 'silver' }, p3: { email: 'c' } }, [])
        const emailSet = { type: 'person', key: 'email', operator: 'is_set' }
        expect(await x.members(and(emailSet, { type: 'person', key: 'tier', value: 'gold', negation: true }))).toEqual(['p2', 'p3'])
        expect(await x.members(and(emailSet, { type: 'person', key: 'tier', operator: 'is_set', negation: true }))).toEqual(['p3'])
        // A negated person criterion alone is pending like any other negation: no one.
        expect(await x.members(and({ type: 'person', key: 'tier', value: 'gold', negation: true }))).toEqual([])

        // test_basic_query: AND(OR(pageview in 1 day, pageview in 2 weeks), AND(first time of action1 in 2 weeks, email = test@posthog.com)).
        // action1: $autocapture on exactly https://posthog.com/feedback/123. p1: autocapture 2 d ago, pageview 1 d ago: in.
        // p2: autocapture 3 weeks ago (first time before W(2 weeks)): out. p3: email testXX@posthog.com: out.
        const url = { $current_url: 'https://posthog.com/feedback/123' }
        x = await example(s, org, { p1: { name: 'test', email: 'test@posthog.com' }, p2: { name: 'test', email: 'test@posthog.com' }, p3: { name: 'test', email: 'testXX@posthog.com' } }, [
          ev('p1', '$autocapture', 2 * DAY, url),
          ev('p1', '$pageview', 1 * DAY),
          ev('p2', '$autocapture', 21 * DAY, url),
          ev('p2', '$pageview', 1 * DAY),
          ev('p3', '$autocapture', 2 * DAY, url),
          ev('p3', '$pageview', 1 * DAY),
        ])
        const action1 = await s.actions.create(x.projectId, { name: 'action1', steps: [{ event: '$autocapture', url: 'https://posthog.com/feedback/123', url_matching: 'exact' }] })
        expect(
          await x.members(
            and(
              { type: 'OR', values: [pageview({ value: 'performed_event', time_value: 1, time_interval: 'day' }), pageview({ value: 'performed_event', time_value: 2, time_interval: 'week' })] },
              { type: 'AND', values: [{ type: 'behavioral', key: action1.id, event_type: 'actions', time_value: 2, time_interval: 'week', value: 'performed_event_first_time' }, { type: 'person', key: 'email', value: 'test@posthog.com' }] },
            ),
          ),
        ).toEqual(['p1'])

        // Refused at the field, nothing saved: PostHog's ValueErrors, and what its query would not read.
        const v0 = 'filters__properties__values__0'
        const saved = (await s.cohorts.list(x.projectId)).count
        for (const [criterion, attr] of [
          [pageview({ value: 'stopped_performing_event', time_value: 1, time_interval: 'day', seq_time_value: 2, seq_time_interval: 'day' }), 'seq_time_value'], // test_stopped_performing_event_raises_if_seq_date_later_than_date
          [pageview({ value: 'restarted_performing_event', time_value: 1, time_interval: 'day', seq_time_value: 2, seq_time_interval: 'day' }), 'seq_time_value'],
          [pageview({ value: 'stopped_performing_event', time_value: 1, time_interval: 'week' }), 'seq_time_value'],
          [pageview({ value: 'performed_event_multiple', operator: 'eq', operator_value: 0, time_value: 1, time_interval: 'week' }), 'operator_value'], // test_performed_event_zero_times_
          [pageview({ value: 'performed_event_regularly', operator: 'gte', operator_value: 1, time_value: 1, time_interval: 'day', min_periods: 4, total_periods: 3 }), 'min_periods'],
          [pageview({ value: 'performed_event_regularly', operator: 'gte', operator_value: 1, time_value: 1, time_interval: 'day', min_periods: 1 }), 'total_periods'],
          // Checked where a behavior ignores them too: malformed event filters, an unreadable datetime.
          [pageview({ value: 'restarted_performing_event', time_value: 1, time_interval: 'week', seq_time_value: 1, seq_time_interval: 'day', event_filters: [{ value: 'b' }] }), 'event_filters__0__key'],
          [pageview({ value: 'performed_event_regularly', operator: 'gte', operator_value: 1, time_value: 1, time_interval: 'day', min_periods: 1, total_periods: 3, explicit_datetime: 'soon' }), 'explicit_datetime'],
          [pageview({ value: 'performed_event', explicit_datetime: '-3d', explicit_datetime_to: 'next week' }), 'explicit_datetime_to'],
          // The general budget: time_value times total_periods is at most 1,000,000 (PostHog has no bound).
          [pageview({ value: 'performed_event_regularly', operator: 'gte', operator_value: 1, time_value: 2, time_interval: 'month', min_periods: 1, total_periods: 500_001 }), 'total_periods'],
          [pageview({ value: 'performed_event', explicit_datetime: '3000-01-01' }), 'explicit_datetime'],
          [pageview({ value: 'performed_event_sequence', time_value: 8, time_interval: 'day', seq_event: '$x', seq_time_value: 1, seq_time_interval: 'fortnight' }), 'seq_time_interval'],
          [pageview({ value: 'performed_event_sequence', time_value: 8, time_interval: 'day', seq_event: 9999, seq_event_type: 'actions', seq_time_value: 1, seq_time_interval: 'day' }), 'seq_event'],
        ] as const) {
          const error = await failure(s.cohorts.create(x.projectId, { filters: and(criterion) } as never))
          expect([error.name, error.attr], JSON.stringify(criterion)).toEqual(['ValidationError', `${v0}__${attr}`])
        }
        expect((await s.cohorts.list(x.projectId)).count).toBe(saved)
      })
    }, 120_000)

    conformanceCase(target, 'legacy groups are evaluated when filters has no criteria', async () => {
      await withEngine(target, async (s, org) => {
        // p1 name test; p2 name test and e-mail; p3 abra cadabra and name alakazam; p4 nothing. Pageviews: p2 twice (1 and 2 days ago), p4 once 10 days ago.
        const x = await example(s, org, { p1: { name: 'test' }, p2: { name: 'test', email: 'fake@test.com' }, p3: { abra: 'cadabra', name: 'alakazam' }, p4: {} }, [
          ev('p2', '$pageview', 1 * DAY),
          ev('p2', '$pageview', 2 * DAY),
          ev('p4', '$pageview', 10 * DAY),
        ])
        // test_cohort_filter: groups [{properties: [name = test (person)]}] -> p1, p2.
        expect(await x.members({ groups: [{ properties: [{ key: 'name', value: 'test', type: 'person' }] }] })).toEqual(['p1', 'p2'])
        // test_faulty_type and test_missing_type: type event, or none, is read as a person property: email = fake@test.com -> p2.
        expect(await x.members({ groups: [{ properties: [{ key: 'email', type: 'event', value: ['fake@test.com'], operator: 'exact' }] }] })).toEqual(['p2'])
        // test_old_old_style_properties: OR of the groups; {abra: cadabra, name: alakazam} is both person properties equal -> p3; with the first group p2 too.
        expect(
          await x.members({ groups: [{ properties: [{ key: 'email', value: ['fake@test.com'], operator: 'exact' }] }, { properties: { abra: 'cadabra', name: 'alakazam' } }] }),
        ).toEqual(['p2', 'p3'])
        // An action or event group: performed it in the last `days` days (365 by default), `count` times by `count_operator`.
        // $pageview in 3 days: p2. At least 2 in 30 days: p2 (2), not p4 (1). Exactly 1 (no operator: equality) in 30 days: p4. Any in 365 days: p2, p4.
        expect(await x.members({ groups: [{ event_id: '$pageview', days: 3 }] })).toEqual(['p2'])
        expect(await x.members({ groups: [{ event_id: '$pageview', days: 30, count: 2, count_operator: 'gte' }] })).toEqual(['p2'])
        expect(await x.members({ groups: [{ event_id: '$pageview', days: 30, count: '1' }] })).toEqual(['p4'])
        expect(await x.members({ groups: [{ event_id: '$pageview' }] })).toEqual(['p2', 'p4'])
        // A group with neither properties nor an action or event is PostHog's "invalid state": the cohort has no criteria, so everyone.
        expect(await x.members({ groups: [{ event_id: '$pageview', days: 3 }, { days: 3 }] })).toEqual(['p1', 'p2', 'p3', 'p4'])
        // Criteria in filters win over groups.
        expect(await x.members({ groups: [{ event_id: '$pageview' }], filters: and({ type: 'person', key: 'abra', operator: 'is_set' }) })).toEqual(['p3'])
        // A static cohort's groups are never read: they are kept as sent, its persons are the listed ones.
        const fixed = await s.cohorts.create(x.projectId, { isStatic: true, groups: [{ event_id: '$pageview', days: 'soon' }], distinctIds: ['p4'] } as never)
        expect([fixed.count, fixed.groups]).toEqual([1, [{ event_id: '$pageview', days: 'soon' }]])
        // Groups are checked when saved, at their own fields.
        for (const [groups, attr] of [
          [[{ event_id: '$pageview', days: 'soon' }], 'groups__0__days'],
          [[{ event_id: '$pageview', count: 2, count_operator: 'between' }], 'groups__0__count_operator'],
          [[{ action_id: 99999 }], 'groups__0__key'], // the criterion the group stands for names its action as key
          [[{ properties: [{ key: 'n', value: 'x', operator: 'gt' }] }], 'groups__0__properties__0__value'],
        ] as const) {
          const error = await failure(s.cohorts.create(x.projectId, { groups } as never))
          expect([error.name, error.attr], JSON.stringify(groups)).toEqual(['ValidationError', attr])
        }
      })
    }, 120_000)
  })
}
