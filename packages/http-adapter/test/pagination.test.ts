import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createHandler } from '@sightline/http-adapter'
import { BASE, json, walk, world, type World } from './fixture.js'

let w: World
const NAMES = Array.from({ length: 23 }, (_, i) => `event_${String(i).padStart(2, '0')}`)

beforeAll(async () => {
  w = await world()
  await w.sightline.capture(w.project.id, NAMES.map((event) => ({ event, distinctId: 'u' })))
})
afterAll(() => w.close())

describe('pagination', () => {
  const list = () => `/api/projects/${w.project.id}/event_definitions/`

  test('walking `next` until null collects every record once, in order', async () => {
    for (const limit of [1, 5, 22, 23, 100]) {
      const { results, pages } = await walk(w, `${list()}?limit=${limit}`)
      expect((results as Array<{ name: string }>).map((r) => r.name)).toEqual(NAMES)
      expect(pages).toBe(Math.max(1, Math.ceil(NAMES.length / limit)))
    }
  })

  test('next and previous are absolute, keep other parameters, and are null at the ends', async () => {
    const first = await json(await w.call('GET', `${list()}?search=event&limit=10`))
    expect(first.previous).toBeNull()
    expect(first.next).toBe(`${BASE}${list()}?search=event&limit=10&offset=10`)
    const middle = await json(await w.call('GET', `${list()}?search=event&limit=10&offset=10`))
    expect(middle.previous).toBe(`${BASE}${list()}?search=event&limit=10`)
    expect(middle.next).toBe(`${BASE}${list()}?search=event&limit=10&offset=20`)
    const last = await json(await w.call('GET', `${list()}?search=event&limit=10&offset=20`))
    expect(last.next).toBeNull()
    expect(last.results).toHaveLength(3)
    expect(last.previous).toBe(`${BASE}${list()}?search=event&limit=10&offset=10`)
    const past = await json(await w.call('GET', `${list()}?limit=10&offset=50`))
    expect(past).toMatchObject({ count: 23, next: null, results: [] })
    expect(past.previous).toBe(`${BASE}${list()}?limit=10&offset=40`)
  })

  test('the default page is 100; the pageSize option changes it', async () => {
    expect((await json(await w.call('GET', list()))).results).toHaveLength(23)
    const small = createHandler(w.sightline, { pageSize: 7 })
    const body = await json(await small(new Request(`${BASE}${list()}`, { headers: { authorization: `Bearer ${w.key}` } })))
    expect(body.results).toHaveLength(7)
    expect(body.next).toBe(`${BASE}${list()}?limit=7&offset=7`)
  })

  test('a bad limit or offset is a 400 naming it', async () => {
    for (const [query, attr, detail] of [
      ['limit=abc', 'limit', 'A valid integer is required.'],
      ['limit=0', 'limit', 'Ensure this value is greater than or equal to 1.'],
      ['limit=1001', 'limit', 'Ensure this value is less than or equal to 1000.'],
      ['limit=-5', 'limit', 'A valid integer is required.'],
      ['limit=1e3', 'limit', 'A valid integer is required.'],
      ['offset=-1', 'offset', 'A valid integer is required.'],
      ['offset=99999999999999999999', 'offset', 'Ensure this value is less than or equal to 9007199254740991.'],
    ]) {
      const r = await w.call('GET', `${list()}?${query}`)
      expect(r.status, query).toBe(400)
      expect(await json(r), query).toMatchObject({ type: 'validation_error', attr, detail })
    }
    expect((await w.call('GET', `${list()}?limit=1000&offset=9007199254740991`)).status).toBe(200)
  })

  test('links respect the base path, and proxy headers only when trusted', async () => {
    const headers = { authorization: `Bearer ${w.key}`, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'analytics.example.com, proxy.internal' }
    const path = `/sightline${list()}?limit=5`
    const untrusted = createHandler(w.sightline, { basePath: '/sightline' })
    expect((await json(await untrusted(new Request(`${BASE}${path}`, { headers })))).next).toBe(`${BASE}/sightline${list()}?limit=5&offset=5`)
    const trusted = createHandler(w.sightline, { basePath: '/sightline', trustProxy: true })
    expect((await json(await trusted(new Request(`${BASE}${path}`, { headers })))).next).toBe(
      `https://analytics.example.com/sightline${list()}?limit=5&offset=5`,
    )
  })

  test('lists core returns whole (projects, organizations) page the same way', async () => {
    for (let i = 0; i < 4; i++) await w.sightline.projects.create({ organizationId: w.org.id, name: `P${i}` })
    const { results } = await walk(w, '/api/projects?limit=2')
    expect((results as Array<{ name: string }>).map((p) => p.name)).toEqual(['Web', 'P0', 'P1', 'P2', 'P3'])
  })
})
