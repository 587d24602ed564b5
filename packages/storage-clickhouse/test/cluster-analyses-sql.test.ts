/**
 * Every analysis shape the shared suites run, through the engine on a
 * ClickHouse cluster that is a recording stand-in (recording-client.ts):
 * each statement the adapter would send to the cluster is checked for what
 * breaks on Distributed tables (`clusterSqlProblems`: IN and JOIN without
 * GLOBAL over a Distributed table or a temporary table in a query the
 * shards run, EXISTS and comma joins there, mutations of a Distributed
 * table). ClickHouse answers every read with no rows, so each shape sends
 * its first reads (the ones whose SQL does not depend on earlier answers);
 * the companion is an in-memory DuckDB (projects, cohorts and actions are
 * read from it). No ClickHouse runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSightline, type Sightline } from '@sightline/core'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { clickhouseStorage } from '@sightline/storage-clickhouse'
import { clusterSqlProblems } from '../src/dialect/cluster-sql-problems.js'
import { recordingClient, type Recorded } from './recording-client.js'

const PAGE = { limit: 10, offset: 0 }
const RANGE = { date_from: '2026-02-01', date_to: '2026-02-28' }
const step = (id: string, order: number, extra: object = {}) => ({ id, type: 'events', order, ...extra })
const STEPS = [step('$pageview', 0), step('signed_up', 1), step('purchased', 2)]
const FUNNEL = { ...RANGE, events: STEPS, funnel_window_days: 14 }

/** The shapes: a name, and how to run it on `s` (project `p`, cohort `c`, action `a`). */
type Shape = readonly [string, (s: Sightline, p: number, c: number, a: number) => Promise<unknown>]

const exclusion = { exclusions: [{ id: 'logged_out', type: 'events', funnel_from_step: 0, funnel_to_step: 1 }] }
const wholeExclusion = { exclusions: [{ id: 'logged_out', type: 'events', funnel_from_step: 0, funnel_to_step: 2 }] }
const SHAPES: ReadonlyArray<Shape> = [
  ...(['ordered', 'strict', 'unordered'] as const).flatMap((order): Shape[] => [
    [`funnel ${order}`, (s, p) => s.query.funnel(p, { ...FUNNEL, funnel_order_type: order })],
    // Unordered funnels take exclusions over all their steps only.
    [`funnel ${order} with an exclusion`, (s, p) => s.query.funnel(p, { ...FUNNEL, funnel_order_type: order, ...(order === 'unordered' ? wholeExclusion : exclusion) } as never)],
    [`funnel ${order} trends`, (s, p) => s.query.funnel(p, { ...FUNNEL, funnel_order_type: order, funnel_viz_type: 'trends', interval: 'day' })],
    [`funnel ${order} time to convert`, (s, p) => s.query.funnel(p, { ...FUNNEL, funnel_order_type: order, funnel_viz_type: 'time_to_convert' })],
    [`funnel ${order} persons at a step`, (s, p) => s.query.funnelPersons(p, { ...FUNNEL, funnel_order_type: order, funnel_step: 2 } as never, PAGE)],
    [`funnel ${order} persons dropping off`, (s, p) => s.query.funnelPersons(p, { ...FUNNEL, funnel_order_type: order, funnel_step: -2 } as never, PAGE)],
  ]),
  ...(['first_touch', 'last_touch', 'all_events', 'step'] as const).map(
    (attribution): Shape => [
      `funnel breakdown by an event property, ${attribution}`,
      (s, p) => s.query.funnel(p, { ...FUNNEL, breakdown: '$browser', breakdown_type: 'event', breakdown_attribution_type: attribution, breakdown_attribution_value: 1 } as never),
    ],
  ),
  ['funnel breakdown by a person property', (s, p) => s.query.funnel(p, { ...FUNNEL, breakdown: 'plan', breakdown_type: 'person' } as never)],
  ['funnel breakdown by a cohort', (s, p, c) => s.query.funnel(p, { ...FUNNEL, breakdown: [c], breakdown_type: 'cohort' } as never)],
  ['funnel breakdown persons', (s, p) => s.query.funnelPersons(p, { ...FUNNEL, breakdown: '$browser', breakdown_type: 'event', funnel_step: 1, funnel_step_breakdown: 'Chrome' } as never, PAGE)],
  ['funnel trends persons', (s, p) => s.query.funnelPersons(p, { ...FUNNEL, funnel_viz_type: 'trends', interval: 'day', entrance_period_start: '2026-02-03', drop_off: false } as never, PAGE)],
  ['funnel with an action step and a first-time step', (s, p, _c, a) => s.query.funnel(p, { ...RANGE, events: [{ id: a, type: 'actions', order: 0 }, step('signed_up', 1, { math: 'first_time_for_user' })] } as never)],
  ['funnel by a group', (s, p) => s.query.funnel(p, { ...FUNNEL, aggregation_group_type_index: 0 } as never)],
  ['funnel by a HogQL expression', (s, p) => s.query.funnel(p, { ...FUNNEL, funnel_aggregate_by_hogql: 'properties.$session_id' } as never)],
  ['funnel with cohort and person filters', (s, p, c) => s.query.funnel(p, { ...FUNNEL, properties: [{ type: 'cohort', key: 'id', value: c }, { type: 'person', key: 'plan', value: 'pro' }] } as never)],
  ['funnel correlation of events', (s, p) => s.query.funnelCorrelation(p, { ...FUNNEL, funnel_correlation_type: 'events' } as never)],
  ['funnel correlation of properties', (s, p) => s.query.funnelCorrelation(p, { ...FUNNEL, funnel_correlation_type: 'properties', funnel_correlation_names: ['$browser'] } as never)],
  ['funnel correlation of event properties', (s, p) => s.query.funnelCorrelation(p, { ...FUNNEL, funnel_correlation_type: 'event_with_properties', funnel_correlation_event_names: ['signed_up'] } as never)],
  [
    'funnel correlation persons',
    (s, p) => s.query.funnelCorrelationPersons(p, { ...FUNNEL, funnel_correlation_type: 'events', funnel_correlation_person_entity: { id: 'signed_up', type: 'events' }, funnel_correlation_person_converted: 'true' } as never, PAGE),
  ],
  ...(['total', 'dau', 'weekly_active', 'monthly_active', 'unique_session', 'first_time_for_user'] as const).map(
    (math): Shape => [`trend ${math}`, (s, p) => s.query.trend(p, { ...RANGE, interval: 'day', events: [{ id: '$pageview', type: 'events', math }] } as never)],
  ),
  ...(['sum', 'avg', 'median', 'p90', 'max'] as const).map(
    (math): Shape => [`trend ${math} of a property`, (s, p) => s.query.trend(p, { ...RANGE, events: [{ id: 'purchased', type: 'events', math, math_property: 'amount' }] } as never)],
  ),
  ['trend of a HogQL math', (s, p) => s.query.trend(p, { ...RANGE, events: [{ id: '$pageview', type: 'events', math: 'hogql', math_hogql: 'count(distinct properties.$browser)' }] } as never)],
  ['trend of unique groups', (s, p) => s.query.trend(p, { ...RANGE, events: [{ id: '$pageview', type: 'events', math: 'unique_group', math_group_type_index: 0 }] } as never)],
  ['trend breakdown by an event property', (s, p) => s.query.trend(p, { ...RANGE, events: [{ id: '$pageview', type: 'events', math: 'dau' }], breakdown: '$browser', breakdown_type: 'event' } as never)],
  ['trend breakdown by a person property', (s, p) => s.query.trend(p, { ...RANGE, events: [{ id: '$pageview', type: 'events' }], breakdown: 'plan', breakdown_type: 'person' } as never)],
  ['trend breakdown by a cohort', (s, p, c) => s.query.trend(p, { ...RANGE, events: [{ id: '$pageview', type: 'events' }], breakdown: [c, 'all'], breakdown_type: 'cohort' } as never)],
  ['trend histogram breakdown', (s, p) => s.query.trend(p, { ...RANGE, events: [{ id: 'purchased', type: 'events' }], breakdown: 'amount', breakdown_type: 'event', breakdown_histogram_bin_count: 4 } as never)],
  ['trend of an action with a formula, compared', (s, p, _c, a) => s.query.trend(p, { ...RANGE, events: [{ id: a, type: 'actions' }, { id: '$pageview', type: 'events' }], formula: 'A / B', compare: true } as never)],
  ['trend total value with filters', (s, p, c) => s.query.trend(p, { ...RANGE, display: 'ActionsPie', events: [{ id: '$pageview', type: 'events', math: 'dau' }], properties: [{ type: 'cohort', key: 'id', value: c }, { key: '$browser', value: 'Chrome' }] } as never)],
  ['trend persons', (s, p) => s.query.trendPersons(p, { ...RANGE, events: [{ id: '$pageview', type: 'events', math: 'dau' }], entity_id: '$pageview', entity_type: 'events', entity_math: 'dau' } as never, PAGE)],
  ['stickiness', (s, p) => s.query.trend(p, { ...RANGE, insight: 'STICKINESS', events: [{ id: '$pageview', type: 'events' }] } as never)],
  ['stickiness persons', (s, p) => s.query.trendPersons(p, { ...RANGE, insight: 'STICKINESS', events: [{ id: '$pageview', type: 'events' }], entity_id: '$pageview', entity_type: 'events', stickiness_days: 2 } as never, PAGE)],
  ['lifecycle', (s, p) => s.query.trend(p, { ...RANGE, insight: 'LIFECYCLE', interval: 'week', events: [{ id: '$pageview', type: 'events' }] } as never)],
  ['lifecycle persons', (s, p) => s.query.trendPersons(p, { ...RANGE, insight: 'LIFECYCLE', interval: 'week', events: [{ id: '$pageview', type: 'events' }], entity_id: '$pageview', entity_type: 'events', lifecycle_type: 'new', target_date: '2026-02-09' } as never, PAGE)],
  ...(['retention_recurring', 'retention_first_time', 'retention_first_ever_occurrence'] as const).map(
    (type): Shape => [`retention ${type}`, (s, p) => s.query.retention(p, { date_to: '2026-02-28', retention_type: type, target_entity: { id: 'signed_up', type: 'events' }, returning_entity: { id: '$pageview', type: 'events' }, total_intervals: 4, period: 'Week' } as never)],
  ),
  ['retention breakdown', (s, p) => s.query.retention(p, { date_to: '2026-02-28', target_entity: { id: 'signed_up', type: 'events' }, returning_entity: { id: '$pageview', type: 'events' }, breakdown: 'plan', breakdown_type: 'person' } as never)],
  ['retention persons', (s, p) => s.query.retentionPersons(p, { date_to: '2026-02-28', target_entity: { id: 'signed_up', type: 'events' }, returning_entity: { id: '$pageview', type: 'events' }, selected_interval: 1 } as never, PAGE)],
  ['paths', (s, p) => s.query.paths(p, { ...RANGE, include_event_types: ['$pageview'], step_limit: 4 } as never)],
  ['paths from a start point, custom events, HogQL', (s, p) => s.query.paths(p, { ...RANGE, include_event_types: ['custom_event', 'hogql'], paths_hogql_expression: 'event', start_point: 'signed_up' } as never)],
  ['paths to an end point', (s, p) => s.query.paths(p, { ...RANGE, include_event_types: ['$pageview'], end_point: '/checkout' } as never)],
  ...(['funnel_path_after_step', 'funnel_path_before_step', 'funnel_path_between_steps'] as const).map(
    (type): Shape => [`funnel paths ${type}`, (s, p) => s.query.paths(p, { ...RANGE, include_event_types: ['$pageview'], funnel_paths: type, funnel_filter: { ...FUNNEL, funnel_step: 2 } } as never)],
  ),
  ['path persons', (s, p) => s.query.pathPersons(p, { ...RANGE, include_event_types: ['$pageview'], path_end_key: '1_/home' } as never, PAGE)],
]

/** The cluster's tables as a shape's statements name them: `events` Distributed, the CTE tables its statements created temporary on this node. */
function tablesOf(statements: ReadonlyArray<Recorded>) {
  const initiator = new Set(statements.flatMap((r) => [...r.sql.matchAll(/\bsightline_cte_[0-9a-f]{32}_\w+/g)].map((m) => m[0])))
  return { distributed: new Set(['events']), initiator }
}

// The GLOBAL before an IN or JOIN (and its modifiers), as globalSubqueries writes it.
const GLOBAL = /\bglobal (?=(?:(?:any|all|asof|inner|left|right|full|cross|outer|semi|anti|not) )*(?:join|in)\b)/g

describe('analyses on a cluster: the statements sent have GLOBAL where a Distributed table is read again', () => {
  let sightline: Sightline
  let sent: Recorded[]
  const outcomes = new Map<string, { statements: Recorded[]; error: unknown }>()

  beforeAll(async () => {
    // A cohort's member count (its criteria read events, so it runs on ClickHouse) is read as one row: zero members.
    const recording = recordingClient((text) => (/^select \(count\(\*\) \+ toInt8\(0\)\) as "n" from "persons"/.test(text) ? { meta: [{ name: 'n', type: 'Int64' }], data: [['0']] } : undefined))
    sent = recording.sent
    sightline = await createSightline({ storage: clickhouseStorage({ client: recording.client, cluster: 'sl', companion: duckdbStorage() }), clock: () => new Date('2026-03-01T12:00:00Z') })
    const org = await sightline.organizations.create({ name: 'Acme' })
    const p = (await sightline.projects.create({ organizationId: org.id, name: 'Web', timezone: 'Europe/Berlin' })).id
    await sightline.groups.upsert(p, { groupTypeIndex: 0, groupType: 'company', groupKey: 'acme' })
    const c = (await sightline.cohorts.create(p, { filters: { properties: { type: 'OR', values: [{ type: 'AND', values: [{ type: 'behavioral', value: 'performed_event', key: 'signed_up', event_type: 'events', time_value: 30, time_interval: 'day' }] }] } } } as never)).id
    const a = (await sightline.actions.create(p, { name: 'Bought', steps: [{ event: 'purchased', properties: [{ key: 'amount', value: '10', operator: 'gt' }] }, { event: '$autocapture', selector: 'button.buy' }] } as never)).id
    for (const [name, run] of SHAPES) {
      const before = sent.length
      let error: unknown
      try {
        await run(sightline, p, c, a)
      } catch (e) {
        error = e
      }
      outcomes.set(name, { statements: sent.slice(before), error })
    }
  }, 60_000)
  afterAll(async () => {
    await sightline?.close()
  })

  it.each(SHAPES.map(([name]) => name))('%s', (name) => {
    const { statements, error } = outcomes.get(name)!
    expect(error === undefined ? [] : [String(error)], 'ran without an error').toEqual([])
    // A read, or a CTE table created from one (core's SQL names the table `events` as ClickHouse does).
    expect(statements.some((r) => r.kind !== 'insert' && /\bfrom events\b/.test(r.sql)), 'read events on ClickHouse').toBe(true)
    const tables = tablesOf(statements)
    const problems = statements.flatMap((r) => clusterSqlProblems(r.sql, tables))
    expect(problems).toEqual([])
  })

  it('would fail without the GLOBALs the adapter wrote: the shapes that read events again from a query the shards run', () => {
    const needing = new Set<string>()
    for (const [name, { statements }] of outcomes) {
      for (const r of statements) {
        if (r.kind === 'insert' || !/\bglobal\b/.test(r.sql)) continue
        if (clusterSqlProblems(r.sql.replace(GLOBAL, ''), tablesOf(statements)).length > 0) needing.add(name)
      }
    }
    // Strict funnels join events with each target's window of events; a behavioral cohort (filter or breakdown) reads
    // events in an IN; a first-time step reads each person's first event in an IN; funnel paths and correlation persons
    // join events with the funnel's people, a temporary table of this node.
    expect([...needing]).toEqual(
      expect.arrayContaining(['funnel strict', 'funnel breakdown by a cohort', 'funnel with cohort and person filters', 'funnel with an action step and a first-time step', 'funnel paths funnel_path_after_step', 'funnel correlation persons', 'trend breakdown by a cohort']),
    )
  })
})
