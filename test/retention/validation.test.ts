/**
 * Bad input is a ValidationError naming the field, before any SQL runs;
 * nothing crashes. The decoder cases need no database; the ones that read
 * the project (unknown actions, row out of range) run on DuckDB.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ValidationError, type RetentionParams, type RetentionPersonsParams } from '@sightline/core'
// The decoder's unit cases read the resolved request, which no public entry point returns.
import { decodeRetentionRequest } from '../../packages/core/src/query/retention/index.js'
import { targets } from '../filters/filter-db.js'
import { pageviews } from './examples-data.js'
import { loadInto, openRetentionEngine, type Clocked } from './support.js'

const pathOf = (f: () => unknown): unknown => {
  try {
    f()
  } catch (error) {
    if (error instanceof ValidationError) return error.issues[0]!.path
    throw error
  }
  return 'no error'
}

describe('decoding', () => {
  const cases: Array<[string, Record<string, unknown>, unknown[]]> = [
    ['unknown period', { period: 'fortnight' }, ['period']],
    ['unknown retention type', { retention_type: 'sometimes' }, ['retention_type']],
    ['total_intervals zero', { total_intervals: 0 }, ['total_intervals']],
    ['total_intervals not a number', { total_intervals: 'many' }, ['total_intervals']],
    ['total_intervals too large', { total_intervals: 1001 }, ['total_intervals']],
    ['target entity not JSON', { target_entity: '{id:' }, ['target_entity']],
    ['target entity a list', { target_entity: [] }, ['target_entity']],
    ['returning entity type', { returning_entity: { id: 'x', type: 'cohorts' } }, ['returning_entity', 'type']],
    ['action without id', { target_entity: { type: 'actions' } }, ['target_entity', 'id']],
    ['action id not an integer', { target_entity: { id: 'abc', type: 'actions' } }, ['target_entity', 'id']],
    ['entity property filters', { target_entity: { id: 'a', properties: [{ key: 'x', operator: 'nope', value: 1 }] } }, ['target_entity', 'properties', 0, 'operator']],
    ['global property filters', { properties: [{ key: 'x', operator: 'nope', value: 1 }] }, ['properties', 0, 'operator']],
    ['group index out of range', { aggregation_group_type_index: 5 }, ['aggregation_group_type_index']],
    ['minimum_occurrences zero', { minimum_occurrences: 0 }, ['minimum_occurrences']],
    ['cumulative not a boolean', { cumulative: 'sometimes' }, ['cumulative']],
    ['breakdown_limit zero', { breakdown: '$browser', breakdown_limit: 0 }, ['breakdown_limit']],
    ['unknown breakdown type', { breakdown: 'x', breakdown_type: 'weather' }, ['breakdown_type']],
    ['two breakdowns', { breakdowns: [{ property: 'a' }, { property: 'b' }] }, ['breakdowns']],
    ['histogram bins', { breakdown: 'amount', breakdown_histogram_bin_count: 5 }, ['breakdown_histogram_bin_count']],
    ['group breakdown without its type', { breakdown: 'size', breakdown_type: 'group' }, ['breakdown_group_type_index']],
    ['params not an object', 'period=Day' as never, []],
  ]
  for (const [name, params, path] of cases) test(name, () => expect(pathOf(() => decodeRetentionRequest(params))).toEqual(path))

  test('defaults: $pageview both ways, recurring, Day, 11 intervals', () => {
    const r = decodeRetentionRequest({})
    expect([r.target.event, r.returning.event, r.retentionType, r.period, r.totalIntervals, r.cumulative]).toEqual(['$pageview', '$pageview', 'retention_recurring', 'day', 11, false])
  })

  test('GET text: numbers, booleans and entities as text', () => {
    const r = decodeRetentionRequest({ total_intervals: '5', cumulative: 'true', period: 'MONTH', target_entity: '{"id":"a","type":"events"}', aggregation_group_type_index: '2' })
    expect([r.totalIntervals, r.cumulative, r.period, r.target.event, r.groupTypeIndex]).toEqual([5, true, 'month', 'a', 2])
  })
})

describe(targets[0]!.name, () => {
  let state: Clocked
  let projectId: number
  beforeAll(async () => {
    state = await openRetentionEngine(targets[0]!)
    projectId = await loadInto(state, pageviews)
  })
  afterAll(async () => state?.engine.close())

  const retention = (params: unknown) => state.engine.sightline.query.retention(projectId, params as RetentionParams)
  const persons = (params: unknown, page = { limit: 10, offset: 0 }) => state.engine.sightline.query.retentionPersons(projectId, params as RetentionPersonsParams, page)
  const rejects = async (p: Promise<unknown>): Promise<unknown> => {
    try {
      await p
    } catch (error) {
      if (error instanceof ValidationError) return error.issues[0]!.path
      throw error
    }
    return 'no error'
  }

  test('an unknown action', async () => {
    expect(await rejects(retention({ returning_entity: { id: 999, type: 'actions' } }))).toEqual(['returning_entity', 'id'])
  })
  test('an unreadable date_to', async () => {
    expect(await rejects(retention({ date_to: 'yesterday-ish' }))).toEqual(['date_to'])
  })
  test('an unknown cohort in a breakdown', async () => {
    expect(await rejects(retention({ breakdown: [424242], breakdown_type: 'cohort' }))).toEqual(['breakdown'])
  })
  test('hourly periods since the first event are too many rows', async () => {
    expect(await rejects(retention({ date_from: '2020-01-01', period: 'Hour' }))).toEqual(['date_from'])
  })
  test('date_from after date_to is an empty table', async () => {
    expect((await retention({ date_from: '2024-01-12', date_to: '2024-01-10' })).result).toEqual([])
  })
  test('persons: selected_interval is needed and must be a row', async () => {
    expect(await rejects(persons({ date_to: '2024-01-10' }))).toEqual(['selected_interval'])
    expect(await rejects(persons({ date_to: '2024-01-10', total_intervals: 4, selected_interval: 4 }))).toEqual(['selected_interval'])
    expect(await rejects(persons({ date_to: '2024-01-10', total_intervals: 4, selected_interval: 0, return_interval: 4 }))).toEqual(['return_interval'])
    expect(await rejects(persons({ date_to: '2024-01-10', selected_interval: -1 }))).toEqual(['selected_interval'])
    expect(await rejects(persons({ selected_interval: 0, breakdown: 'plan', breakdown_type: 'person' }))).toEqual(['breakdown_value'])
    expect(await rejects(persons({ selected_interval: 0 }, { limit: -1, offset: 0 }))).toEqual(['limit'])
  })
})
