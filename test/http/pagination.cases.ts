import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ConformanceTarget } from '../conformance/target.js'
import { type Live, serve, walk } from './harness.js'

/**
 * Every list walked through its `next` links over the network: each record
 * once, in the order of one big page, with the same count on every page,
 * other query parameters kept; and the CSV rendering of the insight endpoints.
 */
export function paginationCases(target: ConformanceTarget): void {
  describe('pagination walks and CSV', () => {
    let live: Live

    beforeAll(async () => {
      live = await serve(target)
      const { a, sightline } = live
      for (let i = 0; i < 6; i++) await sightline.projects.create({ organizationId: a.org.id, name: `Project ${i}` })
      await sightline.capture(a.project.id, Array.from({ length: 23 }, (_, i) => ({ event: `event_${String(i).padStart(2, '0')}`, distinctId: 'u' })))
      for (let i = 0; i < 9; i++) await sightline.plugins.create(a.org.id, { name: `Plugin ${i}` })
      for (let i = 0; i < 13; i++) await sightline.insights.create(a.project.id, { name: `Insight ${i}`, tags: i % 2 ? ['odd'] : [] }, { userId: a.user.id })
      const [first] = (await sightline.insights.list(a.project.id, { limit: 1 })).results
      for (let i = 0; i < 11; i++) await sightline.insights.update(a.project.id, first!.id, { description: `edit ${i}` }, { userId: a.user.id })
    }, 120_000)
    afterAll(() => live.close())

    /** The whole list in one page, for comparison. */
    const whole = async (path: string) => (await live.call('GET', `${path}${path.includes('?') ? '&' : '?'}limit=1000`)).body

    test('lists in the envelope: every record once, in order, whatever the page size', async () => {
      const p = live.a.project.id
      for (const [path, sizes] of [
        ['/api/projects/', [1, 2, 7]],
        ['/api/organizations/', [1]],
        [`/api/projects/${p}/event_definitions/`, [1, 5, 23, 50]],
        [`/api/projects/${p}/event_definitions/?search=event_1`, [3]],
        [`/api/organizations/${live.a.org.id}/plugins/`, [2, 4, 9]],
        [`/api/projects/${p}/insights/`, [1, 5, 13]],
        [`/api/projects/${p}/insights/?search=odd`, [2]],
      ] as const) {
        const all = await whole(path)
        expect(all.results.length, path).toBe(all.count)
        for (const limit of sizes) {
          const { results, pages, counts } = await walk(live, `${path}${path.includes('?') ? '&' : '?'}limit=${limit}`)
          expect(results, `${path} limit=${limit}`).toEqual(all.results)
          expect(pages).toBe(Math.max(1, Math.ceil(all.count / limit)))
          expect(new Set(counts)).toEqual(new Set([all.count]))
        }
      }
      expect((await whole(`/api/projects/${p}/insights/?search=odd`)).count).toBe(6)
      // Walking backwards through `previous` gives the same pages.
      const last = await live.call('GET', `/api/projects/${p}/event_definitions/?limit=10&offset=20`)
      const middle = await live.call('GET', last.body.previous)
      const first = await live.call('GET', middle.body.previous)
      expect(first.body.previous).toBeNull()
      expect([...first.body.results, ...middle.body.results, ...last.body.results]).toEqual((await whole(`/api/projects/${p}/event_definitions/`)).results)
      const past = await live.call('GET', `/api/projects/${p}/insights/?limit=5&offset=100`)
      expect(past.body).toMatchObject({ count: 13, next: null, results: [] })
    })

    test('activity logs: PostHog’s envelope paged by `page`, walked through `next`', async () => {
      const { a } = live
      const [first] = (await live.sightline.insights.list(a.project.id, { limit: 1 })).results
      for (const path of [`/api/organizations/${a.org.id}/plugins/activity/`, `/api/projects/${a.project.id}/insights/activity/`, `/api/projects/${a.project.id}/insights/${first!.id}/activity/`]) {
        const all = await whole(path)
        expect(all.results.length, path).toBe(all.total_count)
        for (const limit of [1, 4, 10]) {
          const { results, counts } = await walk(live, `${path}?limit=${limit}`)
          expect(results, `${path} limit=${limit}`).toEqual(all.results)
          expect(new Set(counts)).toEqual(new Set([all.total_count]))
        }
        // The default page is PostHog's 10.
        expect((await live.call('GET', path)).body.results).toHaveLength(Math.min(10, all.total_count))
      }
    })

    test('another tenant walking the same lists sees only its own', async () => {
      const { results } = await walk(live, '/api/projects/?limit=1', live.b.key)
      expect(results.map((r) => r.name)).toEqual(['Bravo Web'])
      const missing = await live.call('GET', `/api/projects/${live.a.project.id}/insights/?limit=2`, { key: live.b.key })
      expect(missing.status).toBe(404)
    })

    test('?format=csv on the insight endpoints: PostHog’s CSV, over the network', async () => {
      const base = `/api/projects/${live.a.project.id}/insights`
      const insight = (await live.call('POST', `${base}/`, { body: { name: 'Export, "quoted"', filters: { events: [{ id: 'a' }] }, tags: ['x'] } })).body
      const csv = async (method: string, path: string, status = 200, body?: unknown) => {
        const r = await live.call(method, `${base}${path}${path.includes('?') ? '&' : '?'}format=csv`, { body })
        expect(r.status, `${method} ${path}`).toBe(status)
        expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8')
        return r.text
      }
      // force_cache: nothing is computed, so the row holds the stored insight as before (results have their own cases).
      const one = await csv('GET', `/${insight.id}/?refresh=force_cache`)
      const [header, row, rest] = one.split('\r\n')
      expect(header).toBe(
        [
          'created_at', 'created_by.distinct_id', 'created_by.email', 'created_by.first_name', 'created_by.id', 'created_by.is_email_verified',
          'created_by.uuid', 'deleted', 'derived_name', 'description', 'effective_privilege_level', 'effective_restriction_level', 'favorited',
          'filters.events.0.id', 'id', 'is_cached', 'is_sample', 'last_modified_at', 'last_modified_by.distinct_id', 'last_modified_by.email',
          'last_modified_by.first_name', 'last_modified_by.id', 'last_modified_by.is_email_verified', 'last_modified_by.uuid', 'last_refresh', 'name',
          'next_allowed_client_refresh', 'order', 'query', 'result', 'saved', 'short_id', 'tags.0', 'timezone', 'updated_at',
        ].join(','),
      )
      expect(row).toContain(`,"Export, ""quoted""",`)
      expect(row).toContain(`,${insight.short_id},x,UTC,`)
      expect(rest).toBe('')
      expect(await csv('GET', `/?short_id=${insight.short_id}`)).toBe(one)
      expect(await csv('PATCH', `/${insight.id}/`, 200, { tags: ['x'] })).toBe(one)
      expect(await csv('POST', `/${insight.id}/viewed/`)).toBe(one)
      expect((await csv('GET', '/my_last_viewed/')).split('\r\n')[1]).toBe(row)
      expect((await csv('GET', `/${insight.id}/activity/`)).split('\r\n')[0]).toBe('activity,created_at,detail.name,detail.short_id,detail.trigger,item_id,scope,user.email,user.first_name')
      expect((await csv('GET', '/activity/?limit=2')).split('\r\n')).toHaveLength(4)
      expect(await csv('POST', '/', 201, { name: 'Made as CSV' })).toContain('Made as CSV')
      // The refusal stays bodiless; other resources and formats are not offered.
      const refused = await live.call('DELETE', `${base}/${insight.id}/?format=csv`)
      expect([refused.status, refused.text]).toEqual([405, ''])
      expect((await live.call('GET', `${base}/?format=xml`)).status).toBe(404)
      expect((await live.call('GET', `/api/projects/?format=csv`)).status).toBe(404)
    })
  })
}
