import type { BucketLimit } from '../dates/buckets.js'

/**
 * The budgets of one analysis, decided before its work starts: a request
 * over one of them is refused with a `ValidationError` naming the parameter
 * that grew it (`interval`, `date_from`, `events`, `breakdown_limit`, ...),
 * never run to a timeout or an out-of-memory death of the host.
 */
export interface QueryLimits {
  /** Buckets of one series (interval x date range), per compared period. Default 20000: hourly over two years, by minute two weeks. */
  readonly maxBucketsPerSeries: number
  /** Cells of one answer: series x breakdown values (Other included) x buckets x periods. Default 50000 (PostHog's `MAX_SELECT_RETURNED_ROWS`). */
  readonly maxCells: number
  /**
   * Rows one statement may read when their number comes from the data, not
   * the request (`boundedRows`): a trend series' (breakdown value, bucket)
   * pairs and a retention table's counts before their values are ranked,
   * funnel trends' (value, period) rows, correlation rows. What a breakdown
   * by a property with a distinct value per event would otherwise bring into
   * memory. Default 500000 (about 80 MB).
   */
  readonly maxBreakdownCells: number
  /** Series (events and actions together) of one analysis request. Default 50. */
  readonly maxSeries: number
  /** The highest `breakdown_limit` accepted. Default 1000. */
  readonly maxBreakdownLimit: number
  /** Items in any one list of a request: a filter's values, the filters of a group, cohorts of a breakdown. Default 1000. */
  readonly maxListItems: number
  /**
   * The answer's estimated JSON size, before it is computed: each point of a
   * trend carries a persons URL that repeats the whole request, so size
   * grows with cells x request size. Default 20 MiB: about 34,000 points of
   * a small request (measured at 586 bytes a point), already more than a
   * chart can show.
   */
  readonly maxResponseBytes: number
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = Object.freeze({
  maxBucketsPerSeries: 20_000,
  maxCells: 50_000,
  maxBreakdownCells: 500_000,
  maxSeries: 50,
  maxBreakdownLimit: 1000,
  maxListItems: 1000,
  maxResponseBytes: 20 * 1024 * 1024,
})

/** The bucket limit of one series, as `bucketStarts` takes it. */
export const bucketLimitOf = (limits: QueryLimits): BucketLimit => ({ max: limits.maxBucketsPerSeries, attr: 'interval', option: 'queries.limits.maxBucketsPerSeries' })
