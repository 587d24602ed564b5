import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { PostHog } from 'posthog-node'
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest'
import { toNodeHandler } from '@sightline/http-adapter'
import { world, type World } from './fixture.js'

let w: World
let server: Server
let host: string
/** Every request the client made, with the status it got. */
const seen: string[] = []

beforeAll(async () => {
  w = await world({ basePath: '/sightline' })
  server = createServer(
    toNodeHandler(async (request) => {
      const response = await w.handler(request)
      seen.push(`${request.method} ${new URL(request.url).pathname} ${response.status}`)
      return response
    }),
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sightline`
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  await w.close()
})

test('the official posthog-node client: capture, identify, alias, groupIdentify, read back through the library', async () => {
  const errors: unknown[] = []
  const client = new PostHog(w.project.apiToken, { host, flushAt: 1, flushInterval: 0, fetchRetryCount: 0, requestTimeout: 5000 })
  client.on('error', (error) => errors.push(error))

  client.capture({ distinctId: 'anon-1', event: 'page_viewed', properties: { path: '/pricing' } })
  client.identify({ distinctId: 'user-1', properties: { $anon_distinct_id: 'anon-1', email: 'ada@acme.test', plan: 'pro' } })
  client.alias({ distinctId: 'user-1', alias: 'ada-legacy-id' })
  client.groupIdentify({ groupType: 'company', groupKey: 'acme', properties: { name: 'Acme', seats: 12 } })
  client.capture({ distinctId: 'user-1', event: 'purchase', properties: { amount: 42 }, groups: { company: 'acme' } })
  await client.shutdown(5000)

  expect(errors).toEqual([])
  const events = await w.sightline.events.list(w.project.id)
  expect(events.map((e) => e.event).sort()).toEqual(['$create_alias', '$groupidentify', '$identify', 'page_viewed', 'purchase'])
  const purchase = events.find((e) => e.event === 'purchase')!
  expect(purchase.properties).toMatchObject({ amount: 42, $lib: 'posthog-node', $groups: { company: 'acme' } })
  expect(purchase.groups[0]).toBe('acme')
  expect(purchase.uuid).toMatch(/^[0-9a-f-]{36}$/)

  const person = await w.sightline.persons.get(w.project.id, 'anon-1')
  expect(person).not.toBeNull()
  expect([...person!.distinctIds].sort()).toEqual(['ada-legacy-id', 'anon-1', 'user-1'])
  expect(person!.properties).toMatchObject({ email: 'ada@acme.test', plan: 'pro' })
  expect(person!.isIdentified).toBe(true)

  expect(await w.sightline.groups.get(w.project.id, 0, 'acme')).toMatchObject({ properties: { name: 'Acme', seats: 12 } })
})

afterEach(() => {
  vi.restoreAllMocks()
})

/** posthog-node's flag calls against Sightline: what they return, what the client logged, what it requested. */
async function flagCalls(options: { personalApiKey?: string }) {
  seen.length = 0
  const logged = [vi.spyOn(console, 'error').mockImplementation(() => {}), vi.spyOn(console, 'warn').mockImplementation(() => {})]
  const errors: unknown[] = []
  const client = new PostHog(w.project.apiToken, { host, flushAt: 1, flushInterval: 0, fetchRetryCount: 0, requestTimeout: 5000, ...options })
  client.on('error', (error) => errors.push(error))
  if (options.personalApiKey) await client.reloadFeatureFlags()
  const enabled = await client.isFeatureEnabled('new-checkout', 'user-1')
  const flag = await client.getFeatureFlag('new-checkout', 'user-1')
  const all = await client.getAllFlags('user-1')
  await client.shutdown(5000)
  // posthog-node 5.70 warns once per process that these methods are deprecated: its own notice, not about the server.
  const fromServer = logged.flatMap((spy) => spy.mock.calls).filter((args) => !String(args[0]).includes('is deprecated'))
  return { enabled, flag, all, errors, logged: fromServer, requests: [...seen] }
}

test('posthog-node flags without a personal API key: /flags/?v=2 answers no flags, nothing is logged', async () => {
  const r = await flagCalls({})
  expect(r.errors).toEqual([])
  expect(r.logged).toEqual([])
  expect(r.enabled).toBeFalsy()
  expect(r.flag).toBeFalsy()
  expect(r.all).toEqual({})
  const flagRequests = r.requests.filter((line) => line.includes('/flags'))
  expect(flagRequests.length).toBeGreaterThan(0)
  expect(flagRequests.every((line) => line === 'POST /sightline/flags/ 200')).toBe(true)
})

test('posthog-node flags with a personal API key (local evaluation): /flags/definitions answers no definitions, nothing is logged', async () => {
  const r = await flagCalls({ personalApiKey: w.key })
  expect(r.errors).toEqual([])
  expect(r.logged).toEqual([])
  expect(r.enabled).toBeFalsy()
  expect(r.all).toEqual({})
  expect(r.requests).toContain('GET /sightline/flags/definitions 200')
  expect(r.requests.filter((line) => !line.endsWith(' 200'))).toEqual([])
})
