import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { BASE, json, type World, world, walk } from './fixture.js'

let w: World
beforeAll(async () => {
  w = await world()
})
afterAll(() => w.close())

const base = () => `/api/projects/${w.project.id}/insights`
const STAMP = '2026-01-15T12:00:00.000000Z'

/** Interface 2.3, exactly. */
const INSIGHT_FIELDS = [
  'created_at', 'created_by', 'dashboard_tiles', 'dashboards', 'deleted', 'derived_name', 'description', 'effective_privilege_level',
  'effective_restriction_level', 'favorited', 'filters', 'id', 'is_cached', 'is_sample', 'last_modified_at', 'last_modified_by',
  'last_refresh', 'name', 'next_allowed_client_refresh', 'order', 'query', 'result', 'saved', 'short_id', 'tags', 'timezone', 'updated_at',
]

const ada = () => ({
  id: w.user.id,
  uuid: w.user.uuid,
  distinct_id: w.user.distinctId,
  first_name: 'Ada',
  email: 'ada@acme.test',
  is_email_verified: false,
})

async function create(body: Record<string, unknown>, key = w.key): Promise<any> {
  const r = await w.call('POST', `${base()}/`, { body, key })
  expect(r.status, await r.clone().text()).toBe(201)
  return json(r)
}

describe('create (POST)', () => {
  test('201 with interface 2.3’s fields exactly; made and last modified by the caller', async () => {
    const created = await create({
      name: 'Signups',
      filters: { events: [{ id: 'signed_up', math: 'total' }], insight: 'TRENDS' },
      query: { kind: 'InsightVizNode', source: { kind: 'TrendsQuery', series: [] } },
      tags: [' Growth ', 'growth', 'Core'],
      description: 'Weekly signups',
      order: 3,
      favorited: true,
      id: 999,
      short_id: 'mine',
      is_sample: true,
      result: [1, 2, 3],
      is_cached: true,
    })
    expect(Object.keys(created).sort()).toEqual(INSIGHT_FIELDS)
    expect(created).toEqual({
      id: expect.any(Number),
      short_id: expect.stringMatching(/^[A-Za-z0-9]{8}$/),
      name: 'Signups',
      derived_name: null,
      filters: { events: [{ id: 'signed_up', math: 'total' }], insight: 'TRENDS' },
      query: { kind: 'InsightVizNode', source: { kind: 'TrendsQuery', series: [] } },
      order: 3,
      deleted: false,
      dashboards: [],
      dashboard_tiles: [],
      last_refresh: null,
      next_allowed_client_refresh: null,
      result: null,
      created_at: STAMP,
      created_by: ada(),
      description: 'Weekly signups',
      updated_at: STAMP,
      tags: ['growth', 'core'],
      favorited: true,
      saved: true,
      last_modified_at: STAMP,
      last_modified_by: ada(),
      is_sample: false,
      effective_restriction_level: 21,
      effective_privilege_level: 37,
      timezone: 'UTC',
      is_cached: false,
    })
    expect(created.id).not.toBe(999)
    expect(created.short_id).not.toBe('mine')
  })

  test('`query` may be sent as its JSON text (how the interface describes it in requests)', async () => {
    const created = await create({ name: 'Text query', query: '{"kind":"TrendsQuery","series":[]}' })
    expect(created.query).toEqual({ kind: 'TrendsQuery', series: [] })
    const cleared = await json(await w.call('PATCH', `${base()}/${created.id}/`, { body: { query: null } }))
    expect(cleared.query).toBeNull()
  })

  test('validation errors name the field', async () => {
    const dashboard = await w.sightline.dashboards.create(w.otherProject.id, { name: 'Theirs' })
    for (const [body, attr] of [
      [{ name: 'x'.repeat(401) }, 'name'],
      [{ derived_name: 5 }, 'derived_name'],
      [{ filters: [1] }, 'filters'],
      [{ filters: 'events' }, 'filters'],
      [{ query: '{not json' }, 'query'],
      [{ query: '[1]' }, 'query'],
      [{ query: 5 }, 'query'],
      [{ query: '{"a":"\\u0000"}' }, 'query__a'],
      [{ order: 2 ** 31 }, 'order'],
      [{ order: 1.5 }, 'order'],
      [{ deleted: 'yes' }, 'deleted'],
      [{ dashboards: [999999] }, 'dashboards'],
      [{ dashboards: [dashboard.id] }, 'dashboards'],
      [{ tags: ['ok', '  '] }, 'tags__1'],
      [{ tags: 'growth' }, 'tags'],
      [{ description: 'x'.repeat(401) }, 'description'],
      [{ favorited: null }, 'favorited'],
      [{ saved: 1 }, 'saved'],
    ] as const) {
      const r = await w.call('POST', `${base()}/`, { body })
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(await json(r), JSON.stringify(body)).toMatchObject({ type: 'validation_error', attr })
    }
    expect(await json(await w.call('POST', `${base()}/`, { body: [] }))).toMatchObject({ type: 'validation_error', attr: null })
  })
})

describe('list', () => {
  let mine: any[] = []
  let bob: { key: string; id: number }
  beforeAll(async () => {
    const user = await w.sightline.users.create({ email: 'bob@acme.test', firstName: 'Bob', organizationIds: [w.org.id] })
    bob = { key: (await w.sightline.personalApiKeys.create({ userId: user.id, label: 'bob' })).key, id: user.id }
    mine = []
    for (const [i, extra] of [{ saved: false }, { favorited: true }, { tags: ['Retention'] }, { description: 'about 100% of churn' }, {}].entries()) {
      mine.push(await create({ name: `List ${i}`, ...extra }))
    }
    await create({ name: 'By Bob' }, bob.key)
  })

  test('the envelope, paged by limit and offset, walked through `next`', async () => {
    const all = await json(await w.call('GET', `${base()}/`))
    expect(all).toMatchObject({ next: null, previous: null })
    expect(all.count).toBe(all.results.length)
    for (const r of all.results) expect(Object.keys(r).sort()).toEqual(INSIGHT_FIELDS)
    const { results, pages } = await walk(w, `${base()}/?limit=2`)
    expect(results).toEqual(all.results)
    expect(pages).toBe(Math.ceil(all.count / 2))
  })

  test('created_by, short_id, saved, favorited and search filter; bad values are 400s naming them', async () => {
    const names = async (query: string) => (await json(await w.call('GET', `${base()}/?${query}`))).results.map((i: { name: string }) => i.name)
    expect(await names(`created_by=${bob.id}`)).toEqual(['By Bob'])
    expect(await names(`created_by=${encodeURIComponent(JSON.stringify([bob.id]))}`)).toEqual(['By Bob'])
    expect(await names(`short_id=${mine[2].short_id}`)).toEqual(['List 2'])
    expect(await names('short_id=nothing%00')).toEqual([])
    expect(await names('saved=false&search=list')).toEqual(['List 0'])
    expect(await names('favorited=true&search=list')).toEqual(['List 1'])
    expect(await names('favorited=false&search=list')).not.toContain('List 1')
    expect(await names('search=retention')).toEqual(['List 2'])
    expect(await names('search=100%25')).toEqual(['List 3'])
    expect(await names('search=%00')).toContain('List 4')
    for (const [query, attr] of [
      ['created_by=me', 'created_by'],
      ['created_by=%5B%22a%22%5D', 'created_by'],
      ['saved=maybe', 'saved'],
      ['favorited=2', 'favorited'],
      ['offset=-1', 'offset'],
      [`search=${'x'.repeat(1001)}`, 'search'],
    ]) {
      const r = await w.call('GET', `${base()}/?${query}`)
      expect(r.status, query).toBe(400)
      expect(await json(r), query).toMatchObject({ type: 'validation_error', attr })
    }
  })
})

describe('retrieve, update, soft delete', () => {
  test('GET: the listed object for an insight without filters (nothing to compute); from_dashboard and refresh are validated', async () => {
    const created = await create({ name: 'One' })
    for (const query of ['', '?from_dashboard=3', '?refresh=true', '?refresh=0', '?refresh=force_blocking', '?from_dashboard=1&refresh=false', '?client_query_id=tile-1']) {
      const r = await w.call('GET', `${base()}/${created.id}/${query}`)
      expect(r.status, query).toBe(200)
      expect(await json(r)).toEqual(created)
    }
    for (const [query, attr] of [['?from_dashboard=abc', 'from_dashboard'], ['?from_dashboard=-1', 'from_dashboard'], ['?refresh=sometimes', 'refresh'], [`?client_query_id=${'q'.repeat(201)}`, 'client_query_id']]) {
      expect(await json(await w.call('GET', `${base()}/${created.id}/${query}`)), query).toMatchObject({ type: 'validation_error', attr })
    }
    for (const id of ['999999', 'abc', '-1', '99999999999999999999', created.short_id]) {
      expect((await w.call('GET', `${base()}/${id}/`)).status, id).toBe(404)
    }
  })

  test('PATCH changes fields and dashboards (tiles), moves last_modified, ignores read-only fields', async () => {
    const created = await create({ name: 'Before' })
    const dashboard = await w.sightline.dashboards.create(w.project.id, { name: 'Main' })
    const r = await w.call('PATCH', `${base()}/${created.id}/`, {
      body: { name: 'After', derived_name: 'Derived', dashboards: [dashboard.id], short_id: 'x', created_by: null, result: 'r' },
    })
    expect(r.status).toBe(200)
    const body = await json(r)
    expect(body).toMatchObject({ name: 'After', derived_name: 'Derived', short_id: created.short_id, created_by: ada(), result: null })
    expect(body.dashboards).toEqual([dashboard.id])
    expect(body.dashboard_tiles).toEqual([{ id: expect.any(Number), dashboard_id: dashboard.id, deleted: false }])
  })

  test('PATCH deleted: true soft-deletes (404 after, gone from lists); deleted: false restores', async () => {
    const created = await create({ name: 'Doomed' })
    const deleted = await w.call('PATCH', `${base()}/${created.id}/`, { body: { deleted: true } })
    expect(deleted.status).toBe(200)
    expect((await json(deleted)).deleted).toBe(true)
    expect((await w.call('GET', `${base()}/${created.id}/`)).status).toBe(404)
    expect((await json(await w.call('GET', `${base()}/?short_id=${created.short_id}`))).count).toBe(0)
    expect((await w.call('PATCH', `${base()}/${created.id}/`, { body: { name: 'Still deleted' } })).status).toBe(404)
    const restored = await w.call('PATCH', `${base()}/${created.id}/`, { body: { deleted: false } })
    expect(restored.status).toBe(200)
    expect(await json(restored)).toMatchObject({ id: created.id, deleted: false, name: 'Doomed' })
    expect((await w.call('GET', `${base()}/${created.id}/`)).status).toBe(200)
  })

  test('DELETE is refused: 405 with no body and an Allow header; the insight stays', async () => {
    const created = await create({ name: 'Kept' })
    for (const query of ['', '?format=csv']) {
      const r = await w.call('DELETE', `${base()}/${created.id}/${query}`)
      expect(r.status).toBe(405)
      expect(r.headers.get('allow')).toBe('GET, PATCH, HEAD, OPTIONS')
      expect(r.headers.get('content-type')).toBeNull()
      expect(await r.text()).toBe('')
    }
    expect((await w.call('DELETE', `${base()}/999999/`)).status).toBe(405)
    expect((await w.call('GET', `${base()}/${created.id}/`)).status).toBe(200)
    // Still an authenticated, scoped, project-checked endpoint.
    expect((await w.call('DELETE', `${base()}/${created.id}/`, { key: null })).status).toBe(401)
    expect((await w.call('DELETE', `${base()}/${created.id}/`, { key: await w.keyWith('insight:read') })).status).toBe(403)
    expect((await w.call('DELETE', `/api/projects/${w.otherProject.id}/insights/${created.id}/`)).status).toBe(404)
  })
})

describe('results (GET computes, through the cache)', () => {
  // NOW is 2026-01-15T12:00Z in a UTC project: -7d covers Jan 8 .. Jan 15, eight days.
  const TREND = { insight: 'TRENDS', events: [{ id: 'signed_up' }], date_from: '-7d' }
  beforeAll(async () => {
    await w.sightline.capture(w.project.id, [
      { event: 'signed_up', distinctId: 'u1', timestamp: '2026-01-10T10:00:00Z' },
      { event: 'signed_up', distinctId: 'u2', timestamp: '2026-01-15T09:00:00Z' },
    ])
  })
  const get = async (id: number, query = '') => {
    const r = await w.call('GET', `${base()}/${id}/${query}`)
    expect(r.status, query).toBe(200)
    return json(r)
  }

  test('the result as /insights/trend/ answers it; is_cached false, then true; refresh modes', async () => {
    const created = await create({ name: 'Signups', filters: TREND })
    const first = await get(created.id)
    expect(Object.keys(first).sort()).toEqual(INSIGHT_FIELDS)
    expect(first).toMatchObject({ is_cached: false, last_refresh: '2026-01-15T12:00:00.000000Z', next_allowed_client_refresh: '2026-01-15T12:15:00.000000Z', timezone: 'UTC' })
    expect(first.result[0].data).toEqual([0, 0, 1, 0, 0, 0, 0, 1])
    const trend = await w.call('POST', `/api/projects/${w.project.id}/insights/trend/`, { body: first.filters })
    expect(first.result).toEqual((await json(trend)).result)
    expect(await get(created.id)).toEqual({ ...first, is_cached: true })
    for (const query of ['?refresh=true', '?refresh=blocking', '?refresh=async', '?refresh=lazy_async', '?refresh=force_cache']) {
      expect((await get(created.id, query)).is_cached, query).toBe(true)
    }
    for (const query of ['?refresh=force_blocking', '?refresh=force_async']) expect((await get(created.id, query)).is_cached, query).toBe(false)
    const fresh = await create({ filters: { ...TREND, interval: 'week' } })
    expect(await get(fresh.id, '?refresh=force_cache')).toMatchObject({ result: null, is_cached: false, last_refresh: null, next_allowed_client_refresh: null })
  })

  test('from_dashboard applies the overrides and adds the tile’s layouts and colour; another dashboard is ignored', async () => {
    const created = await create({ filters: TREND })
    const layouts = { sm: { x: 0, y: 0, w: 6, h: 5 } }
    const recent = await w.sightline.dashboards.create(w.project.id, { name: 'Recent', filters: { date_from: '-3d' } })
    const other = await w.sightline.dashboards.create(w.project.id, { name: 'Other', filters: { date_from: '-3d' } })
    await w.sightline.dashboards.addTile(w.project.id, recent.id, { insightId: created.id, layouts, color: 'purple' })
    const onRecent = await get(created.id, `?from_dashboard=${recent.id}`)
    expect(Object.keys(onRecent).sort()).toEqual([...INSIGHT_FIELDS, 'color', 'layouts'].sort())
    // -3d: Jan 12 .. Jan 15.
    expect(onRecent).toMatchObject({ layouts, color: 'purple', filters: { ...TREND, date_from: '-3d' }, is_cached: false })
    expect(onRecent.result[0].data).toEqual([0, 0, 0, 1])
    const elsewhere = await get(created.id, `?from_dashboard=${other.id}`)
    expect(Object.keys(elsewhere).sort()).toEqual(INSIGHT_FIELDS)
    expect(elsewhere.result[0].data).toEqual([0, 0, 1, 0, 0, 0, 0, 1])
  })

  test('filters the analysis refuses are a 400 naming the field; viewed/ never computes', async () => {
    const bad = await create({ filters: { ...TREND, events: [{ id: 'signed_up', math: 'nope' }] } })
    const r = await w.call('GET', `${base()}/${bad.id}/`)
    expect(r.status).toBe(400)
    expect(await json(r)).toMatchObject({ type: 'validation_error', attr: 'filters__events__0__math' })
    const created = await create({ filters: { ...TREND, interval: 'month' } })
    const trend = vi.spyOn(w.sightline.query, 'trend')
    try {
      const viewed = await w.call('POST', `${base()}/${created.id}/viewed/`)
      expect(await json(viewed)).toMatchObject({ result: null, is_cached: false })
      expect(trend).not.toHaveBeenCalled()
    } finally {
      trend.mockRestore()
    }
  })
})

describe('views and activity', () => {
  test('viewed/: 200 with the insight; my_last_viewed/: the caller’s last 5, newest first, deleted ones left out', async () => {
    const reader = await w.keyWith('insight:read')
    const made = []
    for (let i = 0; i < 7; i++) made.push(await create({ name: `Viewed ${i}` }))
    // Views are ordered by time, then id: view in reverse so that the order is not the ids'.
    for (const insight of [...made].reverse()) {
      const r = await w.call('POST', `${base()}/${insight.id}/viewed/`, { key: reader })
      expect(r.status).toBe(200)
      expect(await json(r)).toEqual(insight)
    }
    expect(await json(await w.call('POST', `${base()}/${made[0].id}/viewed/`, { body: { name: 5 } }))).toMatchObject({ attr: 'name' })
    expect((await w.call('POST', `${base()}/999999/viewed/`)).status).toBe(404)
    const last = await json(await w.call('GET', `${base()}/my_last_viewed/`))
    expect(Array.isArray(last)).toBe(true)
    expect(last).toHaveLength(5)
    for (const i of last) expect(Object.keys(i).sort()).toEqual(INSIGHT_FIELDS)
    await w.call('PATCH', `${base()}/${last[0].id}/`, { body: { deleted: true } })
    const after = await json(await w.call('GET', `${base()}/my_last_viewed/`))
    expect(after.map((i: { id: number }) => i.id)).not.toContain(last[0].id)
    // Another user's views are theirs.
    const user = await w.sightline.users.create({ email: 'cy@acme.test', firstName: 'Cy', organizationIds: [w.org.id] })
    const { key } = await w.sightline.personalApiKeys.create({ userId: user.id, label: 'cy' })
    expect(await json(await w.call('GET', `${base()}/my_last_viewed/`, { key }))).toEqual([])
  })

  test(':id/activity/ and activity/: PostHog’s envelope, snake_case fields, short_id in detail', async () => {
    const created = await create({ name: 'Tracked' })
    await w.call('PATCH', `${base()}/${created.id}/`, { body: { derived_name: 'Auto', deleted: true } })
    await w.call('PATCH', `${base()}/${created.id}/`, { body: { deleted: false } })
    const one = await json(await w.call('GET', `${base()}/${created.id}/activity/`))
    expect(one).toMatchObject({ next: null, previous: null, total_count: 3 })
    expect(one.results.map((e: { activity: string }) => e.activity)).toEqual(['restored', 'deleted', 'created'])
    expect(one.results[1]).toEqual({
      user: { first_name: 'Ada', email: 'ada@acme.test' },
      activity: 'deleted',
      scope: 'Insight',
      item_id: String(created.id),
      detail: {
        changes: [
          { type: 'Insight', action: 'created', field: 'derived_name', before: null, after: 'Auto' },
          { type: 'Insight', action: 'changed', field: 'deleted', before: false, after: true },
        ],
        trigger: null,
        name: 'Tracked',
        short_id: created.short_id,
      },
      created_at: STAMP,
    })
    const all = await json(await w.call('GET', `${base()}/activity/?limit=2`))
    expect(all.results).toHaveLength(2)
    expect(all.next).toBe(`${BASE}${base()}/activity/?limit=2&page=2`)
    expect(all.total_count).toBeGreaterThan(3)
    expect(all.results[0]).toEqual(one.results[0])
    expect((await w.call('GET', `${base()}/999999/activity/`)).status).toBe(404)
    expect(await json(await w.call('GET', `${base()}/activity/?page=-1`))).toMatchObject({ attr: 'page' })
  })
})

describe('?format=csv on every insight endpoint', () => {
  test('list, create, retrieve, update, viewed, my_last_viewed and activity render PostHog’s CSV', async () => {
    const created = await create({ name: 'Exported, "quoted"', filters: { events: [{ id: '$pageview' }] } })
    const csv = async (method: string, path: string, body?: unknown, status = 200) => {
      const r = await w.call(method, `${base()}${path}${path.includes('?') ? '&' : '?'}format=csv`, { body })
      expect(r.status, `${method} ${path}`).toBe(status)
      expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8')
      return r.text()
    }
    // force_cache: nothing is computed, so every endpoint answers the same row.
    const one = await csv('GET', `/${created.id}/?refresh=force_cache`)
    const [header, row, end] = one.split('\r\n')
    expect(header!.split(',')).toEqual(expect.arrayContaining(['id', 'name', 'filters.events.0.id', 'created_by.email', 'is_cached', 'short_id']))
    expect(row).toContain('"Exported, ""quoted"""')
    expect(row).toContain(',False,')
    expect(end).toBe('')
    expect(await csv('GET', `/?short_id=${created.short_id}`)).toBe(one)
    expect(await csv('PATCH', `/${created.id}/`, { favorited: false })).toBe(one)
    expect(await csv('POST', `/${created.id}/viewed/`)).toBe(one)
    expect((await csv('GET', '/my_last_viewed/')).split('\r\n')[1]).toBe(row)
    expect(await csv('POST', '/', { name: 'CSV made' }, 201)).toContain('CSV made')
    expect((await csv('GET', `/${created.id}/activity/`)).split('\r\n')[0]).toContain('detail.short_id')
    expect(await csv('GET', '/activity/?limit=1')).toContain('Insight')
    expect((await w.call('GET', `${base()}/?format=xml`)).status).toBe(404)
  })
})

describe('access', () => {
  const ops = (id: number): Array<[string, string, unknown, 'read' | 'write']> => [
    ['GET', '/', undefined, 'read'],
    ['POST', '/', { name: 'x' }, 'write'],
    ['GET', `/${id}/`, undefined, 'read'],
    ['PATCH', `/${id}/`, { name: 'x' }, 'write'],
    ['DELETE', `/${id}/`, undefined, 'write'],
    ['GET', `/${id}/activity/`, undefined, 'read'],
    ['POST', `/${id}/viewed/`, {}, 'read'],
    ['GET', '/activity/', undefined, 'read'],
    ['GET', '/my_last_viewed/', undefined, 'read'],
  ]

  test('insight:read reads (and records views); writes need insight:write; other scopes are 403s naming the scope', async () => {
    const insight = await create({ name: 'Scoped' })
    const read = await w.keyWith('insight:read')
    const other = await w.keyWith('plugin:write')
    for (const [method, path, body, need] of ops(insight.id)) {
      const r = await w.call(method, `${base()}${path}`, { key: read, body })
      if (need === 'read') expect(r.status, `${method} ${path}`).toBeLessThan(300)
      else expect(await json(r), `${method} ${path}`).toMatchObject({ code: 'permission_denied', detail: "API key missing required scope 'insight:write'" })
      const denied = await w.call(method, `${base()}${path}`, { key: other, body })
      expect(denied.status, `${method} ${path}`).toBe(403)
      expect((await json(denied)).detail).toBe(`API key missing required scope 'insight:${need}'`)
    }
  })

  test("another organization's project, and another project's insight, answer exactly like missing ones", async () => {
    const theirs = await w.sightline.insights.create(w.otherProject.id, { name: 'Their secret insight', description: 'classified' })
    const ours = await create({ name: 'Ours only' })
    const missing = await (await w.call('GET', `${base()}/999999/`)).text()
    const theirBase = `/api/projects/${w.otherProject.id}/insights`
    for (const [method, path, body] of ops(theirs.id)) {
      const r = await w.call(method, `${theirBase}${path}`, { body })
      expect(r.status, `${method} ${theirBase}${path}`).toBe(404)
      expect(await r.text()).toBe(missing)
    }
    for (const [method, path, body] of ops(theirs.id).filter(([, p]) => p.startsWith(`/${theirs.id}/`) && !(p === `/${theirs.id}/`))) {
      expect((await w.call(method, `${base()}${path}`, { body })).status, `${method} ${path}`).toBe(404)
    }
    for (const method of ['GET', 'PATCH']) {
      const r = await w.call(method, `${base()}/${theirs.id}/`, { body: method === 'PATCH' ? { name: 'Mine now' } : undefined })
      expect(r.status).toBe(404)
      expect(await r.text()).toBe(missing)
    }
    // Their key sees nothing of ours, on any endpoint.
    for (const [method, path, body] of ops(ours.id)) {
      const r = await w.call(method, `${base()}${path}`, { key: w.otherKey, body })
      expect(r.status, `${method} ${path}`).toBe(404)
    }
    for (const path of ['/', '/activity/', '/my_last_viewed/']) {
      const text = await (await w.call('GET', `${base()}${path}`)).text()
      expect(text, path).not.toContain('Their secret insight')
      expect(text, path).not.toContain('classified')
    }
    expect((await w.sightline.insights.get(w.otherProject.id, theirs.id)).name).toBe('Their secret insight')
  })

  test('the analysis paths of issue 7 answer GET and POST with PostHog defaults, are never taken for an id, and refuse other methods', async () => {
    // With no parameters: retention of $pageview over 11 days, paths of every event over 7 days, a funnel without steps (no rows).
    const empty: Record<string, (result: unknown) => void> = {
      'funnel/correlation/': (result) => expect(result).toEqual({ events: [], skewed: false }),
      'path/': (result) => expect(result).toEqual([]),
      'retention/': (result) => {
        expect(result).toHaveLength(11)
        for (const row of result as Array<{ values: Array<{ count: number }> }>) expect(row.values.map((v) => v.count)).toEqual(new Array(11).fill(0))
      },
    }
    for (const [path, check] of Object.entries(empty)) {
      for (const method of ['GET', 'POST']) {
        const r = await w.call(method, `${base()}/${path}`, { body: method === 'POST' ? {} : undefined })
        expect(r.status, `${method} ${path}`).toBe(200)
        const body = await json(r)
        expect(Object.keys(body).sort(), `${method} ${path}`).toEqual(['is_cached', 'last_refresh', 'result', 'timezone'])
        check(body.result)
      }
      const patch = await w.call('PATCH', `${base()}/${path}`, { body: {} })
      expect(patch.status, `PATCH ${path}`).toBe(405)
    }
  })
})
