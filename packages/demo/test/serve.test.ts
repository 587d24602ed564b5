import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSightline, type Sightline } from '@sightline/core'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { bootstrap } from '../src/serve-command.js'
import { curlExamples, startServer, type RunningServer } from '../src/serve.js'
import { parseStorageSpec } from '../src/storage-spec.js'
import { serving } from './serving.js'

const KEY = `phx_${'a1'.repeat(20)}`

describe('sightline serve', () => {
  let sightline: Sightline
  let server: RunningServer
  let projectId: number

  beforeAll(async () => {
    sightline = await createSightline({ storage: duckdbStorage() })
    ;({ projectId } = await bootstrap(sightline, KEY))
    server = await startServer(sightline, { port: 0 })
  })
  afterAll(async () => {
    await server.close()
    await sightline.close()
  })

  it('bootstraps an empty database so that the chosen key reads its project over HTTP', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const ok = await fetch(`${server.url}/api/projects/`, { headers: { Authorization: `Bearer ${KEY}` } })
    expect(ok.status).toBe(200)
    const body = (await ok.json()) as { count: number; results: Array<{ id: number; name: string }> }
    expect(body.count).toBe(1)
    expect(body.results[0]).toMatchObject({ id: projectId, name: 'Default project' })
    const anonymous = await fetch(`${server.url}/api/projects/`)
    expect(anonymous.status).toBe(401)
  })

  it('serves the insights page at / by default (the API stays where it was)', async () => {
    const page = await fetch(`${server.url}/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await page.text()).toContain('src="ui/sightline-ui.js"')
    const bare = await startServer(sightline, { port: 0, ui: false })
    try {
      expect((await fetch(`${bare.url}/`)).status).toBe(404)
    } finally {
      await bare.close()
    }
  })

  it('bootstraps once: the same key again finds the same project; another key on a non-empty database is refused', async () => {
    expect(await bootstrap(sightline, KEY)).toEqual({ projectId, key: KEY })
    await expect(bootstrap(sightline, `phx_${'b2'.repeat(20)}`)).rejects.toThrow(/empty database/)
  })

  it('prints curl commands that name the URL, the key and the project', () => {
    const lines = curlExamples(server.url, KEY, projectId)
    expect(lines).toHaveLength(2)
    for (const line of lines) {
      expect(line).toContain(server.url)
      expect(line).toContain(KEY)
    }
    expect(lines[1]).toContain(`/api/projects/${projectId}/event_definitions/`)
  })
})

const projectsWith = (url: string, key: string | undefined) =>
  fetch(`${url}/api/projects/`, key === undefined ? {} : { headers: { Authorization: `Bearer ${key}` } })

describe('sightline serve without --api-key', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-serve-'))
  const storage = `duckdb:${join(dir, 'serve.duckdb')}`
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('on an empty database creates a user and prints its new key once, which then reads the project', async () => {
    const server = await serving({ storage })
    try {
      const key = server.out.text.match(/^ {2}(phx_\S+)$/m)?.[1]
      expect(key).toBeDefined()
      // Printed in the notice and in the two curl lines, nowhere else.
      expect(server.out.text.split(key as string).length - 1).toBe(3)
      const ok = await projectsWith(server.url, key)
      expect(ok.status).toBe(200)
      expect(((await ok.json()) as { count: number }).count).toBe(1)
      expect((await projectsWith(server.url, undefined)).status).toBe(401)
    } finally {
      await server.stop()
    }
  })

  it('on a database with users says how to get a key, and --create-key prints a new one that works', async () => {
    const again = await serving({ storage })
    await again.stop()
    expect(again.out.text).not.toMatch(/phx_/)
    expect(again.out.text).toMatch(/--create-key <user id>/)
    expect(again.out.text).toMatch(/personalApiKeys\.create/)

    const server = await serving({ storage, createKeyFor: 1 })
    try {
      const key = server.out.text.match(/New personal API key for admin@sightline\.local .*: (phx_\S+)$/m)?.[1]
      expect(key).toBeDefined()
      expect((await projectsWith(server.url, key)).status).toBe(200)
    } finally {
      await server.stop()
    }
  })

  it('refuses --create-key for a user that does not exist, and with --api-key', async () => {
    await expect(serving({ storage, createKeyFor: 99 })).rejects.toThrow(/user/)
    await expect(serving({ storage, createKeyFor: 1, apiKey: KEY })).rejects.toThrow(/exclude/)
  })
})

describe('sightline serve --storage clickhouse:<directory>', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-serve-ch-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('keeps events in chDB and the rest in DuckDB under the directory, and serves them again after a restart', async () => {
    const storage = `clickhouse:${join(dir, 'data')}`
    let key: string | undefined
    const first = await serving({ storage })
    try {
      key = first.out.text.match(/^ {2}(phx_\S+)$/m)?.[1]
      const projects = (await (await projectsWith(first.url, key)).json()) as { results: Array<{ id: number; api_token: string }> }
      const [project] = projects.results
      const sent = await fetch(`${first.url}/batch/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: project!.api_token, batch: [{ event: 'signup', distinct_id: 'ada', timestamp: '2026-01-01T10:00:00Z' }] }),
      })
      expect(sent.status).toBe(200)
    } finally {
      await first.stop()
    }
    const again = await serving({ storage })
    try {
      const projects = (await (await projectsWith(again.url, key)).json()) as { results: Array<{ id: number }> }
      // A trend reads the events: the one sent before the restart, on the day it was sent.
      const trend = await fetch(`${again.url}/api/projects/${projects.results[0]!.id}/insights/trend/`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ events: [{ id: 'signup' }], date_from: '2026-01-01', date_to: '2026-01-02' }),
      })
      expect(trend.status).toBe(200)
      const [series] = ((await trend.json()) as { result: Array<{ count: number; data: number[] }> }).result
      expect(series).toMatchObject({ count: 1, data: [1, 0] })
    } finally {
      await again.stop()
    }
  })
})

describe('parseStorageSpec', () => {
  it('reads duckdb and postgres specs and refuses others', () => {
    expect(parseStorageSpec('duckdb:').name).toBe('duckdb')
    expect(parseStorageSpec('duckdb:/tmp/x.duckdb').name).toBe('duckdb')
    expect(parseStorageSpec('postgres:postgres://u@h/db').name).toBe('postgres')
    expect(parseStorageSpec('postgresql://u@h/db').name).toBe('postgres')
    expect(() => parseStorageSpec('mysql://x')).toThrow(/--storage/)
    expect(() => parseStorageSpec('postgres:')).toThrow(/connection URL/)
    expect(parseStorageSpec('clickhouse:/tmp/x').name).toBe('clickhouse')
    expect(() => parseStorageSpec('clickhouse:')).toThrow(/directory/)
    expect(parseStorageSpec('clickhouse:http://localhost:8123').name).toBe('clickhouse')
    expect(parseStorageSpec('clickhouse:https://ch.example:8443', 'postgres:postgres://u@h/db').name).toBe('clickhouse')
    expect(() => parseStorageSpec('clickhouse:http://localhost:8123', 'clickhouse:/tmp/x')).toThrow(/duckdb:<path> or postgres:<url>/)
    expect(() => parseStorageSpec('duckdb:/tmp/x.duckdb', 'duckdb:')).toThrow(/--companion is for --storage clickhouse:http/)
    expect(() => parseStorageSpec('clickhouse:http://localhost:8123', 'mysql://x')).toThrow(/--storage/)
  })
})

/**
 * No ClickHouse server runs here, so this checks the wiring only: serve
 * opens the companion it is given and sends ClickHouse's first statement
 * over HTTP to the URL given, with the dialect's settings; a stand-in
 * answers it with a ClickHouse error, which serve reports. That the
 * statements work on a real server is not tested here (the dialect's
 * executor contract runs on chDB through the client's subset).
 */
describe('sightline serve --storage clickhouse:http://host:port (wiring, against a stand-in)', () => {
  it('sends ClickHouse its statements at that URL, with the companion given', async () => {
    const seen: Array<{ method: string; url: string; body: string }> = []
    const standIn = createServer(async (request: IncomingMessage, response) => {
      let body = ''
      for await (const chunk of request) body += chunk
      seen.push({ method: request.method ?? '', url: request.url ?? '', body })
      response.writeHead(500, { 'content-type': 'text/plain', 'x-clickhouse-exception-code': '999' })
      response.end('Code: 999. DB::Exception: a stand-in, not a ClickHouse server. (KEEPER_EXCEPTION)')
    })
    await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve))
    const { port } = standIn.address() as AddressInfo
    const dir = mkdtempSync(join(tmpdir(), 'sightline-serve-chs-'))
    try {
      const companion = `duckdb:${join(dir, 'companion', 'c.duckdb')}`
      const error = await serving({ storage: `clickhouse:http://127.0.0.1:${port}`, companion }).then(() => null, (e: unknown) => e as Error)
      // The adapter's first migration fails with the server's answer.
      expect(error?.message).toMatch(/migration clickhouse_0001/)
      expect(String((error?.cause as Error | undefined)?.message)).toMatch(/a stand-in, not a ClickHouse server/)
      expect(seen.length).toBeGreaterThan(0)
      expect(seen[0]!.method).toBe('POST')
      // The dialect's settings ride on every request (HTTP requests share no session).
      expect(new URL(seen[0]!.url, 'http://x').searchParams.get('session_timezone')).toBe('UTC')
      expect(seen[0]!.body).toMatch(/create table/i)
    } finally {
      await new Promise((resolve) => standIn.close(resolve))
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
