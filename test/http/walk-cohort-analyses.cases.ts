import { describe, expect, test } from 'vitest'
import type { Walk } from './walk.cases.js'
import { personUuid, WALKERS, type Walker } from './walk-data.js'

/** A GET query string: JSON values as their text, as PostHog's legacy GET endpoints take them. */
const queryOf = (params: Record<string, unknown>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString()

/** The persons a people URL answers, as `{count, ids}` with ids sorted, every person checked against the walk. */
async function personsAt(w: Walk, url: string): Promise<{ count: number; who: Walker[] }> {
  const page = (await w.call('GET', url, 200)).body
  expect(page).toMatchObject({ next: null, previous: null })
  const who: Walker[] = []
  for (const person of page.results as Array<{ id: string; distinct_ids: string[] }>) {
    const walker = (Object.keys(WALKERS) as Walker[]).find((k) => WALKERS[k].distinctId === person.distinct_ids[0])
    expect(walker, JSON.stringify(person)).toBeDefined()
    expect(person.id).toBe(await personUuid(w.live, walker!))
    who.push(walker!)
  }
  return { count: page.count, who: who.sort() }
}

/**
 * Retention, paths and funnel correlation over the walk's six events
 * (walk-data.ts), every number derived by hand from them: u1 signs up on the
 * 13th at 09:00, pays at 10:00 and signs up again on the 14th at 08:00; u2
 * signs up on the 14th at 09:00 and pays at 11:00; u3 signs up on the 14th at
 * 10:00 and never pays.
 */
export function cohortAnalysisWalks(w: Walk): void {
  describe('retention, paths and funnel correlation', () => {
    const base = () => `/api/projects/${w.live.a.project.id}/insights`

    test('retention: GET and POST agree; cohorts and returns by hand; each cell’s people URL answers its persons', async () => {
      const params = {
        target_entity: { id: 'walk_signup', type: 'events' },
        returning_entity: { id: 'walk_signup', type: 'events' },
        period: 'Day',
        total_intervals: 3,
        date_to: '2026-01-14',
      }
      const post = (await w.call('POST', `${base()}/retention/`, 200, { body: params })).body
      const get = (await w.call('GET', `${base()}/retention/?${queryOf(params)}`, 200)).body
      expect(get).toEqual(post)
      expect(post).toMatchObject({ timezone: 'UTC', is_cached: false })
      // Rows: the three days ending with date_to's (reference §13.2). The 12th: nobody; the 13th: u1,
      // who signs up again on the 14th; the 14th: u1, u2 and u3, with no later day in the window.
      const rows = post.result as Array<{ label: string; date: string; values: Array<{ count: number; label: string; people_url: string }> }>
      expect(rows.map((r) => r.label)).toEqual(['Day 0', 'Day 1', 'Day 2'])
      expect(rows.map((r) => Date.parse(r.date))).toEqual(['2026-01-12', '2026-01-13', '2026-01-14'].map((d) => Date.parse(`${d}T00:00:00Z`)))
      expect(rows.map((r) => r.values.map((v) => v.count))).toEqual([
        [0, 0, 0],
        [1, 1, 0],
        [3, 0, 0],
      ])
      expect(rows[1]!.values.map((v) => v.label)).toEqual(['Day 0', 'Day 1', 'Day 2'])
      expect(await personsAt(w, rows[1]!.values[1]!.people_url)).toEqual({ count: 1, who: ['u1'] })
      expect(await personsAt(w, rows[2]!.values[0]!.people_url)).toEqual({ count: 3, who: ['u1', 'u2', 'u3'] })
      expect(await personsAt(w, rows[2]!.values[1]!.people_url)).toEqual({ count: 0, who: [] })
      // First time: u1's first signup is on the 13th, so the 14th's cohort is u2 and u3.
      const first = (await w.call('POST', `${base()}/retention/`, 200, { body: { ...params, retention_type: 'retention_first_time' } })).body
      expect(first.result.map((r: (typeof rows)[number]) => r.values.map((v) => v.count))).toEqual([
        [0, 0, 0],
        [1, 1, 0],
        [2, 0, 0],
      ])
    })

    test('paths: every walk session is one event (gaps of an hour and more split them), so there is no edge; the persons of a drop-off node answer', async () => {
      const params = { include_event_types: ['custom_event'], date_from: '2026-01-12', date_to: '2026-01-14' }
      const post = (await w.call('POST', `${base()}/path/`, 200, { body: params })).body
      expect(post).toMatchObject({ result: [], timezone: 'UTC', is_cached: false })
      expect((await w.call('GET', `${base()}/path/?${queryOf(params)}`, 200)).body.result).toEqual([])
      // Within 30 minutes of each other, two walk events would be an edge; a start key with no edge names nobody.
      const persons = `/api/projects/${w.live.a.project.id}/persons/path/`
      expect(await personsAt(w, `${persons}?${queryOf({ ...params, path_start_key: '1_walk_signup' })}`)).toEqual({ count: 0, who: [] })
    })

    test('funnel correlation: walk_plan by hand (pro: 2 converted, 0 dropped; free: 0 and 1), odds ratios with the prior, people URLs', async () => {
      const params = {
        events: [{ id: 'walk_signup', order: 0 }, { id: 'walk_paid', order: 1 }],
        date_from: '2026-01-12',
        date_to: '2026-01-14',
        funnel_correlation_type: 'properties',
        funnel_correlation_names: ['walk_plan'],
      }
      const post = (await w.call('POST', `${base()}/funnel/correlation/`, 200, { body: params })).body
      expect((await w.call('GET', `${base()}/funnel/correlation/?${queryOf(params)}`, 200)).body).toEqual(post)
      // Converted: u1, u2 (pro); dropped: u3 (free). S = 2, F = 1; odds = (s+1)(F-f+1) / ((S-s+1)(f+1)).
      // pro: 3·2 / (1·1) = 6; free: 1·1 / (3·2) = 1/6. 2/1 is not skewed (more than 10 times).
      expect(post.result.skewed).toBe(false)
      const rows = post.result.events as Array<Record<string, any>>
      expect(rows.map((r) => [r.event.event, r.success_count, r.failure_count, r.correlation_type])).toEqual([
        ['walk_plan::pro', 2, 0, 'success'],
        ['walk_plan::free', 0, 1, 'failure'],
      ])
      expect(rows[0]!.odds_ratio).toBeCloseTo(6, 10)
      expect(rows[1]!.odds_ratio).toBeCloseTo(1 / 6, 10)
      expect(await personsAt(w, rows[0]!.success_people_url)).toEqual({ count: 2, who: ['u1', 'u2'] })
      expect(await personsAt(w, rows[0]!.failure_people_url)).toEqual({ count: 0, who: [] })
      expect(await personsAt(w, rows[1]!.failure_people_url)).toEqual({ count: 1, who: ['u3'] })
    })
  })
}
