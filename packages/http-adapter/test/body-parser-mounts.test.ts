import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import express from 'express'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createHandler, toNodeHandler, type FetchHandler } from '@sightline/http-adapter'
import { json, type World, world } from './fixture.js'

/**
 * Hosts that parse the body before Sightline's handler sees it. A request
 * whose stream was already read must be answered, never left waiting for
 * bytes that will not come: each test is bounded by vitest's timeout only.
 */

let w: World
let handler: FetchHandler
const servers: Array<() => Promise<void>> = []
beforeAll(async () => {
  w = await world()
  handler = createHandler(w.sightline, { basePath: '/sightline', onError: () => {} })
})
afterAll(async () => {
  for (const close of servers) await close()
  await w.close()
})

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  servers.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function listenFastify(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  servers.push(() => app.close())
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
}

const auth = () => ({ authorization: `Bearer ${w.key}` })
const capturedCount = async (event: string) => (await w.sightline.events.list(w.project.id, { event })).length

describe('Express 5 with a body parser ahead of Sightline', () => {
  let url: string
  beforeAll(async () => {
    const app = express()
    app.use(express.json())
    app.use(express.urlencoded())
    app.use(express.text())
    app.use('/sightline', toNodeHandler(handler))
    url = await listen(createServer(app))
  })

  test('express.json(): the parsed body is used, for management and capture (gzip inflated by the parser)', async () => {
    const patched = await fetch(`${url}/sightline/api/projects/${w.project.id}/`, {
      method: 'PATCH',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Parsed by express.json()' }),
    })
    expect(patched.status).toBe(200)
    expect((await json(patched)).name).toBe('Parsed by express.json()')

    // posthog-node's way: gzip with Content-Encoding, which express.json() inflates.
    const batch = { api_key: w.project.apiToken, batch: [{ event: 'via express.json', distinct_id: 'u' }] }
    const captured = await fetch(`${url}/sightline/batch/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify(batch)),
    })
    expect(await json(captured)).toEqual({ status: 1 })
    expect(await capturedCount('via express.json')).toBe(1)
  }, 10_000)

  test('express.urlencoded(): a flat form (posthog-js base64 data) is re-encoded and captured', async () => {
    const data = Buffer.from(JSON.stringify({ event: 'via express.urlencoded', distinct_id: 'u', properties: { token: w.project.apiToken } })).toString('base64')
    const r = await fetch(`${url}/sightline/e/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ data }).toString(),
    })
    expect(await json(r)).toEqual({ status: 1 })
    expect(await capturedCount('via express.urlencoded')).toBe(1)
  }, 10_000)

  test('express.text() over a gzip body (posthog-js gzip-js): answered at once with what to change, nothing stored', async () => {
    const gz = gzipSync(JSON.stringify({ event: 'via express.text', distinct_id: 'u', properties: { token: w.project.apiToken } }))
    const r = await fetch(`${url}/sightline/e/?compression=gzip-js`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: gz })
    expect(r.status).toBe(503)
    const body = await json(r)
    expect(body).toMatchObject({ type: 'server_error', code: 'body_already_read', attr: null })
    expect(body.detail).toContain('before app.use(express.json())')
    expect(await capturedCount('via express.text')).toBe(0)
    // The server stays up and serves the next request.
    expect((await fetch(`${url}/sightline/api/users/@me/`, { headers: auth() })).status).toBe(200)
  }, 10_000)
})

describe('Fastify 5 with a route that parses the body', () => {
  test('the raw stream is consumed and nothing is left on it: answered at once with what to change', async () => {
    const app = Fastify()
    const node = toNodeHandler(handler)
    app.all('/sightline/*', (request, reply) => {
      reply.hijack()
      void node(request.raw, reply.raw)
    })
    const url = await listenFastify(app)
    const r = await fetch(`${url}/sightline/api/projects/${w.project.id}/`, {
      method: 'PATCH',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'never stored' }),
    })
    expect(r.status).toBe(503)
    const body = await json(r)
    expect(body.code).toBe('body_already_read')
    expect(body.detail).toContain('removeAllContentTypeParsers()')
    expect((await w.sightline.projects.get(w.project.id)).name).not.toBe('never stored')
    // GET has no body to miss: served as usual on the same route.
    expect((await fetch(`${url}/sightline/api/users/@me/`, { headers: auth() })).status).toBe(200)
  }, 10_000)

  test('a route that hands its parsed body on as request.raw.body is served with it', async () => {
    const app = Fastify()
    const node = toNodeHandler(handler)
    app.all('/sightline/*', (request, reply) => {
      reply.hijack()
      void node(Object.assign(request.raw, { body: request.body }), reply.raw)
    })
    const url = await listenFastify(app)
    const r = await fetch(`${url}/sightline/api/projects/${w.project.id}/`, {
      method: 'PATCH',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Parsed by Fastify' }),
    })
    expect(r.status).toBe(200)
    expect((await w.sightline.projects.get(w.project.id)).name).toBe('Parsed by Fastify')
  }, 10_000)
})
