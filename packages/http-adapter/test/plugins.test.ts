import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BASE, json, REPOSITORY, type World, world } from './fixture.js'

let w: World
beforeAll(async () => {
  w = await world()
})
afterAll(() => w.close())

const base = () => `/api/organizations/${w.org.id}/plugins`
const GEOIP = REPOSITORY[0]!

const PLUGIN_FIELDS = [
  'capabilities', 'config_schema', 'description', 'hog_function_migration_available', 'icon', 'id', 'is_global', 'latest_tag', 'metrics',
  'name', 'organization_id', 'organization_name', 'plugin_type', 'public_jobs', 'tag', 'url',
]

/** Installs a plugin and returns its wire object. */
async function install(body: Record<string, unknown>, key = w.key): Promise<any> {
  const r = await w.call('POST', `${base()}/`, { body, key })
  expect(r.status, await r.clone().text()).toBe(201)
  return json(r)
}

const uninstallAll = async () => {
  for (const p of (await w.sightline.plugins.list(w.org.id)).results) {
    if (p.isGlobal) await w.sightline.plugins.update(w.org.id, p.id, { isGlobal: false })
    await w.sightline.plugins.delete(w.org.id, p.id)
  }
}

describe('install (POST)', () => {
  test("PostHog's app shape, `{ url, plugin_type: 'repository' }`, installs the repository entry of that url: 201", async () => {
    await uninstallAll()
    const created = await install({ url: `${GEOIP.url}?private_token=secret`, plugin_type: 'repository' })
    expect(Object.keys(created).sort()).toEqual(PLUGIN_FIELDS)
    expect(created).toEqual({
      id: expect.any(Number),
      plugin_type: 'repository',
      name: 'GeoIP',
      description: 'Adds location properties.',
      url: GEOIP.url,
      icon: GEOIP.icon,
      config_schema: {},
      tag: 'v2',
      latest_tag: null,
      is_global: false,
      organization_id: w.org.id,
      organization_name: 'Acme',
      capabilities: {},
      metrics: {},
      public_jobs: {},
      hog_function_migration_available: false,
    })
    const again = await w.call('POST', `${base()}/`, { body: { url: `${GEOIP.url}/`, plugin_type: 'repository' } })
    expect(again.status).toBe(400)
    expect(await json(again)).toEqual({ type: 'validation_error', code: 'unique', detail: `Plugin from URL "${GEOIP.url}" already installed!`, attr: 'url' })
  })

  test('a url the repository does not list is a 400 naming `url`', async () => {
    const r = await w.call('POST', `${base()}/`, { body: { url: 'https://github.com/someone/else', plugin_type: 'custom' } })
    expect(r.status).toBe(400)
    expect(await json(r)).toEqual({
      type: 'validation_error',
      code: 'does_not_exist',
      detail: 'No plugin with URL "https://github.com/someone/else" in the plugin repository.',
      attr: 'url',
    })
  })

  test('a source plugin by name, with the writeable fields; read-only and unknown fields are ignored', async () => {
    const created = await install({
      plugin_type: 'source',
      name: 'Mine',
      description: 'Hand written',
      icon: 'https://example.test/i.png',
      config_schema: [{ key: 'apiKey', secret: true }],
      tag: 't1',
      capabilities: { methods: ['processEvent'] },
      metrics: { total: 'sum' },
      public_jobs: { backfill: { payload: {} } },
      id: 999,
      latest_tag: 'v9',
      organization_id: w.otherOrg.id,
      url: 'ignored for source plugins',
      whatever: 1,
    })
    expect(created).toMatchObject({
      plugin_type: 'source',
      name: 'Mine',
      description: 'Hand written',
      url: null,
      config_schema: [{ key: 'apiKey', secret: true }],
      tag: 't1',
      latest_tag: null,
      capabilities: { methods: ['processEvent'] },
      metrics: { total: 'sum' },
      public_jobs: { backfill: { payload: {} } },
      organization_id: w.org.id,
    })
    expect(created.id).not.toBe(999)
  })

  test('validation errors name the field', async () => {
    for (const [body, attr, code] of [
      [{}, 'name', 'required'],
      [{ plugin_type: 'source' }, 'name', 'required'],
      [{ name: '' }, 'name', 'invalid_input'],
      [{ name: 'x'.repeat(201) }, 'name', 'invalid_input'],
      [{ name: 'x', plugin_type: 'binary' }, 'plugin_type', 'invalid_input'],
      [{ name: 'x', is_global: 'yes' }, 'is_global', 'invalid_input'],
      [{ name: 'x', capabilities: [1] }, 'capabilities', 'invalid_input'],
      [{ name: 'x', config_schema: 'none' }, 'config_schema', 'invalid_input'],
      [{ name: 'x', description: null }, 'description', 'invalid_input'],
      [{ name: 'Unknown', plugin_type: 'repository' }, 'name', 'invalid_input'],
      [{ name: 'a\u0000b' }, 'name', 'null_characters_not_allowed'],
    ] as const) {
      const r = await w.call('POST', `${base()}/`, { body })
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(await json(r), JSON.stringify(body)).toMatchObject({ type: 'validation_error', attr, code })
    }
  })
})

describe('list, retrieve, update, delete', () => {
  beforeAll(async () => {
    await uninstallAll()
    for (const name of ['A', 'B', 'C']) await install({ name })
  })

  test('the list: the envelope, oldest first, paged by limit and offset', async () => {
    const body = await json(await w.call('GET', `${base()}/`))
    expect(body).toMatchObject({ count: 3, next: null, previous: null })
    expect(body.results.map((p: { name: string }) => p.name)).toEqual(['A', 'B', 'C'])
    expect(Object.keys(body.results[0]).sort()).toEqual(PLUGIN_FIELDS)
    const page = await json(await w.call('GET', `${base()}/?limit=2`))
    expect(page.next).toBe(`${BASE}${base()}/?limit=2&offset=2`)
    const last = await json(await w.call('GET', `${base()}/?limit=2&offset=2`))
    expect(last.results.map((p: { name: string }) => p.name)).toEqual(['C'])
    expect(last.previous).toBe(`${BASE}${base()}/?limit=2`)
    expect(await json(await w.call('GET', `${base()}/?limit=0`))).toMatchObject({ attr: 'limit' })
  })

  test('GET one answers the listed object; unknown, malformed and huge ids are 404', async () => {
    const [first] = (await json(await w.call('GET', `${base()}/`))).results
    expect(await json(await w.call('GET', `${base()}/${first.id}/`))).toEqual(first)
    for (const id of ['999999', 'abc', '-1', '1.5', '99999999999999999999', '0']) {
      const r = await w.call('GET', `${base()}/${id}/`)
      expect(r.status, id).toBe(404)
    }
  })

  test('PATCH changes the writeable fields, logs them, and ignores read-only ones', async () => {
    const [first] = (await json(await w.call('GET', `${base()}/`))).results
    const r = await w.call('PATCH', `${base()}/${first.id}/`, { body: { name: 'A2', description: 'new', is_global: true, url: 'https://x', latest_tag: 'v5' } })
    expect(r.status).toBe(200)
    expect(await json(r)).toEqual({ ...first, name: 'A2', description: 'new', is_global: true })
    const bad = await w.call('PATCH', `${base()}/${first.id}/`, { body: { metrics: 'none' } })
    expect(await json(bad)).toMatchObject({ type: 'validation_error', attr: 'metrics' })
  })

  test('DELETE: 204 with no body, then 404; a global plugin is refused with a 400 naming is_global', async () => {
    const [a, b] = (await json(await w.call('GET', `${base()}/`))).results
    expect(a.is_global).toBe(true)
    const refused = await w.call('DELETE', `${base()}/${a.id}/`)
    expect(refused.status).toBe(400)
    expect(await json(refused)).toEqual({
      type: 'validation_error',
      code: 'invalid_input',
      detail: 'This plugin is marked as global! Make it local before uninstallation',
      attr: 'is_global',
    })
    const r = await w.call('DELETE', `${base()}/${b.id}/`)
    expect(r.status).toBe(204)
    expect(await r.text()).toBe('')
    expect((await w.call('GET', `${base()}/${b.id}/`)).status).toBe(404)
    expect((await w.call('DELETE', `${base()}/${b.id}/`)).status).toBe(404)
  })

  test('PUT is not a method of the interface: 405', async () => {
    const r = await w.call('PUT', `${base()}/1/`, { body: {} })
    expect(r.status).toBe(405)
    expect(r.headers.get('allow')).toBe('GET, PATCH, DELETE, HEAD, OPTIONS')
  })
})

describe('updates, source, upgrade', () => {
  test('check_for_updates: the Plugin, and the same object under `plugin` (PostHog’s app reads plugin.latest_tag)', async () => {
    await uninstallAll()
    const old = await install({ url: GEOIP.url, plugin_type: 'repository', tag: 'v1' })
    expect(old.tag).toBe('v1')
    const r = await w.call('GET', `${base()}/${old.id}/check_for_updates/`)
    expect(r.status).toBe(200)
    const body = await json(r)
    const { plugin, ...top } = body
    expect(top).toEqual({ ...old, latest_tag: 'v2' })
    expect(plugin).toEqual(top)

    const upgraded = await w.call('POST', `${base()}/${old.id}/upgrade/`, { body: {} })
    expect(upgraded.status).toBe(200)
    expect(await json(upgraded)).toEqual({ ...old, tag: 'v2', latest_tag: 'v2' })
    const invalid = await w.call('POST', `${base()}/${old.id}/upgrade/`, { body: { tag: 5 } })
    expect(await json(invalid)).toMatchObject({ type: 'validation_error', attr: 'tag' })

    const source = await install({ name: 'Code' })
    const checked = await json(await w.call('GET', `${base()}/${source.id}/check_for_updates/`))
    expect(checked.latest_tag).toBeNull()
    expect(checked.plugin.latest_tag).toBeNull()
  })

  test('source/ answers `{ filename: source }`; update_source/ writes, deletes with null, and follows plugin.json', async () => {
    const p = await install({ name: 'Editable' })
    expect(await json(await w.call('GET', `${base()}/${p.id}/source/`))).toEqual({})
    const written = await w.call('PATCH', `${base()}/${p.id}/update_source/`, {
      body: { 'plugin.json': JSON.stringify({ name: 'Edited', config: [{ key: 'k' }] }), 'index.ts': 'export function processEvent(e) { return e }', 'site.ts': 'x' },
    })
    expect(written.status).toBe(200)
    expect(await json(written)).toEqual({
      'index.ts': 'export function processEvent(e) { return e }',
      'plugin.json': '{"name":"Edited","config":[{"key":"k"}]}',
      'site.ts': 'x',
    })
    const after = await json(await w.call('GET', `${base()}/${p.id}/`))
    expect(after).toMatchObject({ name: 'Edited', config_schema: [{ key: 'k' }] })

    const deleted = await w.call('PATCH', `${base()}/${p.id}/update_source/`, { key: null, body: { 'site.ts': null, personal_api_key: w.key } })
    expect(deleted.status).toBe(200)
    expect(Object.keys(await json(deleted))).toEqual(['index.ts', 'plugin.json'])

    const badJson = await w.call('PATCH', `${base()}/${p.id}/update_source/`, { body: { 'plugin.json': '{not json' } })
    expect(badJson.status).toBe(400)
    expect(await json(badJson)).toMatchObject({ type: 'validation_error', attr: 'plugin.json' })
    const notText = await w.call('PATCH', `${base()}/${p.id}/update_source/`, { body: { 'index.ts': 5 } })
    expect(await json(notText)).toMatchObject({ type: 'validation_error', attr: 'index.ts' })
    expect((await w.call('GET', `${base()}/999999/source/`)).status).toBe(404)
  })

  test("update_source/ takes only PostHog's file names: the interface's Plugin body, or any other key, is a 400 naming it and nothing is written", async () => {
    const p = await install({ name: 'Strict' })
    const files = { 'plugin.json': '{"name":"Strict"}', 'index.ts': 'a', 'index.js': 'b', 'frontend.tsx': 'c', 'site.ts': 'd' }
    const all = await w.call('PATCH', `${base()}/${p.id}/update_source/`, { body: files })
    expect(all.status).toBe(200)
    // PostHog's answer, `{ filename: source }`, every file by name.
    const stored = { 'frontend.tsx': 'c', 'index.js': 'b', 'index.ts': 'a', 'plugin.json': '{"name":"Strict"}', 'site.ts': 'd' }
    expect(await json(all)).toEqual(stored)

    const refused = async (body: Record<string, unknown>, attr: string | null) => {
      const r = await w.call('PATCH', `${base()}/${p.id}/update_source/`, { body })
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(await json(r), JSON.stringify(body)).toMatchObject({ type: 'validation_error', code: 'invalid_input', attr })
    }
    // Interface 2.2's writeable fields that are text: the first key that is not a file is named.
    await refused({ name: 'Renamed', description: 'described', icon: 'i', tag: 't', plugin_type: 'source' }, 'name')
    await refused({ 'index.ts': 'changed', description: 'described' }, 'description')
    // Interface 2.2's object fields are not text: refused by the body's schema, still naming a field.
    await refused({ 'index.ts': 'changed', config_schema: {} }, 'config_schema')
    // Named as sent, not in snake_case; deleting an unknown name is refused too.
    await refused({ 'Index.ts': 'x' }, 'Index.ts')
    await refused({ 'README.md': null }, 'README.md')
    await refused({ ['f'.repeat(201)]: 'x' }, 'f'.repeat(201))

    // Read back: nothing was written, and the plugin kept its fields.
    expect(await json(await w.call('GET', `${base()}/${p.id}/source/`))).toEqual(stored)
    expect(await json(await w.call('GET', `${base()}/${p.id}/`))).toEqual(p)
  })
})

describe('activity, repository, unused', () => {
  test('activity/: PostHog’s envelope, newest first, paged by `page` and `limit`, fields in snake_case', async () => {
    await uninstallAll()
    const p = await install({ name: 'Logged' })
    await w.call('PATCH', `${base()}/${p.id}/`, { body: { config_schema: { a: 1 }, is_global: true } })
    const body = await json(await w.call('GET', `${base()}/activity/?limit=2`))
    expect(Object.keys(body).sort()).toEqual(['next', 'previous', 'results', 'total_count'])
    expect(body.previous).toBeNull()
    expect(body.next).toBe(`${BASE}${base()}/activity/?limit=2&page=2`)
    expect(body.results[0]).toEqual({
      user: { first_name: 'Ada', email: 'ada@acme.test' },
      activity: 'updated',
      scope: 'Plugin',
      item_id: String(p.id),
      detail: {
        changes: [
          { type: 'Plugin', action: 'changed', field: 'config_schema', before: {}, after: { a: 1 } },
          { type: 'Plugin', action: 'changed', field: 'is_global', before: false, after: true },
        ],
        trigger: null,
        name: 'Logged',
        short_id: null,
      },
      created_at: '2026-01-15T12:00:00.000000Z',
    })
    expect(body.results[1]).toMatchObject({ activity: 'installed', item_id: String(p.id) })
    const second = await json(await w.call('GET', `${base()}/activity/?limit=2&page=2`))
    expect(second.previous).toBe(`${BASE}${base()}/activity/?limit=2&page=1`)
    expect(second.total_count).toBe(body.total_count)
    for (const q of ['page=0', 'page=x', 'limit=1001']) {
      expect(await json(await w.call('GET', `${base()}/activity/?${q}`)), q).toMatchObject({ type: 'validation_error', attr: q.split('=')[0] })
    }
    // The default page is PostHog's 10.
    for (let i = 0; i < 6; i++) await w.call('PATCH', `${base()}/${p.id}/`, { body: { description: `v${i}` } })
    expect((await json(await w.call('GET', `${base()}/activity/`))).results).toHaveLength(10)
  })

  test('repository/ answers the host’s catalogue; unused/ the ids no project enables', async () => {
    expect(await json(await w.call('GET', `${base()}/repository/`))).toEqual([
      { name: 'GeoIP', url: GEOIP.url, description: 'Adds location properties.', icon: GEOIP.icon, tag: 'v2', maintainer: 'official', type: 'transformation' },
      { name: 'Taxonomy', url: 'https://github.com/PostHog/taxonomy-plugin', description: 'Standardizes event names.', icon: '', tag: 'abc123' },
    ])
    const used = await install({ name: 'Used' })
    const idle = await install({ name: 'Idle' })
    await w.sightline.pluginConfigs.create(w.project.id, { pluginId: used.id, enabled: true })
    const unused = await json(await w.call('GET', `${base()}/unused/`))
    expect(unused).toContain(idle.id)
    expect(unused).not.toContain(used.id)
    expect(unused).toEqual([...unused].sort((a: number, b: number) => a - b))
  })
})

describe('access', () => {
  const READS = (id: number) => ['/', `/${id}/`, `/${id}/check_for_updates/`, `/${id}/source/`, '/activity/', '/repository/', '/unused/']
  const WRITES = (id: number): Array<[string, string, unknown]> => [
    ['POST', '/', { name: 'Nope' }],
    ['PATCH', `/${id}/`, { name: 'Nope' }],
    ['DELETE', `/${id}/`, undefined],
    ['PATCH', `/${id}/update_source/`, { 'index.ts': '' }],
    ['POST', `/${id}/upgrade/`, {}],
  ]

  test('plugin:read reads, plugin:write writes; anything else is a 403 naming the scope', async () => {
    const p = await install({ name: 'Scoped' })
    const read = await w.keyWith('plugin:read')
    for (const path of READS(p.id)) expect((await w.call('GET', `${base()}${path}`, { key: read })).status, path).toBe(200)
    for (const [method, path, body] of WRITES(p.id)) {
      const r = await w.call(method, `${base()}${path}`, { key: read, body })
      expect(r.status, `${method} ${path}`).toBe(403)
      expect((await json(r)).detail).toBe("API key missing required scope 'plugin:write'")
    }
    const other = await w.keyWith('insight:write')
    for (const path of READS(p.id)) {
      const r = await w.call('GET', `${base()}${path}`, { key: other })
      expect(r.status, path).toBe(403)
      expect((await json(r)).detail).toBe("API key missing required scope 'plugin:read'")
    }
    const write = await w.keyWith('plugin:write')
    expect((await w.call('GET', `${base()}/`, { key: write })).status).toBe(200)
    expect((await w.call('GET', `${base()}/`, { key: null })).status).toBe(401)
  })

  test("another organization's plugins answer exactly like missing ones, and show nothing", async () => {
    const theirs = await w.sightline.plugins.create(w.otherOrg.id, { name: 'Their secret plugin', description: 'classified' })
    const mine = await install({ name: 'Mine too' })
    const missing = await (await w.call('GET', `${base()}/999999/`)).text()
    const theirBase = `/api/organizations/${w.otherOrg.id}/plugins`
    // Their organization through our key, and their plugin through our organization.
    for (const [method, path, body] of [
      ...READS(theirs.id).map((p) => ['GET', `${theirBase}${p}`, undefined] as const),
      ...WRITES(theirs.id).map(([m, p, b]) => [m, `${theirBase}${p}`, b] as const),
      ...[`/${theirs.id}/`, `/${theirs.id}/check_for_updates/`, `/${theirs.id}/source/`].map((p) => ['GET', `${base()}${p}`, undefined] as const),
      ...WRITES(theirs.id).slice(1).map(([m, p, b]) => [m, `${base()}${p}`, b] as const),
    ]) {
      const r = await w.call(method, path, { body })
      expect(r.status, `${method} ${path}`).toBe(404)
      const text = await r.text()
      expect(text).toBe(missing)
    }
    // Their key sees nothing of ours, and our lists show nothing of theirs.
    for (const path of READS(mine.id)) {
      const r = await w.call('GET', `${base()}${path}`, { key: w.otherKey })
      expect(r.status, path).toBe(404)
    }
    for (const path of ['/', '/activity/', '/unused/']) {
      const text = await (await w.call('GET', `${base()}${path}`)).text()
      expect(text, path).not.toContain('Their secret plugin')
      expect(text, path).not.toContain('classified')
      if (path === '/unused/') expect(JSON.parse(text)).not.toContain(theirs.id)
    }
    expect((await w.sightline.plugins.get(w.otherOrg.id, theirs.id)).name).toBe('Their secret plugin')
  })
})
