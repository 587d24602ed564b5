import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createHandler, toNodeHandler } from '@sightline/http-adapter'
import { json, type World, world } from './fixture.js'

let w: World
let server: Server
let url: string
const errors: unknown[] = []

beforeAll(async () => {
  w = await world()
  server = createServer(toNodeHandler(createHandler(w.sightline, { maxBodyBytes: 8192, onError: (e) => errors.push(e) })))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  await w.close()
})

describe('toNodeHandler', () => {
  test('a chunked body past the limit is cut off with a 413, and the server stays up', async () => {
    let pulls = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (++pulls > 200) return controller.close()
        controller.enqueue(new Uint8Array(1024).fill(32))
      },
    })
    const r = await fetch(`${url}/api/projects/${w.project.id}/`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${w.key}`, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit)
    expect(r.status).toBe(413)
    expect(await json(r)).toMatchObject({ code: 'request_too_large' })
    expect((await fetch(`${url}/api/users/@me/`, { headers: { authorization: `Bearer ${w.key}` } })).status).toBe(200)
  })

  test('a client that hangs up mid-body breaks nothing', async () => {
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${url}/batch/`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '100000' } })
      req.on('error', () => resolve())
      // Hangs up once the start of the body has gone out: mid-body, whatever the machine's speed.
      req.write('{"api_key": "', () => {
        req.destroy()
        resolve()
      })
    })
    const r = await fetch(`${url}/api/projects/`, { headers: { authorization: `Bearer ${w.key}` } })
    expect(r.status).toBe(200)
    expect(errors).toEqual([])
  })

  test('a request target starting with // is a path, never another host', async () => {
    const statusOf = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path, method: 'HEAD', headers: { authorization: `Bearer ${w.key}` } }, (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        })
        req.on('error', reject)
        req.end()
      })
    for (const path of ['//', '////%F3%BA%93%82//0//r/', '//evil.example/api/users/@me/', '//:0/api/projects/']) expect(await statusOf(path), path).toBe(404)
    expect(await statusOf('/api/users/@me/')).toBe(200)
    expect(errors).toEqual([])
  })

  test('HEAD, and a Host header URL cannot hold, are served', async () => {
    const head = await fetch(`${url}/api/projects/`, { method: 'HEAD', headers: { authorization: `Bearer ${w.key}` } })
    expect(head.status).toBe(200)
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/api/nope', headers: { host: '[not a host' } }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      req.end()
    })
    expect(status).toBe(404)
  })
})

describe('toNodeHandler streaming a long answer', () => {
  test('waits for the socket many times and leaves no listener behind', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(120)
    const streamed = toNodeHandler(async () => {
      let sent = 0
      return new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent++ === 200) return controller.close()
            controller.enqueue(chunk)
          },
        }),
      )
    })
    const closeListeners: number[] = []
    const big = createServer((req, res) => {
      res.on('finish', () => closeListeners.push(res.listenerCount('close')))
      void streamed(req, res)
    })
    await new Promise<void>((resolve) => big.listen(0, '127.0.0.1', resolve))
    try {
      const r = await fetch(`http://127.0.0.1:${(big.address() as AddressInfo).port}/`)
      // 200 chunks of 64 KiB: far past the socket's buffer, so writes wait for it again and again.
      expect((await r.arrayBuffer()).byteLength).toBe(200 * 64 * 1024)
      // 'finish' may come a moment after the client has read the last byte (a hang guard, not a measure).
      await expect.poll(() => closeListeners.length, { timeout: 10_000 }).toBe(1)
      // Node's own and the handler's one: each wait for the socket removed its listeners.
      expect(closeListeners[0]).toBeLessThanOrEqual(3)
    } finally {
      await new Promise((resolve) => big.close(resolve))
    }
  })
})
