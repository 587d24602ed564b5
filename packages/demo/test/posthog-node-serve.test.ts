import { PostHog } from 'posthog-node'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { serving } from './serving.js'

/**
 * The official posthog-node client, unchanged, against `sightline serve` as a
 * new user starts it (in-memory DuckDB, the key it prints): what it sends is
 * stored, its flag calls get a PostHog without flags, and nothing is logged.
 * Every request it makes is recorded through its `fetch` option.
 */
describe('posthog-node against sightline serve', () => {
  let server: Awaited<ReturnType<typeof serving>>
  let key: string
  let project: { id: number; api_token: string }
  const requests: string[] = []

  beforeAll(async () => {
    server = await serving({ storage: 'duckdb:' })
    key = server.out.text.match(/^ {2}(phx_\S+)$/m)![1]!
    const projects = (await (await fetch(`${server.url}/api/projects/`, { headers: { authorization: `Bearer ${key}` } })).json()) as { results: Array<typeof project> }
    project = projects.results[0]!
  })
  afterAll(() => server?.stop())

  /** A client on the served URL that records `METHOD path status` of each request and every error it reports or logs. */
  function client(options: { personalApiKey?: string } = {}) {
    const errors: unknown[] = []
    const logged = [vi.spyOn(console, 'error').mockImplementation(() => {}), vi.spyOn(console, 'warn').mockImplementation(() => {})]
    const posthog = new PostHog(project.api_token, {
      host: server.url,
      flushAt: 1,
      flushInterval: 0,
      fetchRetryCount: 0,
      requestTimeout: 5000,
      ...options,
      fetch: async (url, init) => {
        const response = await fetch(url, init as RequestInit)
        requests.push(`${init.method} ${new URL(url).pathname} ${response.status}`)
        return response
      },
    })
    posthog.on('error', (error) => errors.push(error))
    const close = async () => {
      await posthog.shutdown(5000)
      const messages = logged.flatMap((spy) => spy.mock.calls)
      for (const spy of logged) spy.mockRestore()
      return { errors, logged: messages }
    }
    return { posthog, close }
  }

  it('captures and identifies; the events are stored and listed by the API', async () => {
    requests.length = 0
    const { posthog, close } = client()
    posthog.capture({ distinctId: 'anon-1', event: 'page_viewed', properties: { path: '/pricing' } })
    posthog.identify({ distinctId: 'user-1', properties: { $anon_distinct_id: 'anon-1', plan: 'pro' } })
    posthog.capture({ distinctId: 'user-1', event: 'purchase', properties: { amount: 42 } })
    expect(await close()).toEqual({ errors: [], logged: [] })
    expect(requests.length).toBeGreaterThan(0)
    expect(requests.filter((r) => !/^POST \/batch\/? 200$/.test(r))).toEqual([])

    const definitions = (await (await fetch(`${server.url}/api/projects/${project.id}/event_definitions/?limit=100`, { headers: { authorization: `Bearer ${key}` } })).json()) as { results: Array<{ name: string }> }
    expect(definitions.results.map((d) => d.name).sort()).toEqual(['$identify', 'page_viewed', 'purchase'])
  })

  it('evaluates flags remotely: /flags/ answers none, every flag is off, nothing is logged', async () => {
    requests.length = 0
    const { posthog, close } = client()
    const flags = await posthog.evaluateFlags('user-1')
    expect([flags.keys, flags.isEnabled('new-checkout'), flags.getFlag('new-checkout')]).toEqual([[], false, undefined])
    expect(await close()).toEqual({ errors: [], logged: [] })
    expect(requests).toContain('POST /flags/ 200')
    expect(requests.filter((r) => !r.endsWith(' 200'))).toEqual([])
  })

  it('with a personal API key, loads no definitions for local evaluation and logs nothing', async () => {
    requests.length = 0
    const { posthog, close } = client({ personalApiKey: key })
    await posthog.reloadFeatureFlags()
    const flags = await posthog.evaluateFlags('user-1')
    expect([flags.keys, flags.isEnabled('new-checkout')]).toEqual([[], false])
    expect(await close()).toEqual({ errors: [], logged: [] })
    expect(requests).toContain('GET /flags/definitions 200')
    expect(requests.filter((r) => !r.endsWith(' 200'))).toEqual([])
  })
})
