/**
 * People URLs and the actors behind them: every row's and value's link
 * names the row (and value) it came from, and the actors it answers are
 * as many as the count it sits on, and the persons counted by hand.
 * Actions and cohort breakdowns, which need stored definitions, are here too.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { RetentionPersonsParams } from '@sightline/core'
import { propertyTargets, describePropertySkip } from '../filters/filter-db.js'
import { referenceRetention } from '../reference/retention/retention-reference.js'
import { browserSwitch, companies, dataset, ev, pageviews, purchases } from './examples-data.js'
import { loadInto, openRetentionEngine, shown, type Clocked } from './support.js'

const window4 = { date_to: '2024-01-10', total_intervals: 4 }
const PAGE = { limit: 100, offset: 0 }

/** The query of a people URL as the http-adapter will pass it (JSON text becomes values): read from text, so the decoder checks it, not the compiler. */
function paramsOf(url: string): RetentionPersonsParams {
  const [path, query] = url.split('?')
  expect(path).toMatch(/^\/api\/projects\/\d+\/persons\/retention\/$/)
  const out: Record<string, unknown> = {}
  for (const [k, v] of new URLSearchParams(query)) {
    try {
      out[k] = k === 'date_to' || k === 'date_from' ? v : JSON.parse(v)
    } catch {
      out[k] = v
    }
  }
  return out as unknown as RetentionPersonsParams
}

describePropertySkip()

for (const target of propertyTargets) {
  describe(target.name, () => {
    let state: Clocked
    beforeAll(async () => {
      state = await openRetentionEngine(target)
    })
    afterAll(async () => state?.engine.close())

    test('people URLs carry the request and the row and value', async () => {
      const projectId = await loadInto(state, pageviews)
      const { result } = await state.engine.sightline.query.retention(projectId, window4)
      const row = paramsOf(result[1]!.people_url)
      expect(row).toEqual({ date_to: '2024-01-10', total_intervals: 4, selected_interval: 1 })
      expect(paramsOf(result[1]!.values[2]!.people_url)).toEqual({ date_to: '2024-01-10', total_intervals: 4, selected_interval: 1, return_interval: 2 })
    })

    test('every row and value link answers its count of actors', async () => {
      const projectId = await loadInto(state, pageviews)
      // Plain requests get the same check in the reference property; these two add the cumulative and Other readings.
      for (const params of [{ ...window4, cumulative: true }, { ...window4, breakdown: 'plan', breakdown_type: 'person' as const, breakdown_limit: 1 }]) {
        const { result } = await state.engine.sightline.query.retention(projectId, params)
        for (const row of result) {
          expect((await state.engine.sightline.query.retentionPersons(projectId, paramsOf(row.people_url), PAGE)).count).toBe(row.values[0]!.count)
          for (const value of row.values) {
            const actors = await state.engine.sightline.query.retentionPersons(projectId, paramsOf(value.people_url), PAGE)
            expect(actors.count, `${JSON.stringify(params)} ${row.label} ${value.label}`).toBe(value.count)
          }
        }
      }
    })

    test('the actors of a row are its persons, most appearances first', async () => {
      const projectId = await loadInto(state, pageviews)
      const person = async (distinctId: string) => (await state.engine.sightline.persons.get(projectId, distinctId))!.uuid
      // Row 0 (the 7th): p1 appears at k 0, 1, 3 and p2 at k 0, 2: p1 first.
      const row0 = await state.engine.sightline.query.retentionPersons(projectId, { ...window4, selected_interval: 0 }, PAGE)
      expect(row0.results.map((a) => a.id)).toEqual([await person('d1'), await person('d2')])
      expect(row0.results[0]!.distinct_ids).toEqual(['d1', 'd1b'])
      // Row 3 (the 10th): p1 and d4 (capture gave d4 a person of its own).
      const row3 = await state.engine.sightline.query.retentionPersons(projectId, { ...window4, selected_interval: 3 }, PAGE)
      expect(row3.results.map((a) => a.id).sort()).toEqual([await person('d1'), await person('d4')].sort())
      // Row 1 at k 2 (the 10th): p1 only; paging past it leaves none but keeps the count.
      const cell = await state.engine.sightline.query.retentionPersons(projectId, { ...window4, selected_interval: 1, return_interval: 2 }, { limit: 1, offset: 1 })
      expect(cell).toEqual({ results: [], count: 1 })
    })

    test('group actors are groups', async () => {
      const projectId = await loadInto(state, companies)
      const actors = await state.engine.sightline.query.retentionPersons(projectId, { ...window4, aggregation_group_type_index: 0, selected_interval: 0 }, PAGE)
      expect(actors.results.map((a) => [a.id, a.properties])).toEqual([['acme', { size: 'big' }]])
    })

    test('action entities', async () => {
      const projectId = await loadInto(state, purchases)
      const action = await state.engine.sightline.actions.create(projectId, { name: 'Bought', steps: [{ event: 'buy' }] })
      const params = { ...window4, target_entity: { id: 'signup' }, returning_entity: { id: action.id, type: 'actions' } }
      // The same as returning_entity buy (examples.ts, 'target and returning entities differ').
      const expected = [
        [null, [1, 0, 1, 0]],
        [null, [1, 0, 1, 0]],
        [null, [1, 1, 0, 0]],
        [null, [1, 0, 0, 0]],
      ]
      expect(shown((await state.engine.sightline.query.retention(projectId, params)).result)).toEqual(expected)
      const ref = await referenceRetention(params, { ...purchases, actionMatches: (id, e) => id === action.id && e.event === 'buy' })
      expect(shown(ref)).toEqual(expected)
    })

    test('cohort breakdown: one block per cohort, "all" as 0, ranked by size', async () => {
      const projectId = await loadInto(state, pageviews)
      const cohort = await state.engine.sightline.cohorts.create(projectId, { name: 'c', isStatic: true, distinctIds: ['d1', 'd3'] })
      const params = { ...window4, breakdown: [cohort.id, 'all'], breakdown_type: 'cohort' as const }
      // All: the first example (cohorts 7); the cohort {p1, p3}: 4.
      const expected = [
        ['0', [2, 1, 1, 1]],
        ['0', [2, 0, 1, 0]],
        ['0', [1, 0, 0, 0]],
        ['0', [2, 0, 0, 0]],
        [String(cohort.id), [1, 1, 0, 1]],
        [String(cohort.id), [2, 0, 1, 0]],
        [String(cohort.id), [0, 0, 0, 0]],
        [String(cohort.id), [1, 0, 0, 0]],
      ]
      const { result } = await state.engine.sightline.query.retention(projectId, params)
      expect(shown(result)).toEqual(expected)
      const members = await state.engine.sightline.cohorts.persons(projectId, cohort.id)
      const ref = await referenceRetention(params, { ...pageviews, cohortMembers: { [cohort.id]: new Set(['p1', 'p3']) } })
      expect(shown(ref)).toEqual(expected)
      expect(members.count).toBe(2)
      const actors = await state.engine.sightline.query.retentionPersons(projectId, paramsOf(result[5]!.people_url), PAGE)
      expect(actors.count).toBe(2)
    })

    test('Other lists an actor once per merged value, as its summed count counts it', async () => {
      // p1 on Sunday 7 January with Chrome, Firefox and Safari: one week, three values.
      const threeBrowsers = dataset([
        ev('$pageview', 'd1', '2024-01-07T10:00:00Z', { $browser: 'Chrome' }),
        ev('$pageview', 'd1', '2024-01-07T11:00:00Z', { $browser: 'Firefox' }),
        ev('$pageview', 'd1', '2024-01-07T12:00:00Z', { $browser: 'Safari' }),
      ])
      const projectId = await loadInto(state, threeBrowsers)
      // Each value's cohort holds p1 (1); ties rank by value, so Chrome is kept and Other sums Firefox and Safari: 2.
      const { result } = await state.engine.sightline.query.retention(projectId, { period: 'Week', date_to: '2024-01-13', total_intervals: 1, breakdown: '$browser', breakdown_limit: 1 })
      expect(shown(result)).toEqual([
        ['Chrome', [1]],
        ['$$_posthog_breakdown_other_$$', [2]],
      ])
      const other = await state.engine.sightline.query.retentionPersons(projectId, paramsOf(result[1]!.values[0]!.people_url), PAGE)
      expect(other.count).toBe(2)
      // The same person (p1, whose distinct ids are d1 and d1b in these datasets) twice.
      expect(other.results).toHaveLength(2)
      expect(other.results[0]!.id).toBe(other.results[1]!.id)
      expect(other.results[0]!.distinct_ids).toContain('d1')
    })

    test('HogQL breakdown: the expression per event', async () => {
      const projectId = await loadInto(state, browserSwitch)
      // As the event breakdown on $browser (examples.ts): Chrome on the 7th, Safari on the 8th, no return.
      const { result } = await state.engine.sightline.query.retention(projectId, { date_to: '2024-01-08', total_intervals: 2, breakdown: 'lower(properties.$browser)', breakdown_type: 'hogql' })
      expect(shown(result)).toEqual([
        ['chrome', [1, 0]],
        ['chrome', [0, 0]],
        ['safari', [0, 0]],
        ['safari', [1, 0]],
      ])
    })
  })
}
