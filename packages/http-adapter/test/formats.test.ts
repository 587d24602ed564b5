import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { handlerFor } from '../src/handler.js'
import { respondSlice } from '../src/internal/respond.js'
import { endpoint, route } from '../src/route.js'
import { BASE, json, world, type World } from './fixture.js'

// A route as insights will declare it: `formats: ['json', 'csv']`.
const rows = endpoint({
  summary: 'Rows for the CSV helper.',
  tag: 'test',
  access: { scope: 'insight:read' },
  formats: ['json', 'csv'],
  responses: {},
  async handle(ctx) {
    return respondSlice(ctx, [
      { id: 1, name: 'Signups', filters: { events: [{ id: '$pageview' }] }, saved: true },
      { id: 2, name: 'Churn, weekly', filters: {}, saved: false },
    ])
  },
})

let w: World
beforeAll(async () => {
  w = await world()
})
afterAll(() => w.close())

describe('?format=csv on a route that offers it', () => {
  const handler = () => handlerFor(w.sightline, {}, [route('GET', '/api/rows/', rows)])
  const get = (query: string) => handler()(new Request(`${BASE}/api/rows/${query}`, { headers: { authorization: `Bearer ${w.key}` } }))

  test('renders the page’s results as PostHog’s CSV', async () => {
    const r = await get('?format=csv')
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(await r.text()).toBe('filters.events.0.id,id,name,saved\r\n$pageview,1,Signups,True\r\n,2,"Churn, weekly",False\r\n')
  })

  test('json stays the default; the limit applies to CSV too', async () => {
    expect((await json(await get(''))).count).toBe(2)
    expect(await (await get('?format=csv&limit=1')).text()).toBe('filters.events.0.id,id,name,saved\r\n$pageview,1,Signups,True\r\n')
    expect((await get('?format=xml')).status).toBe(404)
  })
})

test('a closed engine answers 503', async () => {
  const closed = await world()
  await closed.close()
  const r = await closed.call('GET', '/api/projects/')
  expect(r.status).toBe(503)
  expect(await json(r)).toEqual({ type: 'server_error', code: 'service_unavailable', detail: 'The service is closed.', attr: null })
})
