import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FetchHandler } from './handler.js'

/** A `node:http` request listener (also what Express and Fastify's raw objects take). */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>

/**
 * Serves a `FetchHandler` on `node:http`: the request body is streamed to it
 * (the handler enforces its size limit and stops reading past it), the
 * response body is streamed back with backpressure. Under Express, the
 * original URL (`req.originalUrl`) is used, so links keep the mount path.
 * A body a parser ahead already read is taken from `req.body` when it can be
 * sent on unchanged in meaning (see `parsedBody`), else answered at once
 * with a 503 `body_already_read` saying what to change: never a wait for
 * bytes that will not come. No global is touched.
 */
export function toNodeHandler(handler: FetchHandler): NodeHandler {
  let warned = false
  return async (req, res) => {
    const abort = new AbortController()
    res.on('close', () => {
      if (!res.writableFinished) abort.abort()
    })
    // `readableDidRead`: someone took data from the stream before us (a parser ahead); what it took is gone from the stream.
    const consumed = hasBody(req) && (req.readableDidRead || req.readableEnded)
    // Read only in part (a reader that stopped midway): the start is gone whatever `req.body` says.
    const parsed = consumed && req.readableEnded ? parsedBody(req) : null
    const body = hasBody(req) && !consumed ? bodyStream(req) : undefined
    try {
      let response: Response
      if (consumed && parsed === null) {
        if (!warned) {
          warned = true
          process.emitWarning(BODY_ALREADY_READ.detail, { code: 'SIGHTLINE_BODY_ALREADY_READ' })
        }
        response = new Response(JSON.stringify(BODY_ALREADY_READ), { status: 503, headers: { 'content-type': 'application/json' } })
      } else {
        response = await handler(toRequest(req, abort.signal, body?.stream ?? parsed ?? undefined))
      }
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

/**
 * The answer to a request whose body a parser ahead read and left nothing
 * usable: a 5xx (the host's setup, not the client, is at fault, and SDKs keep
 * and retry what a 5xx refuses, where a 4xx makes them drop it), distinct from
 * the generic 500 of bugs and storage errors.
 */
const BODY_ALREADY_READ = {
  type: 'server_error',
  code: 'body_already_read',
  detail:
    "Sightline's handler got a request whose body a body parser ahead of it had already read (express.json(), express.text(), a Fastify content-type parser ...), " +
    'and the parsed body cannot be passed on unchanged. Mount Sightline before any body parser: on Express, app.use(path, toNodeHandler(handler)) before app.use(express.json()); ' +
    "on Fastify, register it in a scope of its own with removeAllContentTypeParsers() and a '*' parser that leaves the stream (http-adapter README, Mounting).",
  attr: null,
} as const

/** A body replayed from what a parser ahead left in `req.body`, with the headers that describe it. */
interface ParsedBody {
  readonly bytes: Uint8Array
  /** The content type to send, or null to keep the request's. */
  readonly contentType: string | null
  /** The bytes are no longer what `Content-Encoding` describes (the parser inflated them). */
  readonly decoded: boolean
}

const isGzip = (bytes: Uint8Array) => bytes.byteLength >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null)

/**
 * What a parser ahead (Express's `express.json()`, `express.raw()`,
 * `express.text()`, `express.urlencoded()`, or a host that copies Fastify's
 * `request.body` onto `request.raw.body`) left in `req.body`, as bytes meaning
 * what the client sent; null when that cannot be had back:
 * - bytes (`express.raw()`): as they are; inflated by the parser unless they still start as gzip;
 * - text (`express.text()`): as UTF-8, unless it holds U+FFFD, the mark of bytes that were not text (posthog-js's gzip);
 * - a parsed form (`express.urlencoded()`): re-encoded when every value is a string or a list of strings, null when nested;
 * - anything else parsed (`express.json()`): as JSON (the parser's own limits and number precision have applied);
 * - nothing (`undefined`: a Fastify route that parsed into `request.body`): null.
 */
function parsedBody(req: IncomingMessage): ParsedBody | null {
  const value = (req as IncomingMessage & { body?: unknown }).body
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
  if (value instanceof Uint8Array) {
    const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
    return { bytes, contentType: null, decoded: !(isGzip(bytes) && /gzip/i.test(String(req.headers['content-encoding'] ?? ''))) }
  }
  if (typeof value === 'string') {
    return value.includes('\uFFFD') ? null : { bytes: new TextEncoder().encode(value), contentType: null, decoded: true }
  }
  if (type === 'application/x-www-form-urlencoded') {
    if (!isPlainObject(value)) return null
    const form = new URLSearchParams()
    for (const [key, v] of Object.entries(value)) {
      if (typeof v === 'string') form.append(key, v)
      else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) for (const x of v) form.append(key, x)
      else return null
    }
    return { bytes: new TextEncoder().encode(form.toString()), contentType: 'application/x-www-form-urlencoded', decoded: true }
  }
  if (value === undefined) return null
  let text: string
  try {
    text = JSON.stringify(value)
  } catch {
    return null // a cycle or a BigInt: not JSON a parser produced
  }
  if (text === undefined) return null
  return { bytes: new TextEncoder().encode(text), contentType: 'application/json', decoded: true }
}

function toRequest(req: IncomingMessage, signal: AbortSignal, body: ReadableStream<Uint8Array> | ParsedBody | undefined): Request {
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
  if (body && !(body instanceof ReadableStream)) {
    // The replayed bytes have their own length, and no longer the client's encoding once the parser inflated them.
    headers.delete('content-length')
    if (body.decoded) headers.delete('content-encoding')
    if (body.contentType !== null) headers.set('content-type', body.contentType)
  }
  const content = body instanceof ReadableStream ? body : body?.bytes
  return new Request(url, {
    method: (req.method ?? 'GET').toUpperCase(),
    headers,
    signal,
    ...(content && { body: content, duplex: 'half' as const }),
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
