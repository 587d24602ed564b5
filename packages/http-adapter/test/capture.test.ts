import { gzipSync } from 'node:zlib'
import { afterAll, beforeEach, describe, expect, test } from 'vitest'
import { BASE, json, NOW, world, type World } from './fixture.js'

let w: World
beforeEach(async () => {
  await w?.close()
  w = await world({ maxCaptureBodyBytes: 64 * 1024 })
})
afterAll(() => w.close())

const post = (path: string, body: NonNullable<RequestInit['body']>, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  w.handler(new Request(`${BASE}${path}`, { method: 'POST', body, headers }))
const events = () => w.sightline.events.list(w.project.id)
const ok = async (r: Response) => {
  expect(r.status, await r.clone().text()).toBe(200)
  expect(await json(r)).toEqual({ status: 1 })
}

describe('capture payloads', () => {
  test('a batch with api_key and sent_at (posthog-node, posthog-python)', async () => {
    await ok(
      await post('/batch/', JSON.stringify({
        api_key: w.project.apiToken,
        sent_at: '2026-01-15T12:00:10Z',
        batch: [
          { event: 'a', distinct_id: 'u1', timestamp: '2026-01-15T12:00:05Z', properties: { plan: 'pro' } },
          { event: 'b', distinct_id: 'u1', timestamp: '2026-01-15T12:00:08Z' },
        ],
      })),
    )
    const stored = await events()
    expect(stored.map((e) => [e.event, e.timestamp])).toEqual([
      // sent_at corrects the client clock: now + (timestamp - sent_at)
      ['b', '2026-01-15T11:59:58.000000Z'],
      ['a', '2026-01-15T11:59:55.000000Z'],
    ])
    expect(stored[1]!.properties).toMatchObject({ plan: 'pro' })
  })

  test('a single event with the token as `token`, `$token`, `properties.token`, or in the query', async () => {
    await ok(await post('/e/', JSON.stringify({ event: 'one', distinct_id: 'u', token: w.project.apiToken })))
    await ok(await post('/capture/', JSON.stringify({ event: 'two', distinct_id: 'u', $token: w.project.apiToken })))
    await ok(await post('/i/v0/e/', JSON.stringify({ event: 'three', properties: { distinct_id: 'u', token: w.project.apiToken } })))
    await ok(await post(`/track/?token=${w.project.apiToken}`, JSON.stringify([{ event: 'four', $distinct_id: 'u' }])))
    expect((await events()).map((e) => e.event).sort()).toEqual(['four', 'one', 'three', 'two'])
  })

  test('gzip by header or ?compression=gzip-js, base64 form data, GET ?data=', async () => {
    const payload = (event: string) => JSON.stringify({ api_key: w.project.apiToken, batch: [{ event, distinct_id: 'u' }] })
    await ok(await post('/batch/', gzipSync(payload('gzip-header')), { 'content-type': 'application/json', 'content-encoding': 'gzip' }))
    await ok(await post('/e/?compression=gzip-js&ver=1.200.0', gzipSync(payload('gzip-js')), { 'content-type': 'text/plain' }))
    const b64 = Buffer.from(payload('form')).toString('base64')
    await ok(await post('/e/', `data=${encodeURIComponent(b64)}`, { 'content-type': 'application/x-www-form-urlencoded' }))
    await ok(await post('/e/', `data=${b64}`, { 'content-type': 'text/plain' }))
    await ok(await w.handler(new Request(`${BASE}/e/?data=${encodeURIComponent(Buffer.from(payload('get')).toString('base64'))}`)))
    await ok(await post('/batch/', gzipSync(payload('unlabelled-gzip')), { 'content-type': 'application/json' }))
    expect((await events()).map((e) => e.event).sort()).toEqual(['form', 'form', 'get', 'gzip-header', 'gzip-js', 'unlabelled-gzip'])
  })

  test('distinct ids are coerced as PostHog: numbers stringified, cut to 200; missing or blank is a 400 naming the event', async () => {
    const token = w.project.apiToken
    await ok(await post('/batch/', JSON.stringify({ api_key: token, batch: [{ event: 'n', distinct_id: 12345 }, { event: 'long', distinct_id: 'x'.repeat(250) }] })))
    const stored = await events()
    expect(stored.map((e) => e.distinctId).sort()).toEqual(['12345', 'x'.repeat(200)])

    const missing = await post('/batch/', JSON.stringify({ api_key: token, batch: [{ event: 'e' }] }))
    expect(missing.status).toBe(400)
    expect(await json(missing)).toEqual({
      type: 'validation_error',
      code: 'invalid_payload',
      detail: 'Invalid payload: All events must have the event field "distinct_id"! (the event at index 0 of the batch)',
      attr: 'batch__0__distinct_id',
    })
    const blank = await post('/batch/', JSON.stringify({ api_key: token, batch: [{ event: 'e', distinct_id: '' }] }))
    expect((await json(blank)).detail).toBe('Invalid payload: Event field "distinct_id" should not be blank! (the event at index 0 of the batch)')
    // Whitespace only is blank too (PostHog stores it); so is an id that is whitespace once cut to 200.
    for (const [batch, attr] of [
      [[{ event: 'e', distinct_id: 'ok' }, { event: 'e', distinct_id: '  ' }], 'batch__1__distinct_id'],
      [[{ event: 'e', $distinct_id: '\t\n' }], 'batch__0__$distinct_id'],
      [[{ event: 'e', distinct_id: 'ok', properties: { distinct_id: ' ' } }], 'batch__0__properties__distinct_id'],
      [[{ event: 'e', distinct_id: `${' '.repeat(200)}x` }], 'batch__0__distinct_id'],
    ] as const) {
      const r = await post('/batch/', JSON.stringify({ api_key: token, batch }))
      expect(r.status, attr).toBe(400)
      expect(await json(r)).toMatchObject({ code: 'invalid_payload', detail: expect.stringContaining('Event field "distinct_id" should not be blank!'), attr })
    }
    const single = await post('/e/', JSON.stringify({ api_key: token, event: 'e', distinct_id: '   ' }))
    expect(await json(single)).toEqual({ type: 'validation_error', code: 'invalid_payload', detail: 'Invalid payload: Event field "distinct_id" should not be blank!', attr: 'distinct_id' })
    expect(await events()).toHaveLength(2) // nothing of a rejected batch is stored
  })

  test('an unparseable timestamp is dropped: the event takes the server clock', async () => {
    await ok(await post('/e/', JSON.stringify({ api_key: w.project.apiToken, event: 'e', distinct_id: 'u', timestamp: 'not a time', sent_at: 'nor this' })))
    expect((await events())[0]!.timestamp).toBe(`${NOW.toISOString().slice(0, 23)}000Z`)
  })

  test('top-level $set and $set_once are merged into properties (top level wins); uuid is kept', async () => {
    const uuid = '0190b5a2-8c3e-7d4f-9a1b-2c3d4e5f6a7b'
    await ok(
      await post('/e/', JSON.stringify({
        api_key: w.project.apiToken,
        event: '$identify',
        distinct_id: 'user-1',
        uuid,
        properties: { $set: { plan: 'free', seats: 1 }, $set_once: { first: 'a' } },
        $set: { plan: 'pro' },
        $set_once: { source: 'ads' },
      })),
    )
    const [event] = await events()
    expect(event!.uuid).toBe(uuid)
    expect(event!.properties.$set).toEqual({ plan: 'pro', seats: 1 })
    expect(event!.properties.$set_once).toEqual({ first: 'a', source: 'ads' })
    expect((await w.sightline.persons.get(w.project.id, 'user-1'))!.properties).toMatchObject({ plan: 'pro', seats: 1, first: 'a', source: 'ads' })
  })

  test('token errors: 401 with PostHog’s bodies', async () => {
    const missing = await post('/e/', JSON.stringify({ event: 'e', distinct_id: 'u' }))
    expect(missing.status).toBe(401)
    expect(await json(missing)).toEqual({
      type: 'authentication_error',
      code: 'missing_api_key',
      detail: 'API key not provided. You can find your project API key in PostHog project settings.',
      attr: null,
    })
    const wrong = await post('/e/', JSON.stringify({ event: 'e', distinct_id: 'u', api_key: 'phc_unknown' }))
    expect(wrong.status).toBe(401)
    expect(await json(wrong)).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key' })
    const personal = await post('/e/', JSON.stringify({ event: 'e', distinct_id: 'u', api_key: w.key }))
    expect(await json(personal)).toMatchObject({ code: 'personal_api_key', detail: 'Provided API key is not valid: personal_api_key' })
    expect(await events()).toHaveLength(0)
  })

  test('empty, malformed and oversized payloads', async () => {
    const empty = await post('/e/', '')
    expect(await json(empty)).toMatchObject({ code: 'no_data' })
    const garbage = await post('/e/', 'not json at all {')
    expect(empty.status).toBe(400)
    expect(await json(garbage)).toMatchObject({ type: 'validation_error', code: 'invalid_payload' })
    const badGzip = await post('/e/', new Uint8Array([1, 2, 3]), { 'content-encoding': 'gzip' })
    expect(await json(badGzip)).toMatchObject({ code: 'invalid_payload' })
    const big = await post('/batch/', JSON.stringify({ api_key: w.project.apiToken, batch: [{ event: 'e', distinct_id: 'u', properties: { x: 'y'.repeat(70_000) } }] }))
    expect(big.status).toBe(413)
    const bomb = gzipSync(JSON.stringify({ api_key: w.project.apiToken, batch: [{ event: 'e', distinct_id: 'u', properties: { x: 'y'.repeat(200_000) } }] }))
    expect(bomb.byteLength).toBeLessThan(64 * 1024)
    expect((await post('/batch/', bomb, { 'content-encoding': 'gzip' })).status).toBe(413)
    const nulls = await post('/batch/', JSON.stringify({ api_key: w.project.apiToken, batch: [null] }))
    expect(await json(nulls)).toMatchObject({ detail: 'Invalid payload: some events are null (the event at index 0 of the batch)', attr: 'batch__0' })
    const noEvent = await post('/batch/', JSON.stringify({ api_key: w.project.apiToken, batch: [{ distinct_id: 'u' }] }))
    expect(await json(noEvent)).toMatchObject({ detail: 'Invalid payload: All events must have the event name field "event"! (the event at index 0 of the batch)', attr: 'batch__0__event' })
    const badUuid = await post('/batch/', JSON.stringify({ api_key: w.project.apiToken, batch: [{ event: 'e', distinct_id: 'u', uuid: 'nope' }] }))
    expect(await json(badUuid)).toMatchObject({ detail: 'Invalid payload: Event field "uuid" is not a valid UUID! (the event at index 0 of the batch)', attr: 'batch__0__uuid' })
    expect(await events()).toHaveLength(0)
  })

  // Was "an empty event name is dropped, as PostHog drops it" (the Python capture's silent drop, answered {"status": 1}).
  test('an event without a name refuses the whole payload, naming the event, as PostHog’s capture does', async () => {
    const token = w.project.apiToken
    for (const [name, value] of [['null', null], ['empty', ''], ['false', false], ['zero', 0], ['empty list', []]] as const) {
      const r = await post('/batch/', JSON.stringify({ api_key: token, batch: [{ event: 'kept?', distinct_id: 'u' }, { event: 'also?', distinct_id: 'u' }, { event: value, distinct_id: 'u' }] }))
      expect(r.status, name).toBe(400)
      expect(await json(r)).toEqual({
        type: 'validation_error',
        code: 'invalid_payload',
        detail: 'Invalid payload: All events must have the event name field "event"! (the event at index 2 of the batch)',
        attr: 'batch__2__event',
      })
    }
    // A bare array names the index alone; a lone event gets PostHog's exact detail.
    const array = await post(`/batch/?token=${token}`, JSON.stringify([{ event: 'a', distinct_id: 'u' }, { event: null, distinct_id: 'u' }]))
    expect(await json(array)).toMatchObject({ detail: 'Invalid payload: All events must have the event name field "event"! (the event at index 1 of the batch)', attr: '1__event' })
    const single = await post('/e/', JSON.stringify({ api_key: token, event: '', distinct_id: 'u' }))
    expect(single.status).toBe(400)
    expect(await json(single)).toEqual({ type: 'validation_error', code: 'invalid_payload', detail: 'Invalid payload: All events must have the event name field "event"!', attr: 'event' })
    expect(await events()).toEqual([])
  })

  test('/engage/ makes a single event an $identify', async () => {
    await ok(await post('/engage/', JSON.stringify({ token: w.project.apiToken, distinct_id: 'u', $set: { name: 'Ada' }, event: 'ignored' })))
    expect((await events()).map((e) => e.event)).toEqual(['$identify'])
  })

  test('CORS: preflight and echoed origin, as PostHog’s cors_response', async () => {
    const preflight = await w.handler(new Request(`${BASE}/e/`, { method: 'OPTIONS', headers: { origin: 'https://shop.example.com' } }))
    expect(preflight.status).toBe(200)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://shop.example.com')
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true')
    const r = await post('/e/', JSON.stringify({ token: 'phc_x' }), { origin: 'https://shop.example.com' })
    expect(r.status).toBe(401)
    expect(r.headers.get('access-control-allow-origin')).toBe('https://shop.example.com')
  })
})
