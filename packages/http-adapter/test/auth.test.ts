import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BASE, json, type World, world } from './fixture.js'

let w: World
beforeAll(async () => {
  w = await world()
})
afterAll(() => w.close())

describe('personal API keys', () => {
  test('no key: 401 not_authenticated, with WWW-Authenticate', async () => {
    const r = await w.call('GET', '/api/projects/', { key: null })
    expect(r.status).toBe(401)
    expect(r.headers.get('www-authenticate')).toBe('Bearer')
    expect(await json(r)).toEqual({ type: 'authentication_error', code: 'not_authenticated', detail: 'Authentication credentials were not provided.', attr: null })
  })

  test('a wrong key: 401 authentication_failed, naming where it was found', async () => {
    const header = await w.call('GET', '/api/projects/', { key: 'phx_wrongwrongwrongwrongwrongwrong' })
    expect(header.status).toBe(401)
    expect(await json(header)).toEqual({
      type: 'authentication_error',
      code: 'authentication_failed',
      detail: 'Personal API key found in request Authorization header is invalid.',
      attr: null,
    })
    const query = await w.call('GET', '/api/projects/?personal_api_key=nope', { key: null })
    expect((await json(query)).detail).toBe('Personal API key found in request query string is invalid.')
    const body = await w.call('PATCH', `/api/projects/${w.project.id}/`, { key: null, body: { personal_api_key: 42 } })
    expect((await json(body)).detail).toBe('Personal API key found in request body is invalid.')
  })

  test("PostHog's alternatives: the key in the query string or the JSON body", async () => {
    expect((await w.call('GET', `/api/projects/?personal_api_key=${w.key}`, { key: null })).status).toBe(200)
    const patched = await w.call('PATCH', `/api/projects/${w.project.id}/`, { key: null, body: { personal_api_key: w.key, name: 'Web' } })
    expect(patched.status).toBe(200)
  })

  test('a missing scope: 403 naming it; `:write` grants `:read`; `*` grants all', async () => {
    const readOnly = await w.keyWith('project:read')
    const denied = await w.call('PATCH', `/api/projects/${w.project.id}/`, { key: readOnly, body: { name: 'x' } })
    expect(denied.status).toBe(403)
    expect(await json(denied)).toEqual({ type: 'authentication_error', code: 'permission_denied', detail: "API key missing required scope 'project:write'", attr: null })
    expect((await w.call('GET', '/api/projects/', { key: readOnly })).status).toBe(200)

    const writeOnly = await w.keyWith('event_definition:write')
    expect((await w.call('GET', `/api/projects/${w.project.id}/event_definitions/`, { key: writeOnly })).status).toBe(200)
    const other = await w.call('GET', '/api/organizations/', { key: writeOnly })
    expect(other.status).toBe(403)
    expect((await json(other)).detail).toBe("API key missing required scope 'organization:read'")
  })

  test('the scope is checked before the resource: no probing of what exists', async () => {
    const readOnly = await w.keyWith('project:read')
    const missing = await w.call('PATCH', '/api/projects/999999/', { key: readOnly, body: {} })
    expect(missing.status).toBe(403)
  })

  const secretsOf = (w: World) => [w.otherProject.apiToken, w.otherProject.name, w.otherOrg.name]

  test("another organization's project answers exactly as a missing one, and shows nothing", async () => {
    const missing = await w.call('GET', '/api/projects/999999/')
    for (const [method, path, body] of [
      ['GET', `/api/projects/${w.otherProject.id}/`],
      ['PATCH', `/api/projects/${w.otherProject.id}/`, { name: 'Mine now' }],
      ['GET', `/api/projects/${w.otherProject.id}/event_definitions/`],
      ['GET', `/api/projects/${w.otherProject.id}/event_definitions/00000000-0000-4000-8000-000000000000/`],
      ['DELETE', `/api/projects/${w.otherProject.id}/event_definitions/00000000-0000-4000-8000-000000000000/`],
    ] as const) {
      const r = await w.call(method, path, { body })
      expect(r.status, `${method} ${path}`).toBe(404)
      const text = await r.text()
      expect(text).toBe(await missing.clone().text())
      for (const secret of secretsOf(w)) expect(text).not.toContain(secret)
    }
    expect((await w.sightline.projects.get(w.otherProject.id)).name).toBe('Secret')
  })

  test("another organization answers as a missing one; lists show only the caller's", async () => {
    const r = await w.call('GET', `/api/organizations/${w.otherOrg.id}/`)
    expect(r.status).toBe(404)
    expect(await json(r)).toEqual({ type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null })
    for (const path of ['/api/organizations/', '/api/projects/', '/api/users/@me/']) {
      const text = await (await w.call('GET', path)).text()
      for (const secret of secretsOf(w)) expect(text, path).not.toContain(secret)
    }
    const created = await w.call('POST', '/api/projects/', { body: { name: 'Sneaky', organization: w.otherOrg.id } })
    expect(created.status).toBe(400)
    expect(await json(created)).toMatchObject({ type: 'validation_error', code: 'does_not_exist', attr: 'organization' })
    expect((await w.sightline.projects.list({ organizationId: w.otherOrg.id })).map((p) => p.name)).toEqual(['Secret'])
  })

  test('the other tenant sees its own, and not ours', async () => {
    const theirs = await w.handler(new Request(`${BASE}/api/projects/`, { headers: { authorization: `Bearer ${w.otherKey}` } }))
    const body = (await json(theirs)) as { results: Array<{ name: string }> }
    expect(body.results.map((p) => p.name)).toEqual(['Secret'])
  })

  test('capture needs no personal API key, and the schema is public', async () => {
    expect((await w.call('GET', '/api/schema/', { key: null })).status).toBe(200)
    const r = await w.call('POST', '/batch/', { key: null, body: { api_key: w.project.apiToken, batch: [{ event: 'e', distinct_id: 'd' }] } })
    expect(r.status).toBe(200)
  })
})
