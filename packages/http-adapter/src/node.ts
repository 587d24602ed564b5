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
    try {
      const response = await handler(toRequest(req, abort.signal))
      await writeResponse(response, res)
      // A body the handler did not read (a 413) is drained, so the client can read the answer.
      if (!req.complete) req.resume()
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

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
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
  const method = (req.method ?? 'GET').toUpperCase()
  const hasBody = method !== 'GET' && method !== 'HEAD'
  return new Request(url, {
    method,
    headers,
    signal,
    ...(hasBody && { body: bodyStream(req), duplex: 'half' as const }),
  })
}

/**
 * The request as a Web stream that pauses the socket while the handler is not
 * reading. Once the handler cancels it (a 413), the rest is drained, unread.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let open = true
  return new ReadableStream<Uint8Array>({
    start(controller) {
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
}

async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {}
  response.headers.forEach((value, key) => {
    if (key !== 'set-cookie') headers[key] = value
  })
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
      if (!res.write(value)) await new Promise<void>((resolve) => {
        res.once('drain', resolve)
        res.once('close', resolve)
      })
    }
  } finally {
    reader.releaseLock()
  }
  res.end()
}
