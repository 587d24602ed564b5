import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { world, type World } from './fixture.js'

const json = async (r: Response) => JSON.parse(await r.text())

describe('analyses over HTTP', () => {
  let w: World
  const reports: Array<{ timing: unknown; context: unknown }> = []
  let failing = false
  const errors: unknown[] = []
  beforeAll(async () => {
    w = await world({
      onInsightTiming: (timing, context) => {
        if (failing) throw new Error('metrics are down')
        reports.push({ timing, context })
      },
      onError: (error) => errors.push(error),
    })
    // Three events on 2026-01-14 (the fixture's clock is 2026-01-15 12:00 UTC): two by u1, one by u2.
    await w.sightline.capture(w.project.id, [
      { event: 'signup', distinctId: 'u1', timestamp: '2026-01-14T09:00:00Z' },
      { event: 'signup', distinctId: 'u1', timestamp: '2026-01-14T10:00:00Z' },
      { event: 'signup', distinctId: 'u2', timestamp: '2026-01-14T11:00:00Z' },
    ])
  })
  afterAll(() => w?.close())
  const base = () => `/api/projects/${w.project.id}/insights`

  test('POST and GET trend answer the same counts; GET takes JSON values as query text', async () => {
    const params = { events: [{ id: 'signup', math: 'dau' }], date_from: '2026-01-13', date_to: '2026-01-14' }
    const post = await w.call('POST', `${base()}/trend/`, { body: params })
    expect(post.status).toBe(200)
    const body = await json(post)
    expect(body.result[0].data).toEqual([0, 2])
    expect(body.timezone).toBe('UTC')
    expect(body.is_cached).toBe(false)
    const query = new URLSearchParams({ events: JSON.stringify(params.events), date_from: params.date_from, date_to: params.date_to })
    const get = await w.call('GET', `${base()}/trend/?${query}`)
    expect((await json(get)).result[0].data).toEqual([0, 2])
  })

  test('a two-step funnel over HTTP: both persons enter, only u1 signs up a second time', async () => {
    const r = await w.call('POST', `${base()}/funnel/`, { body: { events: [{ id: 'signup', order: 0 }, { id: 'signup', order: 1 }], date_from: '2026-01-13', date_to: '2026-01-15' } })
    expect(r.status).toBe(200)
    const steps = (await json(r)).result
    expect(steps.map((s: { count: number }) => s.count)).toEqual([2, 1])
  })

  test('bad parameters are a 400 naming the field, another project a 404', async () => {
    const bad = await w.call('POST', `${base()}/trend/`, { body: { events: [{ id: 'signup', math: 'sum' }] } })
    expect(bad.status).toBe(400)
    expect(await json(bad)).toMatchObject({ type: 'validation_error' })
    const other = await w.call('POST', `/api/projects/${w.otherProject.id}/insights/trend/`, { body: { events: [{ id: 'signup' }] } })
    expect(other.status).toBe(404)
  })

  test('timing reports reach the host hook with project and user; a failing hook still answers 200', async () => {
    const r = await w.call('POST', `${base()}/timing/`, { body: { time_to_see_data_ms: 250, type: 'insight_load', context: 'insight', insight: 'TRENDS' } })
    expect(r.status).toBe(200)
    expect(await json(r)).toEqual({ result: null, last_refresh: null, timezone: 'UTC', is_cached: false, success: true })
    expect(reports).toEqual([{ timing: { time_to_see_data_ms: 250, type: 'insight_load', context: 'insight', insight: 'TRENDS' }, context: { projectId: w.project.id, userId: w.user.id } }])
    failing = true
    const still = await w.call('POST', `${base()}/timing/`, { body: { time_to_see_data_ms: 1 } })
    failing = false
    expect(still.status).toBe(200)
    expect(errors.map((e) => (e as Error).message)).toEqual(['metrics are down'])
    const negative = await w.call('POST', `${base()}/timing/`, { body: { time_to_see_data_ms: -1 } })
    expect(negative.status).toBe(400)
    expect((await json(negative)).attr).toBe('time_to_see_data_ms')
  })

  /** Interface 4.2 lists the Insight writeable fields (2.3) as the body of `timing/` and `cancel/`. */
  const DOCUMENT_BODY = { name: 'Signups', derived_name: 'Signup count', filters: { insight: 'TRENDS' }, query: '{"kind":"TrendsQuery"}', order: 2, deleted: false, dashboards: [], description: 'd', tags: ['t'], favorited: true, saved: false }

  test("timing: the interface's body (Insight fields, no time) is taken and reaches no hook; the answer is Insight-shaped, in the project's time zone", async () => {
    const berlin = await w.sightline.projects.create({ organizationId: w.org.id, name: 'Berlin', timezone: 'Europe/Berlin' })
    reports.length = 0
    const r = await w.call('POST', `/api/projects/${berlin.id}/insights/timing/`, { body: DOCUMENT_BODY })
    expect(r.status).toBe(200)
    // Interface 2.3's types: result and last_refresh as on an insight that computes nothing, timezone the project's, is_cached boolean.
    expect(await json(r)).toEqual({ result: null, last_refresh: null, timezone: 'Europe/Berlin', is_cached: false, success: true })
    expect(reports).toEqual([])
    // The Insight fields are validated as on POST /insights/.
    const bad = await w.call('POST', `${base()}/timing/`, { body: { ...DOCUMENT_BODY, order: 'first' } })
    expect([bad.status, (await json(bad)).attr]).toEqual([400, 'order'])
    expect(reports).toEqual([])
  })

  test("cancel: PostHog's body names the query; the interface's names none, so nothing is cancelled; both answers Insight-shaped", async () => {
    const posthog = await w.call('POST', `${base()}/cancel/`, { body: { client_query_id: 'not-running' } })
    expect(posthog.status).toBe(200)
    expect(await json(posthog)).toEqual({ result: null, last_refresh: null, timezone: 'UTC', is_cached: false, client_query_id: 'not-running', cancelled: false })
    const document = await w.call('POST', `${base()}/cancel/`, { body: DOCUMENT_BODY })
    expect(document.status).toBe(200)
    expect(await json(document)).toEqual({ result: null, last_refresh: null, timezone: 'UTC', is_cached: false, client_query_id: null, cancelled: false })
    const bad = await w.call('POST', `${base()}/cancel/`, { body: { ...DOCUMENT_BODY, tags: 'one' } })
    expect([bad.status, (await json(bad)).attr]).toEqual([400, 'tags'])
    const empty = await w.call('POST', `${base()}/cancel/`, { body: { client_query_id: '' } })
    expect([empty.status, (await json(empty)).attr]).toEqual([400, 'client_query_id'])
  })

  test('format=csv on timing and cancel stays a 400 on format, whichever body', async () => {
    for (const [path, body] of [['timing/', DOCUMENT_BODY], ['cancel/', DOCUMENT_BODY], ['timing/', { time_to_see_data_ms: 5 }], ['cancel/', { client_query_id: 'x' }]] as const) {
      const r = await w.call('POST', `${base()}/${path}?format=csv`, { body })
      expect([r.status, (await json(r)).attr], path).toEqual([400, 'format'])
    }
  })
})
