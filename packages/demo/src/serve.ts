import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Sightline } from '@sightline/core'
import { createHandler, toNodeHandler } from '@sightline/http-adapter'

export interface RunningServer {
  /** `http://127.0.0.1:8000`, with the port actually bound. */
  readonly url: string
  /** Stops accepting requests and waits for open ones; does not close the engine. */
  close(): Promise<void>
}

/** Serves the whole interface of `sightline` on node:http. Port 0 picks a free one. */
export async function startServer(sightline: Sightline, options: { port?: number; host?: string } = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  const server = createServer(toNodeHandler(createHandler(sightline)))
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

/** Three requests a person can paste to see the API answer. */
export function curlExamples(url: string, key: string, projectId: number): string[] {
  const auth = `-H "Authorization: Bearer ${key}"`
  return [
    `curl -s ${auth} ${url}/api/projects/`,
    `curl -s ${auth} "${url}/api/projects/${projectId}/event_definitions/?limit=5"`,
    `curl -s -X POST ${auth} -H "Content-Type: application/json" -d '{"name":"Signups","filters":{"insight":"TRENDS","events":[{"id":"signup"}]}}' ${url}/api/projects/${projectId}/insights/`,
  ]
}

/**
 * Serves until SIGINT or SIGTERM, telling `out` where, and with a key and a
 * project, how to try it; then stops accepting requests (the caller closes the engine).
 */
export async function serveUntilSignal(
  sightline: Sightline,
  options: { port?: number; host?: string; out: NodeJS.WritableStream; key?: string; projectId?: number },
): Promise<void> {
  const server = await startServer(sightline, { port: options.port, host: options.host })
  options.out.write(`Sightline is serving ${server.url} (Ctrl-C stops it)\n`)
  if (options.key !== undefined && options.projectId !== undefined) {
    options.out.write(['Try:', '', ...curlExamples(server.url, options.key, options.projectId), ''].join('\n'))
  }
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  await server.close()
}
