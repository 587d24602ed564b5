import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runDemo } from '../src/demo-command.js'
import { CapturedOutput, curlToFetch } from './captured-output.js'

// One demo, served on a free port until the tests abort it: a small one (--events alone, so the
// persons follow), enough for the last 30 days to hold signups and onboardings.
describe('sightline demo', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-demo-'))
  const out = new CapturedOutput()
  const stop = new AbortController()
  let running: Promise<void>
  let url: string
  let key: string
  let projectId: number
  /** Taken once the server is up: the data, and the clock it was made on, are from before. */
  let servingSince: number

  beforeAll(async () => {
    running = runDemo({ path: join(dir, 'demo.duckdb'), events: 12_000, port: 0, out, signal: stop.signal })
    const ended = running.then(() => Promise.reject(new Error(`the demo stopped before serving:\n${out.text}`)))
    ;[, url = ''] = await Promise.race([out.waitFor(/serving (http:\/\/\S+)/), ended])
    servingSince = Date.now()
    key = (out.text.match(/Personal API key for \S+: (phx_\S+)/) ?? [])[1] ?? ''
    projectId = Number((out.text.match(/^Project (\d+) /m) ?? [])[1])
  }, 120_000)
  afterAll(async () => {
    stop.abort()
    await running
    rmSync(dir, { recursive: true, force: true })
  })

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}/api/projects/${projectId}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }

  it('scales the persons with --events alone (60 events each)', () => {
    expect(out.text).toMatch(/^Sightline demo: 200 persons, about [\d,]+ events over 90 days/m)
    expect(out.text).toMatch(/^ {2}persons +200 /m)
  })

  it('serves on the real clock, not the one the data was made on', async () => {
    const project = await call('GET', '/')
    expect(project.status).toBe(200)
    const made = Date.parse(project.body.created_at as string) // stamped by the demo's pinned clock
    const insight = await call('POST', '/insights/', { name: 'After the demo', filters: { insight: 'TRENDS', events: [{ id: 'signup' }] } })
    expect(insight.status).toBe(201)
    const created = Date.parse(insight.body.created_at as string)
    expect(created).toBeGreaterThan(made)
    expect(created).toBeGreaterThanOrEqual(servingSince)
  })

  it('saves an insight of each analysis and a dashboard for the page, each answering with data', async () => {
    const saved = await call('GET', '/insights/?saved=true&limit=100')
    const insights = saved.body.results as Array<{ id: number; name: string; filters: { insight: string; display?: string } }>
    expect(new Set(insights.map((i) => i.filters.insight))).toEqual(new Set(['TRENDS', 'FUNNELS', 'RETENTION', 'PATHS', 'STICKINESS', 'LIFECYCLE']))
    for (const insight of insights.filter((i) => i.name !== 'After the demo')) {
      const answer = await call('GET', `/insights/${insight.id}/`)
      expect(answer.status, insight.name).toBe(200)
      const result = answer.body.result as unknown[]
      expect(result.length, insight.name).toBeGreaterThan(0)
    }
    const boards = await call('GET', '/dashboards/')
    const [board] = boards.body.results as Array<{ id: number; name: string }>
    expect(board?.name).toBe('Demo overview')
    const tiles = (await call('GET', `/dashboards/${board!.id}/`)).body.tiles as unknown[]
    expect(tiles).toHaveLength(4)
  })

  it('prints a trend and a funnel over its own events that answer with data when pasted', async () => {
    const lines = out.text.split('\n').filter((line) => line.startsWith('curl '))
    const trendLine = lines.find((line) => line.includes('/insights/trend/'))
    const funnelLine = lines.find((line) => line.includes('/insights/funnel/'))
    expect(trendLine).toBeDefined()
    expect(funnelLine).toBeDefined()

    const trend = curlToFetch(trendLine as string)
    const trendAnswer = await fetch(trend.url, trend.init)
    expect(trendAnswer.status).toBe(200)
    const series = ((await trendAnswer.json()) as { result: Array<{ data: number[]; count: number }> }).result
    expect(series).toHaveLength(1)
    expect(series[0]?.data.length).toBeGreaterThan(28)
    expect(series[0]?.count).toBeGreaterThan(0)

    const funnel = curlToFetch(funnelLine as string)
    const funnelAnswer = await fetch(funnel.url, funnel.init)
    expect(funnelAnswer.status).toBe(200)
    const steps = ((await funnelAnswer.json()) as { result: Array<{ name: string; count: number }> }).result
    expect(steps.map((s) => s.name)).toEqual(['signup_started', 'signup', 'onboarding_completed'])
    expect(steps[2]?.count).toBeGreaterThan(0)
    expect(steps[2]?.count).toBeLessThanOrEqual(steps[0]?.count ?? 0)
  })

  it('prints only requests that answer 200 or 201 with the printed key', async () => {
    const lines = out.text.split('\n').filter((line) => line.startsWith('curl '))
    expect(lines.length).toBeGreaterThanOrEqual(5)
    for (const line of lines) {
      const { url: target, init } = curlToFetch(line)
      expect(target.startsWith(url)).toBe(true)
      expect([200, 201], line).toContain((await fetch(target, init)).status)
    }
  })
})
