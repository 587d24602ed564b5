import type { AnalysisPersonsName } from '@sightline/core'
import type { RouteContext } from '../route.js'
import { LIMIT_OFFSET, pageRequest, type PageKeys, type PageRequest } from './pagination.js'

/** The persons lists behind an analysis' people URLs. */
export type PeopleList = AnalysisPersonsName

/** PostHog's page keys of the correlation persons (`FunnelCorrelationPersonsMixin`), read instead of `limit` and `offset`. */
const CORRELATION_KEYS: PageKeys = { limit: 'funnel_correlation_person_limit', offset: 'funnel_correlation_person_offset' }

/**
 * Query keys of a people URL that are not the analysis' parameters: paging
 * (either spelling) and the format, and PostHog's `cache_invalidation_key`,
 * a random text its people URLs carry to miss its people cache (Sightline
 * keeps no people cache, so it changes nothing).
 */
export const PEOPLE_URL_KEYS: ReadonlySet<string> = new Set(['format', 'cache_invalidation_key', ...Object.values(LIMIT_OFFSET), ...Object.values(CORRELATION_KEYS)])

/**
 * The page a people URL asks for, and the keys its links must set. The
 * correlation persons read `funnel_correlation_person_limit` and
 * `funnel_correlation_person_offset` as PostHog's `calculate_funnel_correlation_persons`
 * does (and `limit`/`offset` when neither is sent, as Sightline's own links
 * had them); every list reads a limit of 0 as the default page, as PostHog's
 * `if not filter.limit` does. A bad value is a 400 naming its key.
 */
export function peoplePage(ctx: RouteContext<unknown>, list: PeopleList): { readonly page: PageRequest; readonly keys: PageKeys } {
  const q = ctx.query
  const keys = list === 'funnelCorrelationPersons' && (q.has(CORRELATION_KEYS.limit) || q.has(CORRELATION_KEYS.offset)) ? CORRELATION_KEYS : LIMIT_OFFSET
  const read = new URLSearchParams()
  const limit = q.get(keys.limit)
  if (limit !== null && limit.trim() !== '0') read.set(keys.limit, limit)
  const offset = q.get(keys.offset)
  if (offset !== null) read.set(keys.offset, offset)
  return { page: pageRequest(read, ctx.options.pageSize, ctx.options.maxPageSize, keys), keys }
}
