import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { StorageError } from '@sightline/core'
import { createHandler } from '@sightline/http-adapter'
import { BASE, json, type World, world } from './fixture.js'

let w: World
beforeAll(async () => {
  w = await world({ maxBodyBytes: 1024 })
})
afterAll(() => w.close())

describe('error answers, all PostHog-shaped', () => {
  test('an unknown route is a JSON 404', async () => {
    const r = await w.call('GET', '/api/nothing/here/')
    expect(r.status).toBe(404)
    expect(r.headers.get('content-type')).toBe('application/json')
    expect(await json(r)).toEqual({ type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null })
  })

  test('a known path with a wrong method is a 405 with an Allow header, before authentication', async () => {
    const r = await w.call('DELETE', `/api/projects/${w.project.id}/`, { key: null })
    expect(r.status).toBe(405)
    expect(r.headers.get('allow')).toBe('GET, PATCH, HEAD, OPTIONS')
    expect(await json(r)).toEqual({ type: 'invalid_request', code: 'method_not_allowed', detail: 'Method "DELETE" not allowed.', attr: null })
  })

  test('a body over the limit is a 413, declared or streamed', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(2000) })
    const declared = await w.call('PATCH', `/api/projects/${w.project.id}/`, { body: big })
    expect(declared.status).toBe(413)
    expect(await json(declared)).toEqual({ type: 'client_error', code: 'request_too_large', detail: 'Request too large.', attr: null })

    let sent = 0
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 512
        controller.enqueue(new Uint8Array(512).fill(32))
      },
    })
    const streamed = await w.handler(
      new Request(`${BASE}/api/projects/${w.project.id}/`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${w.key}`, 'content-type': 'application/json' },
        body: endless,
        duplex: 'half',
      } as RequestInit),
    )
    expect(streamed.status).toBe(413)
    expect(sent).toBeLessThan(4096) // reading stopped right after the limit
  })

  test('malformed JSON is a 400 parse_error; a non-object body a 400 validation_error', async () => {
    const r = await w.call('PATCH', `/api/projects/${w.project.id}/`, { body: '{"name": ' })
    expect(r.status).toBe(400)
    expect(await json(r)).toMatchObject({ type: 'invalid_request', code: 'parse_error', attr: null })
    const list = await w.call('PATCH', `/api/projects/${w.project.id}/`, { body: [1, 2] })
    expect(await json(list)).toEqual({ type: 'validation_error', code: 'invalid_input', detail: 'Invalid data. Expected a dictionary, but got list.', attr: null })
    const deep = await w.call('PATCH', `/api/projects/${w.project.id}/`, { body: '['.repeat(200) + ']'.repeat(200) })
    expect(deep.status).toBe(400)
    const badUtf8 = await w.call('PATCH', `/api/projects/${w.project.id}/`, { body: new Uint8Array([0x7b, 0xff, 0x7d]) })
    expect(badUtf8.status).toBe(400)
  })

  test('validation errors name the field in attr', async () => {
    const r = await w.call('PATCH', `/api/projects/${w.project.id}/`, { body: { timezone: 'Mars/Olympus' } })
    expect(r.status).toBe(400)
    expect(await json(r)).toEqual({ type: 'validation_error', code: 'invalid_input', detail: '"Mars/Olympus" is not a valid choice.', attr: 'timezone' })
    const nested = await w.call('PATCH', `/api/projects/${w.project.id}/`, { body: { test_account_filters: [{ key: 'email' }, { operator: 'exact' }] } })
    expect(await json(nested)).toMatchObject({ code: 'required', detail: 'This field is required.', attr: 'test_account_filters__1__key' })
    const nul = await w.call('PATCH', `/api/projects/${w.project.id}/`, { body: { name: 'a\u0000b' } })
    expect(await json(nul)).toMatchObject({ code: 'null_characters_not_allowed', attr: 'name' })
  })

  test('requests outside the base path are 404', async () => {
    const handler = createHandler(w.sightline, { basePath: '/sightline/' })
    const outside = await handler(new Request(`${BASE}/api/projects/`, { headers: { authorization: `Bearer ${w.key}` } }))
    expect(outside.status).toBe(404)
    const prefixOnly = await handler(new Request(`${BASE}/sightlineX/api/projects/`, { headers: { authorization: `Bearer ${w.key}` } }))
    expect(prefixOnly.status).toBe(404)
    const inside = await handler(new Request(`${BASE}/sightline/api/projects`, { headers: { authorization: `Bearer ${w.key}` } }))
    expect(inside.status).toBe(200)
  })

  test("a 404 outside the base path names the prefix the handler serves and the path it got", async () => {
    const handler = createHandler(w.sightline, { basePath: '/sightline' })
    const get = async (path: string) => {
      const r = await handler(new Request(`${BASE}${path}`, { headers: { authorization: `Bearer ${w.key}` } }))
      expect(r.status, path).toBe(404)
      const body = await json(r)
      expect(body, path).toMatchObject({ type: 'invalid_request', code: 'not_found', attr: null })
      return body.detail as string
    }
    // The prefix forgotten by the client: the handler says where its routes are.
    const bare = await get('/api/projects/')
    expect(bare).toContain('under "/sightline" (its basePath)')
    expect(bare).toContain('request "/sightline/api/projects/"')
    // Mounted under another prefix: the detail names the basePath to pass.
    const other = await get('/analytics/api/projects/')
    expect(other).toContain('"/analytics/api/projects/" looks like one of its routes under "/analytics": pass basePath "/analytics"')
    // Nothing of Sightline's: the detail still names the prefix and the path.
    const stranger = await get('/favicon.ico')
    expect(stranger).toContain('under "/sightline"')
    expect(stranger).toContain('"/favicon.ico" is outside it')
  })

  test('a handler without basePath mounted under a prefix says which basePath to pass; other 404s are unchanged', async () => {
    const handler = createHandler(w.sightline)
    const r = await handler(new Request(`${BASE}/sightline/api/projects/`, { headers: { authorization: `Bearer ${w.key}` } }))
    expect(r.status).toBe(404)
    expect((await json(r)).detail).toBe(
      'Not found. This handler serves its routes from the root (no basePath); "/sightline/api/projects/" looks like one of its routes under "/sightline": pass basePath "/sightline" to createHandler.',
    )
    for (const path of ['/api/nothing/here/', '/api/nothing/e/', '/nope/nope/nope/nope/api/projects/']) {
      const plain = await handler(new Request(`${BASE}${path}`))
      expect(await json(plain), path).toEqual({ type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null })
    }
  })

  test('HEAD answers as GET without a body; OPTIONS lists the methods', async () => {
    const head = await w.call('HEAD', '/api/projects/')
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    const options = await w.call('OPTIONS', '/api/projects/', { key: null })
    expect(options.status).toBe(204)
    expect(options.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS')
  })

  test('an unknown ?format is 404, as DRF answers a format no renderer offers', async () => {
    expect((await w.call('GET', '/api/projects/?format=xml')).status).toBe(404)
    expect((await w.call('GET', '/api/projects/?format=json')).status).toBe(200)
  })

  test('a storage failure is a generic 500, logged through onError, never shown', async () => {
    const logged: unknown[] = []
    const broken = Object.create(w.sightline, {
      projects: { value: { ...w.sightline.projects, list: async () => { throw new StorageError('list projects failed', 'select * from secret_table') } } },
    })
    const failing = createHandler(broken, { onError: (error) => logged.push(error) })
    const r = await failing(new Request(`${BASE}/api/projects/`, { headers: { authorization: `Bearer ${w.key}` } }))
    expect(r.status).toBe(500)
    const text = await r.text()
    expect(JSON.parse(text)).toEqual({ type: 'server_error', code: 'error', detail: 'A server error occurred.', attr: null })
    expect(text).not.toContain('secret_table')
    expect(logged).toHaveLength(1)
    expect(logged[0]).toBeInstanceOf(StorageError)
  })

  test('options are validated once', () => {
    expect(() => createHandler(w.sightline, { basePath: 'no-slash' })).toThrow(/basePath/)
    expect(() => createHandler(w.sightline, { maxPageSize: 5000 })).toThrow(/maxPageSize/)
  })
})
