// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest'
import { ApiError, createApi, type Api } from '../src/browser/app/api-client.js'
import { endpointOf } from '../src/browser/app/insight-page.js'
import { freshness, queryRunner } from '../src/browser/app/query-runner.js'
import { placeOf } from '../src/browser/app/route.js'
import type { InsightAnswer } from '../src/browser/wire.js'

afterEach(() => document.body.replaceChildren())

/** An Api whose GETs wait until the test settles them, and which records its POSTs. */
function heldApi() {
  const posts: Array<{ path: string; body: unknown }> = []
  const held: Array<{ path: string; resolve: (a: InsightAnswer) => void; reject: (e: unknown) => void; signal?: AbortSignal }> = []
  const api: Api = {
    get: <T>(path: string, signal?: AbortSignal) =>
      new Promise<T>((resolve, reject) => {
        held.push({ path, resolve: resolve as (a: InsightAnswer) => void, reject, signal })
        signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
      }),
    post: async <T>(path: string, body: unknown) => {
      posts.push({ path, body })
      return null as T
    },
  }
  return { api, posts, held }
}

describe('the query runner: loading, cancel, errors in words', () => {
  test('Cancel aborts the request and asks the server to cancel the same client_query_id', async () => {
    const { api, posts, held } = heldApi()
    const runner = queryRunner(document, api, 3, new AbortController().signal)
    document.body.append(runner.element)
    let id = ''
    const answer = runner.run((signal, clientQueryId) => {
      id = clientQueryId
      return api.get<InsightAnswer>(`insights/1/?client_query_id=${clientQueryId}`, signal)
    })
    expect(runner.element.querySelector('[role="status"]')?.textContent).toBe('Computing…')
    const cancel = runner.element.querySelector<HTMLButtonElement>('button.sightline-cancel')!
    expect(cancel.hidden).toBe(false)
    cancel.click()
    expect(await answer).toBeNull()
    expect(held[0]!.signal!.aborted).toBe(true)
    expect(posts).toEqual([{ path: 'api/projects/3/insights/cancel/', body: { client_query_id: id } }])
    expect(runner.element.textContent).toContain('Cancelled.')
    expect(cancel.hidden).toBe(true)
  })

  test('an answer shows its freshness; a failure shows the server’s words', async () => {
    const { api, held } = heldApi()
    const runner = queryRunner(document, api, 3, new AbortController().signal)
    const ok = runner.run((signal) => api.get('a', signal))
    held[0]!.resolve({ result: [], is_cached: true, last_refresh: '2026-01-15T12:00:00.000000Z' })
    expect(await ok).toMatchObject({ is_cached: true })
    expect(runner.element.querySelector('[role="status"]')?.textContent).toMatch(/^From the cache, computed /)
    const failed = runner.run((signal) => api.get('b', signal))
    held[1]!.reject(new ApiError(400, 'Query was cancelled', 'query_was_cancelled'))
    expect(await failed).toBeNull()
    const alert = runner.element.querySelector('[role="alert"]') as HTMLElement
    expect(alert.hidden).toBe(false)
    expect(alert.textContent).toBe('The query failed: Query was cancelled')
  })

  test('a new run supersedes the one before (its answer is dropped, its query cancelled)', async () => {
    const { api, posts, held } = heldApi()
    const runner = queryRunner(document, api, 3, new AbortController().signal)
    const first = runner.run((signal) => api.get('a', signal))
    const second = runner.run((signal) => api.get('b', signal))
    held[1]!.resolve({ result: [1] })
    expect(await first).toBeNull()
    expect(await second).toEqual({ result: [1] })
    expect(posts).toHaveLength(1)
  })

  test('freshness in words', () => {
    expect(freshness({ is_cached: false, last_refresh: '2026-01-15T12:00:00.123456Z' })).toMatch(/^Computed .+2026.+\.$/)
    expect(freshness({ is_cached: true, last_refresh: null })).toBe('From the cache, computed an unknown time.')
  })
})

describe('the API client', () => {
  const fetcher = (status: number, body: string) => (async () => new Response(body, { status })) as unknown as typeof fetch

  test('resolves paths and the server’s root-relative people URLs under the page’s base path, with the key', async () => {
    const seen: string[] = []
    const api = createApi('phx_k', 'http://h/sightline/', (async (url: URL, init: RequestInit) => {
      seen.push(`${url} ${(init.headers as Record<string, string>).authorization}`)
      return new Response('{}')
    }) as unknown as typeof fetch)
    await api.get('api/projects/')
    await api.get('/api/projects/1/persons/funnel/?funnel_step=1')
    expect(seen).toEqual(['http://h/sightline/api/projects/ Bearer phx_k', 'http://h/sightline/api/projects/1/persons/funnel/?funnel_step=1 Bearer phx_k'])
  })

  test('errors in words: PostHog’s detail (with the field), else the status explained', async () => {
    const body = JSON.stringify({ type: 'validation_error', code: 'invalid_input', detail: 'Unknown interval', attr: 'interval' })
    await expect(createApi('k', 'http://h/', fetcher(400, body)).get('x')).rejects.toMatchObject({ status: 400, message: 'Unknown interval (interval)', code: 'invalid_input' })
    await expect(createApi('k', 'http://h/', fetcher(401, '')).get('x')).rejects.toThrow('The personal API key was not accepted.')
    await expect(createApi('k', 'http://h/', fetcher(504, '<html>')).get('x')).rejects.toThrow('The query took too long and was stopped.')
    const down = (async () => {
      throw new TypeError('fetch failed')
    }) as unknown as typeof fetch
    await expect(createApi('k', 'http://h/', down).get('x')).rejects.toThrow(/could not be reached/)
  })
})

describe('places and endpoints', () => {
  test('the hash names the page', () => {
    expect(placeOf('')).toEqual({ page: 'projects' })
    expect(placeOf('#/project/2')).toEqual({ page: 'project', projectId: 2 })
    expect(placeOf('#/project/2/insight/9')).toEqual({ page: 'insight', projectId: 2, insightId: 9 })
    expect(placeOf('#/project/2/dashboard/4')).toEqual({ page: 'dashboard', projectId: 2, dashboardId: 4 })
    expect(placeOf('#/project/x')).toEqual({ page: 'projects' })
  })

  test('each kind of insight is computed by its endpoint', () => {
    expect([{}, { insight: 'STICKINESS' }, { insight: 'LIFECYCLE' }, { insight: 'FUNNELS' }, { insight: 'RETENTION' }, { insight: 'PATHS' }].map(endpointOf)).toEqual(['trend', 'trend', 'trend', 'funnel', 'retention', 'path'])
  })
})

describe('the insight settings', () => {
  const change = (element: HTMLInputElement | HTMLSelectElement, value: string) => {
    element.value = value
    element.dispatchEvent(new Event('change'))
  }

  test('a trend: interval, breakdown, display and two dates; each change sends the saved filters with it', async () => {
    const { insightControls } = await import('../src/browser/app/insight-controls.js')
    const sent: Array<Record<string, unknown>> = []
    const saved = { insight: 'TRENDS', events: [{ id: 'signup' }], date_from: '-30d', interval: 'day' }
    const form = document.body.appendChild(insightControls(document, saved, (f) => sent.push({ ...f })))
    const $ = <T extends Element>(id: string) => form.querySelector<T>(`#${id}`)!
    expect($<HTMLSelectElement>('sightline-date-range').value).toBe('-30d')
    change($('sightline-interval'), 'week')
    change($('sightline-breakdown'), '$browser')
    change($('sightline-display'), 'ActionsPie')
    change($('sightline-date-range'), 'custom') // waits for both dates
    change($('sightline-date-from'), '2026-01-01')
    change($('sightline-date-to'), '2026-01-31')
    expect(sent).toHaveLength(4)
    expect(sent[0]).toMatchObject({ events: [{ id: 'signup' }], interval: 'week', date_from: '-30d' })
    expect(sent[1]).toMatchObject({ breakdown: '$browser', breakdown_type: 'event' })
    expect(sent[2]).toMatchObject({ display: 'ActionsPie', breakdown: '$browser', interval: 'week' })
    expect(sent[3]).toMatchObject({ date_from: '2026-01-01', date_to: '2026-01-31' })
    change($('sightline-breakdown'), '')
    expect(sent[4]).toMatchObject({ breakdown: undefined })
    // Every control is labelled.
    for (const control of form.querySelectorAll('input, select')) expect(form.querySelector(`label[for="${control.id}"]`), control.id).not.toBeNull()
  })

  test('each kind shows the settings it takes: a retention its period, paths no interval or breakdown', async () => {
    const { insightControls } = await import('../src/browser/app/insight-controls.js')
    const ids = (filters: Record<string, unknown>) => [...insightControls(document, filters, () => {}).querySelectorAll('input, select')].map((c) => c.id)
    expect(ids({ insight: 'RETENTION', period: 'Week' })).toEqual(['sightline-period', 'sightline-breakdown', 'sightline-breakdown-type'])
    expect(ids({ insight: 'PATHS' })).toEqual(['sightline-date-range', 'sightline-date-from', 'sightline-date-to'])
    expect(ids({ insight: 'FUNNELS' })).toEqual(['sightline-date-range', 'sightline-date-from', 'sightline-date-to', 'sightline-breakdown', 'sightline-breakdown-type'])
    expect(ids({ insight: 'FUNNELS', funnel_viz_type: 'trends' })).toContain('sightline-interval')
    expect(ids({ insight: 'STICKINESS' })).not.toContain('sightline-interval')
  })
})
