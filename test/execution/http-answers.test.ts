/**
 * How the HTTP adapter answers stopped and refused analyses (PostHog's
 * statuses and codes, never a 500), and the cancel endpoint.
 */
import { describe, expect, it } from 'vitest'
import { ConcurrencyLimitError, ConflictError, QueryCancelledError, QueryTimeoutError, type Sightline } from '@sightline/core'
import { errorResponse } from '../../packages/http-adapter/src/errors.js'
import { decodeBody } from '../../packages/http-adapter/src/internal/decode.js'
import { cancel } from '../../packages/http-adapter/src/routes/insight-cancel.js'
import type { RouteContext } from '../../packages/http-adapter/src/route.js'

const request = new Request('http://sightline.test/api/projects/1/insights/trend/')

async function answer(error: unknown) {
  const reported: unknown[] = []
  const response = errorResponse(error, request, (e) => reported.push(e))
  return { status: response.status, body: await response.json(), reported }
}

describe('error answers of analyses under control', () => {
  it('a cancelled analysis: 400 query_was_cancelled', async () => {
    expect(await answer(new QueryCancelledError('q-1'))).toEqual({
      status: 400,
      body: { type: 'invalid_request', code: 'query_was_cancelled', detail: 'the query "q-1" was cancelled', attr: null },
      reported: [],
    })
  })

  it('a timeout: 504, as PostHog answers ClickHouseQueryTimeOut', async () => {
    const { status, body, reported } = await answer(new QueryTimeoutError(60_000))
    expect(status).toBe(504)
    expect(body).toEqual({ type: 'server_error', code: 'error', detail: expect.stringContaining('60000 ms'), attr: null })
    expect(reported).toEqual([])
  })

  it('the concurrency limit: 429 throttled, as PostHog answers ConcurrencyLimitExceeded', async () => {
    const { status, body } = await answer(new ConcurrencyLimitError(1, 3))
    expect(status).toBe(429)
    expect(body).toEqual({ type: 'throttled_error', code: 'throttled', detail: expect.stringContaining('3 queries'), attr: null })
  })

  it('a client_query_id already running: 400 naming the field', async () => {
    const { status, body } = await answer(new ConflictError('a query with client_query_id "q" is already running in this project', 'client_query_id'))
    expect(status).toBe(400)
    expect(body).toMatchObject({ type: 'validation_error', code: 'unique', attr: 'client_query_id' })
  })
})

describe('POST /api/projects/:project_id/insights/cancel/', () => {
  const contextFor = (body: unknown, cancelled: Array<[number, string]>, running: boolean) =>
    ({
      params: { project_id: '5' },
      query: new URLSearchParams(),
      body,
      principal: { organizationIds: new Set(['org']) },
      sightline: {
        projects: { get: async (id: number) => ({ id, organizationId: 'org', timezone: 'Europe/Berlin' }) },
        query: {
          cancel: async (projectId: number, clientQueryId: string) => {
            cancelled.push([projectId, clientQueryId])
            return running
          },
        },
      } as unknown as Sightline,
    }) as unknown as RouteContext<unknown>

  it('cancels the project’s analysis by its client_query_id and says whether one was running', async () => {
    const calls: Array<[number, string]> = []
    const response = await cancel.handle(contextFor({ client_query_id: 'abc' }, calls, true))
    expect(response.status).toBe(200)
    const nothing = { result: null, last_refresh: null, timezone: 'Europe/Berlin', is_cached: false }
    expect(await response.json()).toEqual({ ...nothing, client_query_id: 'abc', cancelled: true })
    expect(calls).toEqual([[5, 'abc']])

    const unknown = await cancel.handle(contextFor({ client_query_id: 'gone' }, [], false))
    expect(await unknown.json()).toEqual({ ...nothing, client_query_id: 'gone', cancelled: false })

    // The interface's body (Insight fields) names no analysis: nothing is asked of core.
    const none: Array<[number, string]> = []
    const unnamed = await cancel.handle(contextFor({ name: 'x' }, none, true))
    expect(await unnamed.json()).toEqual({ ...nothing, client_query_id: null, cancelled: false })
    expect(none).toEqual([])
  })

  it("takes PostHog's body and the interface's (Insight fields, validated); a client_query_id sent must not be empty", () => {
    const schema = cancel.body as Parameters<typeof decodeBody>[0]
    expect(decodeBody(schema, { name: 'x' })).toEqual({ name: 'x' })
    expect(() => decodeBody(schema, { name: 5 })).toThrow(expect.objectContaining({ status: 400, body: expect.objectContaining({ attr: 'name' }) }))
    expect(() => decodeBody(schema, { client_query_id: '' })).toThrow(expect.objectContaining({ status: 400 }))
    expect(decodeBody(schema, { client_query_id: 'q', name: 'ignored', unknown: 1 })).toEqual({ client_query_id: 'q', name: 'ignored' })
  })
})
