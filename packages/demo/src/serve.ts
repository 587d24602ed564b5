import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Sightline } from '@sightline/core'
import { createHandler, toNodeHandler } from '@sightline/http-adapter'
import { sightlineUi } from '@sightline/ui'

export interface RunningServer {
  /** `http://127.0.0.1:8000`, with the port actually bound. */
  readonly url: string
  /** Stops accepting requests and waits for open ones; does not close the engine. */
  close(): Promise<void>
}

/**
 * Serves the whole interface of `sightline` on node:http, and the page that
 * draws its insights at `/` unless `ui` is false. Port 0 picks a free one.
 */
export async function startServer(sightline: Sightline, options: { port?: number; host?: string; ui?: boolean } = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  const server = createServer(toNodeHandler(createHandler(sightline, options.ui === false ? {} : { ui: sightlineUi() })))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 8000, host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeIdleConnections()
      }),
  }
}

/** Requests a person can paste to see the API answer: their projects, and the event names of one. */
export function curlExamples(url: string, key: string, projectId: number): string[] {
  const auth = `-H "Authorization: Bearer ${key}"`
  return [`curl -s ${auth} ${url}/api/projects/`, `curl -s ${auth} "${url}/api/projects/${projectId}/event_definitions/?limit=5"`]
}

/**
 * Analyses of the demo's own events to paste: a trend (daily signups over the last 30 days), a
 * funnel (signup started -> signup -> onboarding completed) and a saved insight. The demo's data
 * ends at the start of today, so the last 30 days are always full of it.
 */
export function demoCurlExamples(url: string, key: string, projectId: number): string[] {
  const auth = `-H "Authorization: Bearer ${key}"`
  const post = (path: string, body: unknown) =>
    `curl -s -X POST ${auth} -H "Content-Type: application/json" -d '${JSON.stringify(body)}' ${url}/api/projects/${projectId}${path}`
  return [
    ...curlExamples(url, key, projectId),
    post('/insights/trend/', { events: [{ id: 'signup', math: 'total' }], date_from: '-30d', interval: 'day' }),
    post('/insights/funnel/', {
      insight: 'FUNNELS',
      events: [
        { id: 'signup_started', order: 0 },
        { id: 'signup', order: 1 },
        { id: 'onboarding_completed', order: 2 },
      ],
      date_from: '-30d',
    }),
    post('/insights/', { name: 'Signups', filters: { insight: 'TRENDS', events: [{ id: 'signup' }] } }),
  ]
}

export interface ServeUntilSignalOptions {
  readonly port?: number
  readonly host?: string
  readonly out: NodeJS.WritableStream
  /** Lines to print under "Try:" once the URL is known. */
  readonly examples?: (url: string) => string[]
  /** Stops serving when aborted, as SIGINT and SIGTERM do. */
  readonly signal?: AbortSignal
  /** Serve the insights page at `/`. Default true. */
  readonly ui?: boolean
}

/**
 * Serves until SIGINT, SIGTERM or `signal`, telling `out` where and how to try it; then stops
 * accepting requests (the caller closes the engine).
 */
export async function serveUntilSignal(sightline: Sightline, options: ServeUntilSignalOptions): Promise<void> {
  const server = await startServer(sightline, { port: options.port, host: options.host, ui: options.ui })
  options.out.write(`Sightline is serving ${server.url} (Ctrl-C stops it)\n`)
  if (options.ui !== false) options.out.write(`Insights in the browser: ${server.url}/ (sign in with the personal API key)\n`)
  const examples = options.examples?.(server.url) ?? []
  if (examples.length > 0) options.out.write(['Try:', '', ...examples, ''].join('\n'))
  let stop = () => {}
  await new Promise<void>((resolve) => {
    stop = resolve
    if (options.signal?.aborted) return resolve()
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    options.signal?.addEventListener('abort', stop, { once: true })
  })
  // Whichever came first, the others must not keep a listener on the process (or the signal).
  process.off('SIGINT', stop)
  process.off('SIGTERM', stop)
  options.signal?.removeEventListener('abort', stop)
  await server.close()
}
