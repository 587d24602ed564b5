// What the analysis benchmarks time: per suite, the floor it is measured against (in the same
// child and round) and its queries. Parameters are PostHog's legacy insight parameters, run
// through `sightline.query`. `frequent` is the event nearest 15% of all events, found at load.

import { sqlCast } from '@sightline/core/storage'

/** The 90 generated days (the sample data ends 2025-01-01T00:00Z). */
const ALL_DAYS = { from: '2024-10-03T00:00:00.000000Z', to: '2024-12-31T23:59:59.999999Z' }
/** 30 days around the America/New_York change of 2024-11-03. */
const DST_MONTH = { from: '2024-10-20T00:00:00.000000Z', to: '2024-11-18T23:59:59.999999Z' }

/**
 * The floor of performance.md for person-level analyses: every event of the range grouped by
 * distinct id (counted, not shipped).
 */
const groupByPersonFloor = (range) => ({
  label: `SELECT distinct_id, count(*) FROM events WHERE ${range.from.slice(0, 10)}..${range.to.slice(0, 10)} GROUP BY 1`,
  query: (sql, projectId) =>
    sql`select count(*) as n from (select distinct_id, count(*) as c from events where project_id = ${projectId} and timestamp >= ${sqlCast(range.from, 'timestamptz')} and timestamp <= ${sqlCast(range.to, 'timestamptz')} group by distinct_id) as g`,
})

const FUNNEL_STEPS = ['signup_started', 'signup', 'onboarding_completed']
const funnelParams = (order, steps) => ({
  date_from: '2024-10-03',
  date_to: '2024-12-31',
  events: steps.map((id, order) => ({ id, order })),
  funnel_order_type: order,
  funnel_window_interval: 14,
  funnel_window_interval_unit: 'day',
})
const TREND_RANGE = { date_from: '2024-10-20', date_to: '2024-11-18' }

/** Every suite; the aims are the issues' ratios at 10M events (informative at other sizes). */
export const SUITES = {
  funnel: {
    floor: groupByPersonFloor(ALL_DAYS),
    aims: {
      // Issue 15's aims (issue 5 had 4x, 10x, 15x and 10x on DuckDB).
      duckdb: { 'ordered, 3 steps': 3, 'strict, 3 steps': 8, 'unordered, 3 steps': 6, 'ordered, frequent middle step': 6, 'ordered, 5 steps': 4 },
      postgres: { 'ordered, 3 steps': 1.5, 'strict, 3 steps': 4 },
      // Issue 16's aims for chDB at 10M events.
      chdb: { 'ordered, 3 steps': 1.5, 'strict, 3 steps': 3, 'unordered, 3 steps': 3 },
    },
    queries: [
      { name: 'ordered, 3 steps', analysis: 'funnel', params: () => funnelParams('ordered', FUNNEL_STEPS) },
      { name: 'strict, 3 steps', analysis: 'funnel', params: () => funnelParams('strict', FUNNEL_STEPS) },
      { name: 'unordered, 3 steps', analysis: 'funnel', params: () => funnelParams('unordered', FUNNEL_STEPS) },
      { name: 'ordered, frequent middle step', analysis: 'funnel', params: ({ frequent }) => funnelParams('ordered', [FUNNEL_STEPS[0], frequent, FUNNEL_STEPS[2]]) },
      // feature_used (4.9% of events) and purchase (1.7%) after the three.
      { name: 'ordered, 5 steps', analysis: 'funnel', params: () => funnelParams('ordered', [...FUNNEL_STEPS, 'feature_used', 'purchase']) },
      // The frequent event excluded between the first two steps: on Postgres this ran past 90 s before
      // analyses were planned without nested loops (storage-postgres's analysis-planner.ts).
      {
        name: 'ordered, frequent exclusion',
        analysis: 'funnel',
        params: ({ frequent }) => ({ ...funnelParams('ordered', FUNNEL_STEPS), exclusions: [{ id: frequent, type: 'events', funnel_from_step: 0, funnel_to_step: 1 }] }),
      },
    ],
  },
  trend: {
    floor: {
      label: "SELECT count(*) FROM events WHERE event = '$pageview' AND <30 days>",
      query: (sql, projectId) =>
        sql`select count(*) as n from events where project_id = ${projectId} and event = '$pageview' and timestamp >= ${sqlCast(DST_MONTH.from, 'timestamptz')} and timestamp <= ${sqlCast(DST_MONTH.to, 'timestamptz')}`,
    },
    // Issue 14's aims (issue 6 had 2x, 6x, 12x, 15x and 15x on DuckDB).
    aims: {
      duckdb: {
        'daily total, UTC': 2,
        'daily total, America/New_York': 2,
        'daily dau, America/New_York': 5,
        'daily weekly_active, UTC': 8,
        'top-10 $pathname + Other, UTC': 6,
        'daily p90 of load_time_ms, UTC': 6,
      },
      postgres: { 'daily total, UTC': 1.5, 'daily total, America/New_York': 1.5, 'daily dau, America/New_York': 2 },
      chdb: { 'daily total, UTC': 1.5, 'daily dau, America/New_York': 3 },
    },
    queries: [
      { name: 'daily total, UTC', analysis: 'trend', params: () => ({ events: [{ id: '$pageview' }], ...TREND_RANGE }) },
      { name: 'daily total, America/New_York', timezone: 'America/New_York', analysis: 'trend', params: () => ({ events: [{ id: '$pageview' }], ...TREND_RANGE }) },
      { name: 'daily dau, America/New_York', timezone: 'America/New_York', analysis: 'trend', params: () => ({ events: [{ id: '$pageview', math: 'dau' }], ...TREND_RANGE }) },
      { name: 'daily weekly_active, UTC', analysis: 'trend', params: () => ({ events: [{ id: '$pageview', math: 'weekly_active' }], ...TREND_RANGE }) },
      { name: 'top-10 $pathname + Other, UTC', analysis: 'trend', params: () => ({ events: [{ id: '$pageview' }], breakdown: '$pathname', breakdown_limit: 10, ...TREND_RANGE }) },
      { name: 'daily p90 of load_time_ms, UTC', analysis: 'trend', params: () => ({ events: [{ id: '$pageview', math: 'p90', math_property: 'load_time_ms' }], ...TREND_RANGE }) },
      // Stickiness and lifecycle bucket each event too (lifecycle also each person's created_at): New York's days around its DST change.
      { name: 'daily stickiness, America/New_York', timezone: 'America/New_York', analysis: 'trend', params: () => ({ events: [{ id: '$pageview' }], ...TREND_RANGE, shown_as: 'Stickiness' }) },
      { name: 'daily lifecycle, America/New_York', timezone: 'America/New_York', analysis: 'trend', params: () => ({ events: [{ id: '$pageview' }], ...TREND_RANGE, insight: 'LIFECYCLE' }) },
    ],
  },
  retention: {
    // 11 daily cohorts end 2024-12-31; weekly: 8 weeks; the floor reads the longer span.
    floor: groupByPersonFloor({ from: '2024-11-05T00:00:00.000000Z', to: ALL_DAYS.to }),
    // Issue 14's aims (issue 7 had 5x for each).
    aims: { duckdb: { 'daily, recurring': 2.5, 'daily, first time': 3, 'weekly, recurring, New York': 2.5, 'daily, recurring, by $browser': 2.5 } },
    queries: [
      { name: 'daily, recurring', analysis: 'retention', params: () => retentionParams('Day', 11, 'retention_recurring') },
      { name: 'daily, first time', analysis: 'retention', params: () => retentionParams('Day', 11, 'retention_first_time') },
      { name: 'weekly, recurring, New York', timezone: 'America/New_York', analysis: 'retention', params: () => retentionParams('Week', 8, 'retention_recurring') },
      { name: 'daily, recurring, by $browser', analysis: 'retention', params: () => ({ ...retentionParams('Day', 11, 'retention_recurring'), breakdown: '$browser', breakdown_type: 'event' }) },
    ],
  },
  paths: {
    floor: groupByPersonFloor({ from: '2024-12-02T00:00:00.000000Z', to: ALL_DAYS.to }),
    // Issue 14's aims (issue 7 had 5x).
    aims: { duckdb: { 'pageviews, 30 days': 10, 'all events, 30 days': 10, 'from a start point': 10, 'to an end point': 10 } },
    queries: [
      { name: 'pageviews, 30 days', analysis: 'paths', params: () => ({ ...PATHS_RANGE, include_event_types: ['$pageview'] }) },
      { name: 'all events, 30 days', analysis: 'paths', params: () => ({ ...PATHS_RANGE }) },
      { name: 'from a start point', analysis: 'paths', params: () => ({ ...PATHS_RANGE, include_event_types: ['$pageview'], start_point: 'https://app.example.com/pricing' }) },
      { name: 'to an end point', analysis: 'paths', params: () => ({ ...PATHS_RANGE, end_point: 'signup' }) },
    ],
  },
  correlation: {
    floor: groupByPersonFloor(ALL_DAYS),
    // Issue 14's aims.
    aims: { duckdb: { events: 8, 'person properties': 4 } },
    queries: [
      { name: 'events', analysis: 'funnelCorrelation', params: () => ({ ...funnelParams('ordered', FUNNEL_STEPS), funnel_correlation_type: 'events' }) },
      {
        name: 'person properties',
        analysis: 'funnelCorrelation',
        params: () => ({ ...funnelParams('ordered', FUNNEL_STEPS), funnel_correlation_type: 'properties', funnel_correlation_names: ['$browser', '$os', 'plan'] }),
      },
    ],
  },
}

const PATHS_RANGE = { date_from: '2024-12-02', date_to: '2024-12-31' }

function retentionParams(period, totalIntervals, retentionType) {
  return {
    target_entity: { id: '$pageview', type: 'events' },
    returning_entity: { id: '$pageview', type: 'events' },
    period,
    total_intervals: totalIntervals,
    retention_type: retentionType,
    date_to: '2024-12-31',
  }
}

/** Reduces an answer to a few numbers, so targets can be compared by eye in the report. */
export function summariseAnswer(analysis, result) {
  if (analysis === 'funnel') return result.map((s) => s.count)
  if (analysis === 'trend') {
    const total = result.reduce((a, s) => a + (s.data ?? []).reduce((x, y) => x + y, 0), 0)
    return { series: result.length, buckets: result[0]?.data?.length ?? 0, total: Math.round(total * 1000) / 1000 }
  }
  if (analysis === 'retention') return { rows: result.length, cohorts: result.reduce((a, r) => a + (r.values?.[0]?.count ?? 0), 0) }
  if (analysis === 'paths') return { links: result.length, weight: result.reduce((a, l) => a + l.value, 0) }
  if (analysis === 'funnelCorrelation') return { events: result.events?.length ?? 0, skewed: result.skewed }
  return null
}
