import { PGlite } from '@electric-sql/pglite'
import { postgresStorage } from '@sightline/storage-postgres'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { json, type World, world } from './fixture.js'
import { assertNever500 } from './never-500.js'

let w: World
let pglite: PGlite
beforeAll(async () => {
  pglite = await PGlite.create()
  w = await world({ storage: postgresStorage({ pglite }), maxCaptureBodyBytes: 256 * 1024 })
}, 60_000)
afterAll(async () => {
  await w.close()
  await pglite.close()
})

test('smoke on Postgres (PGlite): capture, list, patch, delete', async () => {
  const captured = await w.call('POST', '/batch/', { key: null, body: { api_key: w.project.apiToken, batch: [{ event: 'signed_up', distinct_id: 7 }, { event: 'paid', distinct_id: 'u' }] } })
  expect(await json(captured)).toEqual({ status: 1 })
  const list = await json(await w.call('GET', `/api/projects/${w.project.id}/event_definitions/?limit=1`))
  expect(list).toMatchObject({ count: 2, previous: null })
  expect(list.next).toContain('offset=1')
  const id = list.results[0].id
  const patched = await w.call('PATCH', `/api/projects/${w.project.id}/event_definitions/${id}/`, { body: { tags: ['x'], description: 'd' } })
  expect((await json(patched)).tags).toEqual(['x'])
  const nul = await w.call('PATCH', `/api/projects/${w.project.id}/event_definitions/${id}/`, { body: { tags: ['a\u0000'] } })
  expect(nul.status).toBe(400)
  expect((await w.call('DELETE', `/api/projects/${w.project.id}/event_definitions/${id}/`)).status).toBe(204)
  expect((await w.call('GET', `/api/projects/${w.project.id}/`)).status).toBe(200)
  expect((await w.call('GET', `/api/projects/${w.otherProject.id}/`)).status).toBe(404)
})

test('smoke on Postgres (PGlite): plugins and insights, and text Postgres cannot store inside JSON text', async () => {
  const plugins = `/api/organizations/${w.org.id}/plugins`
  const plugin = await json(await w.call('POST', `${plugins}/`, { body: { url: 'https://github.com/PostHog/posthog-plugin-geoip', plugin_type: 'repository' } }))
  expect(plugin).toMatchObject({ name: 'GeoIP', plugin_type: 'repository', organization_name: 'Acme' })
  for (const [files, attr] of [
    [{ 'plugin.json': '{"name":"a\\u0000"}' }, 'plugin.json__name'],
    [{ 'plugin.json': '{"config":[{"key":"\\ud800"}]}' }, 'plugin.json__config__0__key'],
    [{ ['f'.repeat(201)]: 'x' }, 'f'.repeat(201)],
  ] as const) {
    const r = await w.call('PATCH', `${plugins}/${plugin.id}/update_source/`, { body: files })
    expect(r.status, JSON.stringify(files)).toBe(400)
    expect(await json(r)).toMatchObject({ type: 'validation_error', attr })
  }
  expect(await json(await w.call('GET', `${plugins}/${plugin.id}/source/`))).toEqual({})
  const insights = `/api/projects/${w.project.id}/insights`
  const bad = await w.call('POST', `${insights}/`, { body: { query: '{"kind":"\\u0000"}' } })
  expect(await json(bad)).toMatchObject({ type: 'validation_error', attr: 'query__kind' })
  const insight = await json(await w.call('POST', `${insights}/`, { body: { name: 'On Postgres', filters: { __proto__: null, big: 1e308 } } }))
  expect((await w.call('GET', `${insights}/?short_id=${insight.short_id}%00`)).status).toBe(200)
  expect((await json(await w.call('PATCH', `${insights}/${insight.id}/`, { body: { deleted: true } }))).deleted).toBe(true)
  expect((await w.call('DELETE', `${insights}/${insight.id}/`)).status).toBe(405)
  expect((await w.call('GET', `${insights}/2147483648/`)).status).toBe(404)
})

test('text Postgres cannot store, in capture payloads, is never a 500', async () => {
  for (const event of [
    { event: 'nul\u0000name', distinct_id: 'u\u0000', properties: { 'k\u0000': 'v\u0000', nested: { a: ['\u0000', '\ud800'] }, '\udc00': 1 } },
    { event: '\ud800', distinct_id: '\u0000' },
    { event: 'e', distinct_id: 'u', properties: { $set: { 'x\u0000': '\u0000' } }, $set_once: { y: '\ud83d' } },
  ]) {
    const r = await w.call('POST', '/batch/', { key: null, body: JSON.stringify({ api_key: w.project.apiToken, batch: [event] }) })
    expect(r.status, await r.clone().text()).toBeLessThan(500)
  }
})

test('no request makes a 5xx or hangs (Postgres rejects more than DuckDB: NUL, bad surrogates)', async () => {
  await assertNever500(w, 200)
}, 120_000)

test('a capture token Postgres cannot compare (U+0000) is a 401, not a 500 (found by the fuzz property)', async () => {
  const r = await w.call('POST', '/capture/?offset=-1145133577', { key: null, body: { token: '\u0000', event: 'e', distinct_id: 'u' } })
  expect(r.status).toBe(401)
  expect(await json(r)).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key' })
})
