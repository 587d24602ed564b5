/**
 * Bad trend and persons parameters are a ValidationError naming the field
 * (HTTP 400), never a storage error. One target: validation happens before
 * any SQL runs, or on values the SQL never sees.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ValidationError, type TrendParams, type TrendPersonsParams } from '@sightline/core'
import { duckdbMemory } from '../targets/duckdb.js'
import { openTrendEngine, type TrendEngine } from './support/engine.js'
import { loadTrendData } from './support/load.js'

const NOW = new Date('2024-01-10T12:00:00Z')
let engine: TrendEngine
let projectId: number

beforeAll(async () => {
  engine = await openTrendEngine(duckdbMemory, () => NOW)
  projectId = await loadTrendData(engine, {
    project: { timezone: 'UTC', weekStartDay: 0, testAccountFilters: [] },
    now: NOW,
    persons: { u1: { id: 'p1', properties: {} } },
    events: [{ uuid: '00000000-0000-4000-8000-000000000001', event: '$pageview', distinct_id: 'u1', timestamp: '2024-01-09T10:00:00Z', properties: {} }],
  })
})
afterAll(async () => engine?.close())

async function refusal(run: () => Promise<unknown>): Promise<{ attr: string | null; message: string }> {
  const error = await run().then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ValidationError)
  return { attr: (error as ValidationError).attr, message: (error as ValidationError).message }
}

const pageview = [{ id: '$pageview' }]

describe('query.trend refuses', () => {
  it.each([
    ['an unknown math', { events: [{ id: 'a' }, { id: '$pageview', math: 'weekly_users' }] }, 'events__1__math', 'unknown math "weekly_users"'],
    ['a property math without math_property', { events: [{ id: '$pageview', math: 'p90' }] }, 'events__0__math_property', 'needs math_property'],
    ['unique_group without a group type', { events: [{ id: '$pageview', math: 'unique_group' }] }, 'events__0__math_group_type_index', 'math_group_type_index'],
    ['unique_group with group type 5', { actions: [], events: [{ id: '$pageview', math: 'unique_group', math_group_type_index: 5 }] }, 'events__0__math_group_type_index', 'between 0 and 4'],
    ['math hogql without math_hogql', { events: [{ id: '$pageview', math: 'hogql' }] }, 'events__0__math_hogql', 'needs math_hogql'],
    ['math_hogql that is not an aggregate', { events: [{ id: '$pageview', math: 'hogql', math_hogql: 'properties.x + 1' }] }, 'events__0__math_hogql', 'is not an aggregate'],
    ['math_hogql outside the HogQL subset', { events: [{ id: '$pageview', math: 'hogql', math_hogql: 'sum(sleep(3))' }] }, 'events__0__math_hogql', 'sleep'],
    ['math hogql in stickiness', { insight: 'STICKINESS', events: [{ id: '$pageview', math: 'hogql', math_hogql: 'count()' }] }, 'events__0__math', 'not supported in stickiness'],
    ['a HogQL breakdown outside the subset', { events: pageview, breakdown: 'sleep(1)', breakdown_type: 'hogql' }, 'breakdown', 'sleep'],
    ['an unknown interval', { events: pageview, interval: 'fortnight' }, 'interval', 'unknown interval "fortnight"'],
    ['a formula that does not parse', { events: pageview, formula: 'A +' }, 'formula', 'ends too early'],
    ['a formula naming a missing series', { events: pageview, formula: 'A / B' }, 'formula', 'references series B'],
    ['a formula calling a function', { events: pageview, formula: 'max(A)' }, 'formula', 'not MAX()'],
    ['an unreadable compare_to', { events: pageview, compare: true, compare_to: 'last week' }, 'compare_to', 'relative date'],
    ['an unreadable date_from', { events: pageview, date_from: 'yesterday-ish' }, 'date_from', 'cannot read'],
    ['no series at all', { events: [], actions: [] }, 'events', 'at least one event or action'],
    ['breakdown_limit 0', { events: pageview, breakdown: '$browser', breakdown_limit: 0 }, 'breakdown_limit', 'between 1 and'],
    ['an unknown breakdown type', { events: pageview, breakdown: '$browser', breakdown_type: 'planet' }, 'breakdown_type', 'unknown breakdown type'],
    ['a cohort breakdown naming no cohort of the project', { events: pageview, breakdown: ['all', 999], breakdown_type: 'cohort' }, 'breakdown__1', 'Cohort 999 does not exist'],
    ['smoothing below one interval', { events: pageview, smoothing_intervals: -2 }, 'smoothing_intervals', 'must be a positive integer'],
    ['an insight this endpoint does not answer', { events: pageview, insight: 'FUNNELS' }, 'insight', 'TRENDS, STICKINESS or LIFECYCLE'],
    ['events that are not a list', { events: '[{"id": ' }, 'events', 'not valid JSON'],
    ['a property filter with a bad operator', { events: pageview, properties: [{ key: 'x', value: 1, operator: 'near' }] }, 'properties__0__operator', ''],
    ['parameters that are not an object', ['$pageview'], null, 'JSON object'],
  ])('%s', async (_name, params, attr, message) => {
    const found = await refusal(() => engine.sightline.query.trend(projectId, params as TrendParams))
    expect(found.attr).toBe(attr)
    expect(found.message).toContain(message)
  })

  it('reads GET query text: JSON lists, booleans and integers as text', async () => {
    // Query text as an untyped caller (the HTTP adapter) passes it: the decoder reads it, not the compiler.
    const response = await engine.sightline.query.trend(projectId, {
      events: '[{"id": "$pageview", "math": "dau"}]',
      date_from: '2024-01-08',
      date_to: '2024-01-09',
      compare: 'false',
      breakdown: '$browser',
      breakdown_limit: '3',
    } as unknown as TrendParams)
    expect(response.result).toMatchObject([{ data: [0, 1], breakdown_value: '$$_posthog_breakdown_null_$$' }])
  })
})

describe('query.trendPersons refuses', () => {
  const base = { events: pageview, date_from: '2024-01-08', date_to: '2024-01-09' }
  it.each([
    ['a series index out of range', { ...base, entity_order: 3 }, 'entity_order', 'there are 1 series'],
    ['a target date outside the result', { ...base, entity_order: 0, target_date: '2024-02-01' }, 'target_date', 'not in the range'],
    ['an unreadable target date', { ...base, entity_order: 0, target_date: 'tuesday' }, 'target_date', 'cannot read'],
    ['a breakdown value without a breakdown', { ...base, breakdown_value: 'Chrome' }, 'breakdown_value', 'no breakdown'],
    ['the previous period without compare', { ...base, compare_label: 'previous' }, 'compare_label', 'needs compare'],
    ['a lifecycle point without its status', { ...base, insight: 'LIFECYCLE', target_date: '2024-01-08' }, 'lifecycle_type', 'lifecycle_type'],
    ['a stickiness point past the last day count', { ...base, insight: 'STICKINESS', stickiness_days: 3 }, 'stickiness_days', '1 to 2'],
    ['a multi-breakdown value of the wrong width', { ...base, breakdowns: [{ property: 'a' }, { property: 'b' }], breakdown_value: '["x"]' }, 'breakdown_value', 'list of 2 strings'],
  ])('%s', async (_name, params, attr, message) => {
    const found = await refusal(() => engine.sightline.query.trendPersons(projectId, params as TrendPersonsParams, { limit: 10, offset: 0 }))
    expect(found.attr).toBe(attr)
    expect(found.message).toContain(message)
  })

  it('a page out of bounds', async () => {
    expect((await refusal(() => engine.sightline.query.trendPersons(projectId, base, { limit: -1, offset: 0 }))).attr).toBe('limit')
    expect((await refusal(() => engine.sightline.query.trendPersons(projectId, base, { limit: 10, offset: 1.5 }))).attr).toBe('offset')
  })
})
