import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSightline, type Sightline } from '@sightline/core'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { bootstrap } from '../src/serve-command.js'
import { curlExamples, startServer, type RunningServer } from '../src/serve.js'
import { parseStorageSpec } from '../src/storage-spec.js'

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

  it('bootstraps once: the same key again finds the same project; another key on a non-empty database is refused', async () => {
    expect(await bootstrap(sightline, KEY)).toEqual({ projectId })
    await expect(bootstrap(sightline, `phx_${'b2'.repeat(20)}`)).rejects.toThrow(/empty database/)
  })

  it('prints curl commands that name the URL, the key and the project', () => {
    const lines = curlExamples(server.url, KEY, projectId)
    expect(lines).toHaveLength(3)
    for (const line of lines) {
      expect(line).toContain(server.url)
      expect(line).toContain(KEY)
    }
    expect(lines[1]).toContain(`/api/projects/${projectId}/event_definitions/`)
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
  })
})
