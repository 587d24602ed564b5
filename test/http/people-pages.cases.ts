import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ConformanceTarget } from '../conformance/target.js'
import { type Live, serve, walk } from './harness.js'

/** A GET query string: JSON values as their text, as PostHog's legacy GET endpoints take them. */
const queryOf = (params: Record<string, unknown>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString()

const RANGE = { date_from: '2026-01-14', date_to: '2026-01-14' }
const FUNNEL = { ...RANGE, events: [{ id: 'pp_signup', order: 0 }, { id: 'pp_buy', order: 1 }] }
const VIEWERS = ['pp-0', 'pp-1', 'pp-2', 'pp-3', 'pp-4']

/**
 * The page keys of PostHog's people endpoints (issue 20) over the network:
 * `cache_invalidation_key` (which PostHog's people URLs carry) accepted by
 * every people list and changing nothing; the correlation persons paged by
 * `funnel_correlation_person_limit` / `_offset`, their links setting those
 * keys; a limit of 0 read as the default page, as PostHog's `if not limit`.
 * Data: five persons sign up at 10:00 on the 14th and view at 10:05; pp-0,
 * pp-1 and pp-2 buy at 10:10.
 */
export function peoplePageCases(target: ConformanceTarget): void {
  describe("people lists: PostHog's page keys and cache_invalidation_key", () => {
    let live: Live
    let p: number
    beforeAll(async () => {
      live = await serve(target)
      p = live.a.project.id
      const at = (time: string) => `2026-01-14T${time}:00Z`
      const events = VIEWERS.flatMap((d, i) => [
        { event: 'pp_signup', distinctId: d, timestamp: at('10:00') },
        { event: 'pp_view', distinctId: d, timestamp: at('10:05') },
        ...(i < 3 ? [{ event: 'pp_buy', distinctId: d, timestamp: at('10:10') }] : []),
      ])
      await live.sightline.capture(p, events)
    }, 120_000)
    afterAll(() => live.close())

    const ids = (body: { results: Array<{ distinct_ids: string[] }> }) => body.results.map((r) => r.distinct_ids[0]).sort()

    test('every people list accepts cache_invalidation_key and answers as without it', async () => {
      const lists: Array<[string, Record<string, unknown>, string[]]> = [
        // Funnel step 1: all five signed up.
        ['funnel/', { ...FUNNEL, funnel_step: 1 }, VIEWERS],
        // Trend point of pp_buy on the 14th: pp-0, pp-1, pp-2.
        ['trends/', { ...RANGE, events: [{ id: 'pp_buy' }], entity_id: 'pp_buy', entity_type: 'events' }, VIEWERS.slice(0, 3)],
        // Retention cohort of the 14th (row 0 of a one-day table ending then): the five who signed up.
        ['retention/', { target_entity: { id: 'pp_signup', type: 'events' }, period: 'Day', total_intervals: 1, date_to: '2026-01-14', selected_interval: 0 }, VIEWERS],
        // Paths starting at pp_signup: everyone's first node.
        ['path/', { ...RANGE, include_event_types: ['custom_event'], path_start_key: '1_pp_signup' }, VIEWERS],
        // Converted and viewed between signing up and buying: pp-0, pp-1, pp-2.
        ['funnel/correlation/', { ...FUNNEL, funnel_correlation_person_entity: { id: 'pp_view', type: 'events' }, funnel_correlation_person_converted: 'true' }, VIEWERS.slice(0, 3)],
      ]
      for (const [path, params, who] of lists) {
        const plain = await live.call('GET', `/api/projects/${p}/persons/${path}?${queryOf(params)}`)
        expect(plain.status, `${path} ${JSON.stringify(plain.body)}`).toBe(200)
        expect(ids(plain.body), path).toEqual(who)
        const keyed = await live.call('GET', `/api/projects/${p}/persons/${path}?${queryOf(params)}&cache_invalidation_key=Ab3xYz9q`)
        expect(keyed.status, `${path} ${JSON.stringify(keyed.body)}`).toBe(200)
        expect({ ...keyed.body, next: null, previous: null }, path).toEqual({ ...plain.body, next: null, previous: null })
      }
      expect(live.serverErrors).toEqual([])
    })

    test('correlation persons page by funnel_correlation_person_limit and _offset, and their links set them', async () => {
      const base = `/api/projects/${p}/persons/funnel/correlation/?${queryOf({ ...FUNNEL, funnel_correlation_person_entity: { id: 'pp_view', type: 'events' } })}`
      // Both sides (converted absent): the five viewers, pages of 2 -> 2, 2, 1.
      const first = await live.call('GET', `${base}&funnel_correlation_person_limit=2`)
      expect([first.status, first.body.count, first.body.results.length]).toEqual([200, 5, 2])
      const next = new URL(first.body.next)
      expect([next.searchParams.get('funnel_correlation_person_limit'), next.searchParams.get('funnel_correlation_person_offset'), next.searchParams.get('limit')]).toEqual(['2', '2', null])
      const { results, pages, counts } = await walk(live, `${base}&funnel_correlation_person_limit=2`)
      expect([pages, [...new Set(counts)]]).toEqual([3, [5]])
      expect(results.map((r: { distinct_ids: string[] }) => r.distinct_ids[0]).sort()).toEqual(VIEWERS)
      // The offset alone: the default page from the 4th person on (5 - 3 = 2 left).
      const tail = await live.call('GET', `${base}&funnel_correlation_person_offset=3`)
      expect([tail.body.count, tail.body.results.length, tail.body.previous !== null]).toEqual([5, 2, true])
      // 0 is PostHog's "no limit given": the default page of 100 holds all five.
      const zero = await live.call('GET', `${base}&funnel_correlation_person_limit=0`)
      expect([zero.body.count, zero.body.results.length, zero.body.next]).toEqual([5, 5, null])
      // They win over limit and offset; without them limit and offset still page.
      const both = await live.call('GET', `${base}&funnel_correlation_person_limit=1&limit=4`)
      expect(both.body.results.length).toBe(1)
      expect((await live.call('GET', `${base}&limit=4`)).body.results.length).toBe(4)
      // A bad value names its key.
      for (const [query, attr] of [['funnel_correlation_person_limit=abc', 'funnel_correlation_person_limit'], ['funnel_correlation_person_limit=1001', 'funnel_correlation_person_limit'], ['funnel_correlation_person_offset=-1', 'funnel_correlation_person_offset']]) {
        const bad = await live.call('GET', `${base}&${query}`)
        expect([bad.status, bad.body.attr], query).toEqual([400, attr])
      }
    })

    test('funnel paths and their persons over GET, the funnel as JSON text', async () => {
      // Before step 2 (pp_buy at 10:10) of pp-0, pp-1, pp-2: signup 10:00, view 10:05, buy 10:10; 3 each, 300 s apart.
      const params = { ...RANGE, include_event_types: ['custom_event'], funnel_paths: 'funnel_path_before_step', funnel_filter: { ...FUNNEL, funnel_step: 2 } }
      const paths = await live.call('GET', `/api/projects/${p}/insights/path/?${queryOf(params)}`)
      expect(paths.body.result.map((e: { source: string; target: string; value: number }) => [e.source, e.target, e.value])).toEqual([
        ['1_pp_signup', '2_pp_view', 3],
        ['2_pp_view', '3_pp_buy', 3],
      ])
      const persons = await live.call('GET', `/api/projects/${p}/persons/path/?${queryOf({ ...params, path_end_key: '3_pp_buy' })}&cache_invalidation_key=k`)
      expect([persons.status, ids(persons.body)]).toEqual([200, VIEWERS.slice(0, 3)])
    })

    test('a limit of 0 is the default page on every people list', async () => {
      const zero = await live.call('GET', `/api/projects/${p}/persons/funnel/?${queryOf({ ...FUNNEL, funnel_step: 1 })}&limit=0`)
      expect([zero.status, zero.body.count, zero.body.results.length, zero.body.next]).toEqual([200, 5, 5, null])
      // Other lists keep DRF's rule: 0 is below the minimum.
      expect((await live.call('GET', `/api/projects/${p}/insights/?limit=0`)).status).toBe(400)
    })
  })
}
