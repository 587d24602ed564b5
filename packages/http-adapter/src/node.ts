import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FetchHandler } from './handler.js'

/** A `node:http` request listener (also what Express and Fastify's raw objects take). */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>

/**
 * Serves a `FetchHandler` on `node:http`: the request body is streamed to it
 * (the handler enforces its size limit and stops reading past it), the
 * response body is streamed back with backpressure. Under Express, the
 * original URL (`req.originalUrl`) is used, so links keep the mount path.
 * No global is touched.
 */
export function toNodeHandler(handler: FetchHandler): NodeHandler {
  return async (req, res) => {
    const abort = new AbortController()
    res.on('close', () => {
      if (!res.writableFinished) abort.abort()
    })
    const body = hasBody(req) ? bodyStream(req) : undefined
    try {
      const response = await handler(toRequest(req, abort.signal, body?.stream))
      // An answer given before the whole body arrived (a 413, a 401 ...) waits
      // for the rest, read and discarded: closing a socket that holds unread
      // bytes (a 413 closes it) makes the kernel reset the connection, and a
      // client still sending then sees ECONNRESET or EPIPE instead of the answer.
      const drained = req.complete || (await drain(req, res, body))
      await writeResponse(response, res, drained ? {} : { connection: 'close' })
    } catch {
      // node:http ignores the listener's promise: a failure here (a socket gone mid-answer) must not become an unhandled rejection.
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ type: 'server_error', code: 'error', detail: 'A server error occurred.', attr: null }))
      } else {
        res.destroy()
      }
    }
  }
}

/** Bytes of an unread request body read and discarded before answering; past them the connection is closed instead. */
const DRAIN_LIMIT = 64 * 1024 * 1024

const hasBody = (req: IncomingMessage) => {
  const method = (req.method ?? 'GET').toUpperCase()
  return method !== 'GET' && method !== 'HEAD'
}

function toRequest(req: IncomingMessage, signal: AbortSignal, body: ReadableStream<Uint8Array> | undefined): Request {
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true
  const host = req.headers.host ?? 'localhost'
  const path = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/'
  const scheme = encrypted ? 'https' : 'http'
  let url: URL
  try {
    url = new URL(`${scheme}://${host}`)
  } catch {
    url = new URL(`${scheme}://localhost`)
  }
  // The request target is a path, set as one: resolved against the origin, `//x/...` would be read as another host.
  const target = path.startsWith('/') ? path : `/${path}`
  const query = target.indexOf('?')
  url.pathname = query === -1 ? target : target.slice(0, query)
  url.search = query === -1 ? '' : target.slice(query)
  const headers = new Headers()
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    try {
      headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!)
    } catch {
      // A header the Fetch API refuses (invalid characters) is left out.
    }
  }
  return new Request(url, {
    method: (req.method ?? 'GET').toUpperCase(),
    headers,
    signal,
    ...(body && { body, duplex: 'half' as const }),
  })
}

/**
 * Reads the rest of a request body and discards it, up to `DRAIN_LIMIT`
 * bytes. True once the request has arrived whole; false when it is larger
 * than that or the client went away (the connection is then closed).
 */
function drain(req: IncomingMessage, res: ServerResponse, body: RequestBody | undefined): Promise<boolean> {
  body?.discard()
  if (req.destroyed || res.destroyed) return Promise.resolve(req.complete)
  return new Promise<boolean>((resolve) => {
    let read = 0
    const done = (whole: boolean) => {
      req.off('data', count)
      req.off('end', ended)
      req.off('close', closed)
      res.off('close', closed)
      resolve(whole)
    }
    const count = (chunk: Buffer) => {
      read += chunk.byteLength
      if (read > DRAIN_LIMIT) done(false)
    }
    const ended = () => done(true)
    const closed = () => done(req.complete)
    req.on('data', count)
    req.once('end', ended)
    req.once('close', closed)
    res.once('close', closed)
    req.resume()
  })
}

interface RequestBody {
  readonly stream: ReadableStream<Uint8Array>
  /** Stops handing chunks to the stream: what arrives later is dropped. */
  discard(): void
}

/**
 * The request as a Web stream that pauses the socket while the handler is not
 * reading. Once the handler cancels it (a 413), the rest is drained, unread.
 */
function bodyStream(req: IncomingMessage): RequestBody {
  let open = true
  let close = () => {}
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      close = () => {
        if (!open) return
        open = false
        controller.close()
      }
      const fail = (error: Error) => {
        if (!open) return
        open = false
        controller.error(error)
      }
      req.on('data', (chunk: Buffer) => {
        if (!open) return
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
        if ((controller.desiredSize ?? 0) <= 0) req.pause()
      })
      req.once('end', () => {
        if (!open) return
        open = false
        controller.close()
      })
      req.once('error', fail)
      req.once('close', () => {
        if (!req.complete) fail(new Error('the client closed the request before sending all of it'))
      })
    },
    pull() {
      req.resume()
    },
    cancel() {
      open = false
      req.resume()
    },
  })
  return { stream, discard: () => close() }
}

async function writeResponse(response: Response, res: ServerResponse, extra: Readonly<Record<string, string>>): Promise<void> {
  const headers: Record<string, string | string[]> = {}
  response.headers.forEach((value, key) => {
    if (key !== 'set-cookie') headers[key] = value
  })
  Object.assign(headers, extra)
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) headers['set-cookie'] = cookies
  res.writeHead(response.status, headers)
  if (!response.body) {
    res.end()
    return
  }
  const reader = response.body.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      if (res.destroyed) {
        await reader.cancel()
        return
      }
      if (!res.write(value)) await drained(res)
    }
  } finally {
    reader.releaseLock()
  }
  res.end()
}

/** Resolves when `res` can take more, or is closed; leaves no listener behind (a long streamed answer waits many times). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}
