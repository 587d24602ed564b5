/**
 * The persons behind a path, by hand on PostHog's test_current_url_paths_and_logic
 * data: P1 `/ -> /about`, P2 `/ -> /pricing -> /about`, P3 `/pricing -> /`,
 * P4 `/ -> /pricing`, each one session.
 */
import { expect, test } from 'vitest'
import type { PathPersonsParams } from '@sightline/core'
import { EXAMPLES } from './examples.js'
import { actorKeysOf, type Opened } from './support.js'

const data = EXAMPLES[0]!.data

const CASES: ReadonlyArray<{ name: string; keys: Record<string, unknown>; persons: string[] }> = [
  { name: 'no key: every person with a path', keys: {}, persons: ['P1', 'P2', 'P3', 'P4'] },
  { name: 'path_start_key: a step out of 1_/', keys: { path_start_key: '1_/' }, persons: ['P1', 'P2', 'P4'] },
  { name: 'path_end_key: a step into 2_/pricing', keys: { path_end_key: '2_/pricing' }, persons: ['P2', 'P4'] },
  { name: 'both: the edge 1_/ -> 2_/about', keys: { path_start_key: '1_/', path_end_key: '2_/about' }, persons: ['P1'] },
  { name: 'path_dropoff_key: sessions ending at 2_/pricing', keys: { path_dropoff_key: '2_/pricing' }, persons: ['P4'] },
  { name: 'path_dropoff_key 3_/about', keys: { path_dropoff_key: '3_/about' }, persons: ['P2'] },
  { name: 'path_dropoff_key wins over the others', keys: { path_dropoff_key: '2_/', path_start_key: '1_/' }, persons: ['P3'] },
  { name: 'a key no path has', keys: { path_end_key: '9_/nowhere' }, persons: [] },
  { name: 'with the request filters: test accounts drop P1', keys: { path_start_key: '1_/', filter_test_accounts: true }, persons: ['P2', 'P4'] },
]

/** The persons cases on one target's engine, over `opened().basicProject` (the first example's data). */
export function actorCases(opened: () => Opened): void {
  test('persons by key', async () => {
    const { engine, basicProject } = opened()
    for (const c of CASES) {
      const page = await engine.sightline.query.pathPersons(basicProject, c.keys as PathPersonsParams, { limit: 100, offset: 0 })
      expect(page.results.map((a) => actorKeysOf(a.distinct_ids, data)).sort(), c.name).toEqual(c.persons)
      expect(page.count, c.name).toBe(c.persons.length)
    }
  })

  test('persons: most matching steps first, then pages', async () => {
    const { engine, basicProject } = opened()
    // Without a key every node matches: P2 has three, the others two.
    const all = await engine.sightline.query.pathPersons(basicProject, {} as PathPersonsParams, { limit: 100, offset: 0 })
    expect(actorKeysOf(all.results[0]!.distinct_ids, data)).toBe('P2')
    expect(all.results[0]!.distinct_ids).toEqual(['p2a', 'p2b'])
    const second = await engine.sightline.query.pathPersons(basicProject, {} as PathPersonsParams, { limit: 2, offset: 1 })
    expect(second.count).toBe(4)
    expect(second.results.map((a) => a.id)).toEqual(all.results.slice(1, 3).map((a) => a.id))
  })
}
