import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import express from 'express'
import Fastify from 'fastify'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createHandler, toNodeHandler, type FetchHandler } from '@sightline/http-adapter'
import { json, type World, world } from './fixture.js'

/**
 * Each mount is the few lines the README shows, under `/sightline`, on
 * 127.0.0.1 port 0. Every test then talks to it over real HTTP.
 */
const mounts: Record<string, (handler: FetchHandler) => Promise<{ url: string; close(): Promise<void> }>> = {
  async 'node:http'(handler) {
    const server = createServer(toNodeHandler(handler))
    return listen(server)
  },
  async 'Express 5'(handler) {
    const app = express()
    app.use('/sightline', toNodeHandler(handler)) // before any body parser: the handler reads the body itself
    app.get('/health', (_req, res) => void res.send('ok'))
    return listen(createServer(app))
  },
  async 'Fastify 5'(handler) {
    const app = Fastify()
    const node = toNodeHandler(handler)
    await app.register(
      async (scope) => {
        scope.removeAllContentTypeParsers() // leave the body stream to the handler
        scope.addContentTypeParser('*', (_request, _payload, done) => done(null))
        scope.all('/*', (request, reply) => {
          reply.hijack()
          void node(request.raw, reply.raw)
        })
      },
      { prefix: '/sightline' },
    )
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as AddressInfo
    return { url: `http://127.0.0.1:${port}`, close: () => app.close() }
  },
  async Hono(handler) {
    const app = new Hono()
    app.all('/sightline/*', (c) => handler(c.req.raw))
    app.get('/health', (c) => c.text('ok'))
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
    await new Promise<void>((resolve) => server.once('listening', resolve))
    const { port } = server.address() as AddressInfo
    return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) }
  },
}

async function listen(server: Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

let w: World
beforeAll(async () => {
  w = await world()
  for (let i = 0; i < 3; i++) await w.sightline.projects.create({ organizationId: w.org.id, name: `P${i}` })
})
afterAll(() => w.close())

describe.each(Object.keys(mounts))('mounted on %s under /sightline', (name) => {
  let url: string
  let close: () => Promise<void>
  beforeAll(async () => {
    const handler = createHandler(w.sightline, { basePath: '/sightline', maxBodyBytes: 4096, onError: () => {} })
    ;({ url, close } = await mounts[name]!(handler))
  })
  afterAll(() => close())
  const auth = () => ({ authorization: `Bearer ${w.key}` })

  test('lists with absolute links that keep the mount path', async () => {
    const r = await fetch(`${url}/sightline/api/projects/?limit=2`, { headers: auth() })
    expect(r.status).toBe(200)
    const body = await json(r)
    expect(body.count).toBe(4)
    expect(body.next).toBe(`${url}/sightline/api/projects/?limit=2&offset=2`)
    const next = await json(await fetch(body.next, { headers: auth() }))
    expect(next.next).toBeNull()
  })

  test('reads JSON bodies and answers errors as JSON', async () => {
    const patched = await fetch(`${url}/sightline/api/projects/${w.project.id}`, {
      method: 'PATCH',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Web via ${name}` }),
    })
    expect(patched.status).toBe(200)
    expect((await json(patched)).name).toBe(`Web via ${name}`)
    const missing = await fetch(`${url}/sightline/api/nope/`, { headers: auth() })
    expect(missing.status).toBe(404)
    expect(await json(missing)).toMatchObject({ code: 'not_found' })
  })

  test('refuses an oversized body with 413 and stays up', async () => {
    const r = await fetch(`${url}/sightline/api/projects/${w.project.id}/`, {
      method: 'PATCH',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(100_000) }),
    })
    expect(r.status).toBe(413)
    expect(await json(r)).toMatchObject({ code: 'request_too_large' })
    expect((await fetch(`${url}/sightline/api/users/@me/`, { headers: auth() })).status).toBe(200)
  })

  test('takes captures', async () => {
    const r = await fetch(`${url}/sightline/batch/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: w.project.apiToken, batch: [{ event: `via ${name}`, distinct_id: 'u' }] }),
    })
    expect(await json(r)).toEqual({ status: 1 })
    expect((await w.sightline.events.list(w.project.id, { event: `via ${name}` })).length).toBe(1)
  })
})
