import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { PostHog } from 'posthog-node'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { toNodeHandler } from '@sightline/http-adapter'
import { world, type World } from './fixture.js'

let w: World
let server: Server
let host: string

beforeAll(async () => {
  w = await world({ basePath: '/sightline' })
  server = createServer(toNodeHandler(w.handler))
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
