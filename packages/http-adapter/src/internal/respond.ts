import type { RouteContext } from '../route.js'
import { csvResponse } from './csv.js'
import { jsonAnswer } from './json-stream.js'
import { listEnvelope, pageRequest, slicePage, type PageKeys, type PageRequest } from './pagination.js'

/** A body in the format the request asked for (`?format=csv`, else JSON). The handler has checked the endpoint offers it. */
export function respond(ctx: RouteContext<unknown>, body: unknown, status = 200): Response {
  return ctx.query.get('format') === 'csv' ? csvResponse(body, status) : jsonAnswer(status, body)
}

export const noContent = (): Response => new Response(null, { status: 204 })

/** `limit` and `offset` of this request, validated. */
export const pageOf = (ctx: RouteContext<unknown>): PageRequest => pageRequest(ctx.query, ctx.options.pageSize, ctx.options.maxPageSize)

/** One page in the list envelope, with absolute links built from the request URL (setting the keys the page was read from). */
export function respondPage<T>(ctx: RouteContext<unknown>, page: PageRequest, count: number, results: ReadonlyArray<T>, keys?: PageKeys): Response {
  return respond(ctx, listEnvelope(ctx.url, page, count, results, keys))
}

/** Pages a list that core returns whole. */
export function respondSlice<T>(ctx: RouteContext<unknown>, items: ReadonlyArray<T>): Response {
  const page = pageOf(ctx)
  return respondPage(ctx, page, items.length, slicePage(items, page))
}
