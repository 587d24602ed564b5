import type { RefreshMode } from '../model/insight.js'

/**
 * What one request may do with the cache, decided from its `refresh`:
 * - `compute`: `always` recomputes; `never` answers from the cache only
 *   (null on a miss); `ifStale` answers a fresh entry and computes otherwise;
 *   `ifRefreshAllowed` answers an entry until its `next_allowed_client_refresh`
 *   and computes after it (interface 4.2 rule 3: the server decides).
 * - `lazy`: staleness is judged with PostHog's longer (lazy) thresholds.
 */
export interface RefreshPolicy {
  readonly compute: 'always' | 'never' | 'ifStale' | 'ifRefreshAllowed'
  readonly lazy: boolean
}

/**
 * The policy of a `refresh` value (PostHog's `ExecutionMode`s, in
 * posthog/hogql_queries/query_runner.py). Sightline has no background workers, so
 * PostHog's async modes compute in the request instead of queueing:
 * `async` and `async_except_on_cache_miss` behave as `blocking`,
 * `lazy_async` as `blocking` with the lazy thresholds, `force_async` as
 * `force_blocking`. Absent and `false` (PostHog: cache only, because its
 * workers warm the cache) behave as `blocking`: a plain read shows a result.
 */
export function refreshPolicy(refresh: boolean | RefreshMode | undefined): RefreshPolicy {
  switch (refresh) {
    case true:
      return { compute: 'ifRefreshAllowed', lazy: false }
    case 'force_blocking':
    case 'force_async':
      return { compute: 'always', lazy: false }
    case 'force_cache':
      return { compute: 'never', lazy: false }
    case 'lazy_async':
      return { compute: 'ifStale', lazy: true }
    default:
      return { compute: 'ifStale', lazy: false }
  }
}
