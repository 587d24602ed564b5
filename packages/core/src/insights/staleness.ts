import type { InsightKind } from '../query/analysis/insight-dates.js'
import type { Interval } from '../query/dates/interval.js'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** posthog/caching/utils.py `staleness_threshold_map`: how long a result stays fresh, by interval. */
const THRESHOLDS: Record<'default' | 'lazy', Record<Interval, number>> = {
  default: { minute: 5 * MINUTE, hour: HOUR, day: 6 * HOUR, week: DAY, month: 2 * DAY },
  lazy: { minute: 15 * MINUTE, hour: 2 * HOUR, day: 12 * HOUR, week: DAY, month: 2 * DAY },
}

/** posthog/caching/insights_api.py: the minimum wait between client refreshes. */
const BASE_MINIMUM_INSIGHT_REFRESH_INTERVAL = 15 * MINUTE
const REDUCED_MINIMUM_INSIGHT_REFRESH_INTERVAL = 3 * MINUTE
const REAL_TIME_INSIGHT_REFRESH_INTERVAL = MINUTE

/** The analysis behind an insight, as its refresh rules tell them apart. */
export type AnalysisKind = InsightKind

/** What the refresh and staleness rules read of a computed insight. */
export interface RefreshBasis {
  readonly kind: AnalysisKind
  readonly interval: Interval
  /** The resolved range (PostHog's `date_from()` and `date_to()`), epoch ms. */
  readonly fromMs: number
  readonly toMs: number
}

/**
 * PostHog's `_refresh_frequency` of the trends, stickiness, lifecycle,
 * funnels, retention and paths runners (retention's interval is its period): 3 minutes for hourly insights and ranges of at most 7
 * days (rounded up), 15 minutes otherwise; trends with minute intervals 1
 * minute. `next_allowed_client_refresh` is `last_refresh` plus this.
 */
export function refreshFrequencyMs(basis: RefreshBasis): number {
  if (basis.kind === 'trends' && basis.interval === 'minute') return REAL_TIME_INSIGHT_REFRESH_INTERVAL
  const deltaDays = Math.ceil((basis.toMs - basis.fromMs) / DAY)
  return basis.interval === 'hour' || deltaDays <= 7 ? REDUCED_MINIMUM_INSIGHT_REFRESH_INTERVAL : BASE_MINIMUM_INSIGHT_REFRESH_INTERVAL
}

/**
 * PostHog's `is_stale`, as the instant a result computed at `lastRefreshMs`
 * becomes stale: `lastRefreshMs` plus the interval's threshold (lazy: the
 * longer ones), or null (never stale by age) when the range ended more than
 * 10 seconds before the computation.
 */
export function staleAtMs(basis: RefreshBasis, lastRefreshMs: number, lazy: boolean): number | null {
  if (basis.toMs < lastRefreshMs - 10_000) return null
  return lastRefreshMs + THRESHOLDS[lazy ? 'lazy' : 'default'][basis.interval]
}
