import { invalidInput } from '../errors.js'

export interface PageRequest {
  readonly limit: number
  readonly offset: number
}

/** The query keys a list reads its page from, and writes into its links. */
export interface PageKeys {
  readonly limit: string
  readonly offset: string
}

export const LIMIT_OFFSET: PageKeys = { limit: 'limit', offset: 'offset' }

const DIGITS = /^\d+$/

/**
 * `limit` and `offset` of a list request (or the keys given). Unlike DRF, which silently falls
 * back to the default page for a malformed `limit`, a bad value is a 400
 * naming the parameter: a client asking for 5,000 rows should learn it got 1,000.
 */
export function pageRequest(query: URLSearchParams, pageSize: number, maxPageSize: number, keys: PageKeys = LIMIT_OFFSET): PageRequest {
  return {
    limit: integerParam(query, keys.limit, pageSize, 1, maxPageSize),
    offset: integerParam(query, keys.offset, 0, 0, Number.MAX_SAFE_INTEGER),
  }
}

function integerParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const raw = query.get(name)
  if (raw === null || raw === '') return fallback
  const text = raw.trim()
  if (!DIGITS.test(text)) throw invalidInput('A valid integer is required.', name)
  const value = Number(text)
  if (value < min) throw invalidInput(`Ensure this value is greater than or equal to ${min}.`, name, 'min_value')
  if (value > max || !Number.isSafeInteger(value)) throw invalidInput(`Ensure this value is less than or equal to ${max}.`, name, 'max_value')
  return value
}

export interface ListEnvelope<T> {
  readonly count: number
  readonly next: string | null
  readonly previous: string | null
  readonly results: ReadonlyArray<T>
}

/**
 * DRF's LimitOffsetPagination links: the request's own absolute URL with
 * `limit` and `offset` (or the keys the page was read from) replaced, other parameters kept; `next` is null on the
 * last page, `previous` null on the first, and drops `offset` when it would be 0.
 */
export function listEnvelope<T>(url: URL, page: PageRequest, count: number, results: ReadonlyArray<T>, keys: PageKeys = LIMIT_OFFSET): ListEnvelope<T> {
  const link = (offset: number | null) => {
    const target = new URL(url)
    target.searchParams.set(keys.limit, String(page.limit))
    if (offset === null) target.searchParams.delete(keys.offset)
    else target.searchParams.set(keys.offset, String(offset))
    return target.toString()
  }
  const next = page.offset + page.limit < count ? link(page.offset + page.limit) : null
  const previous = page.offset <= 0 ? null : page.offset - page.limit <= 0 ? link(null) : link(page.offset - page.limit)
  return { count, next, previous, results }
}

/** One page cut from a list that core returns whole (projects, organizations). */
export function slicePage<T>(items: ReadonlyArray<T>, page: PageRequest): ReadonlyArray<T> {
  return items.slice(page.offset, page.offset + page.limit)
}

/** PostHog's page size for activity logs. */
export const ACTIVITY_PAGE_SIZE = 10

export interface ActivityPageRequest extends PageRequest {
  /** 1-based, as PostHog's activity endpoints count pages. */
  readonly page: number
}

/**
 * `limit` (default 10) and `page` (1-based) of an activity log request, as
 * PostHog's activity endpoints read them; a bad value is a 400 naming it.
 */
export function activityPageRequest(query: URLSearchParams, maxPageSize: number): ActivityPageRequest {
  const limit = integerParam(query, 'limit', ACTIVITY_PAGE_SIZE, 1, maxPageSize)
  const page = integerParam(query, 'page', 1, 1, Math.floor(Number.MAX_SAFE_INTEGER / limit))
  return { limit, page, offset: (page - 1) * limit }
}

export interface ActivityEnvelope<T> {
  readonly results: ReadonlyArray<T>
  readonly next: string | null
  readonly previous: string | null
  readonly total_count: number
}

/**
 * PostHog's `activity_page_response`: the results, absolute `next` and
 * `previous` links with `page` and `limit` set (other parameters kept),
 * null past the ends, and the total.
 */
export function activityEnvelope<T>(url: URL, page: ActivityPageRequest, total: number, results: ReadonlyArray<T>): ActivityEnvelope<T> {
  const link = (to: number) => {
    const target = new URL(url)
    target.searchParams.set('page', String(to))
    target.searchParams.set('limit', String(page.limit))
    return target.toString()
  }
  return {
    results,
    next: page.offset + page.limit < total ? link(page.page + 1) : null,
    previous: page.page > 1 ? link(page.page - 1) : null,
    total_count: total,
  }
}
