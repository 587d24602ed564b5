import { createServer, type Server } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createHandler, toNodeHandler } from '@sightline/http-adapter'
import { json, type World, world } from './fixture.js'

const LIMIT = 1024 * 1024
const TOO_LARGE = { type: 'client_error', code: 'request_too_large', detail: 'Request too large.', attr: null }

let w: World
let server: Server
let port: number

beforeAll(async () => {
  w = await world()
  server = createServer(toNodeHandler(createHandler(w.sightline, { maxCaptureBodyBytes: LIMIT, onError: () => {} })))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  await w.close()
})

/**
 * A client that sends the whole request before reading the answer, as most
 * HTTP clients do (curl, Python's requests). Half-open, so it keeps sending
 * after the server's FIN: a socket error while it sends (the server closed
 * with bytes unread, so the kernel reset the connection: EPIPE, ECONNRESET)
 * is what the bug looked like, and fails the request.
 */
function sendWhole(head: string, body: Buffer, chunked: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true })
    const received: Buffer[] = []
    let failed = false
    socket.on('data', (chunk: Buffer) => received.push(chunk))
    socket.on('error', (error) => {
      failed = true
      reject(error)
    })
    socket.on('close', () => {
      if (!failed) resolve(Buffer.concat(received).toString('utf8'))
    })
    socket.on('connect', async () => {
      const write = (data: string | Buffer) => new Promise<void>((done) => (socket.write(data) ? done() : socket.once('drain', done)))
      await write(`${head}\r\n${chunked ? 'transfer-encoding: chunked' : `content-length: ${body.byteLength}`}\r\n\r\n`)
      for (let at = 0; at < body.byteLength && !failed; at += 64 * 1024) {
        const part = body.subarray(at, at + 64 * 1024)
        await write(chunked ? Buffer.concat([Buffer.from(`${part.byteLength.toString(16)}\r\n`), part, Buffer.from('\r\n')]) : part)
      }
      if (chunked) await write('0\r\n\r\n')
      socket.end()
    })
  })
}

const statusLine = (raw: string) => raw.slice(0, raw.indexOf('\r\n'))

describe('a body over the capture limit, over node:http', () => {
  // 6 MiB: far more than the socket buffers hold, so the client is still sending when the 413 is decided.
  const big = Buffer.alloc(6 * LIMIT, 0x20)
  const head = 'POST /batch/ HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json'

  test('declared by Content-Length: the client finishes sending and reads the 413, every time', async () => {
    for (let i = 0; i < 5; i++) {
      const raw = await sendWhole(head, big, false)
      expect(statusLine(raw)).toBe('HTTP/1.1 413 Payload Too Large')
      expect(raw).toContain(JSON.stringify(TOO_LARGE))
    }
  })

  test('chunked, with no length: the client finishes sending and reads the 413, every time', async () => {
    for (let i = 0; i < 5; i++) {
      const raw = await sendWhole(head, big, true)
      expect(statusLine(raw)).toBe('HTTP/1.1 413 Payload Too Large')
      expect(raw).toContain(JSON.stringify(TOO_LARGE))
    }
  })

  test('fetch gets the 413 with PostHog’s body, then the server goes on serving', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`http://127.0.0.1:${port}/batch/`, { method: 'POST', body: big, headers: { 'content-type': 'application/json' } })
      expect(r.status).toBe(413)
      expect(await json(r)).toEqual(TOO_LARGE)
    }
    const ok = await fetch(`http://127.0.0.1:${port}/batch/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: w.project.apiToken, batch: [{ event: 'after', distinct_id: 'u' }] }),
    })
    expect(await json(ok)).toEqual({ status: 1 })
    expect((await w.sightline.events.list(w.project.id)).map((e) => e.event)).toEqual(['after'])
  })

  test('a gzip bomb (64 MiB of JSON in 64 KiB) is a 413 once it inflates past the limit, and stores nothing', async () => {
    // Valid JSON once inflated: without the limit after decompression, this event would be stored.
    const bomb = gzipSync(JSON.stringify({ api_key: w.project.apiToken, batch: [{ event: 'bomb', distinct_id: 'u', properties: { x: 'y'.repeat(64 * LIMIT) } }] }))
    expect(bomb.byteLength).toBeLessThan(LIMIT)
    for (const [path, headers] of [
      ['/batch/', { 'content-type': 'application/json', 'content-encoding': 'gzip' }],
      ['/e/?compression=gzip-js', { 'content-type': 'text/plain' }],
      ['/batch/', { 'content-type': 'application/json' }], // unlabelled gzip, PostHog's last try
    ] as const) {
      const r = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', body: bomb, headers })
      expect(r.status, path).toBe(413)
      expect(await json(r)).toEqual(TOO_LARGE)
    }
    expect((await w.sightline.events.list(w.project.id)).map((e) => e.event)).not.toContain('bomb')
  })

  test('base64 and form-encoded bodies count as sent: over the limit is a 413', async () => {
    const payload = JSON.stringify({ api_key: w.project.apiToken, batch: [{ event: 'b64', distinct_id: 'u', properties: { x: 'y'.repeat(LIMIT) } }] })
    const b64 = Buffer.from(payload).toString('base64')
    for (const [body, type] of [
      [`data=${encodeURIComponent(b64)}`, 'application/x-www-form-urlencoded'],
      [`data=${b64}`, 'text/plain'],
    ] as const) {
      const r = await fetch(`http://127.0.0.1:${port}/e/`, { method: 'POST', body, headers: { 'content-type': type } })
      expect(r.status, type).toBe(413)
      expect(await json(r)).toEqual(TOO_LARGE)
    }
  })
})
