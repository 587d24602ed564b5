/**
 * The budgets of one analysis, decided before its work starts: a request
 * over one of them is refused with a `ValidationError` naming the parameter
 * that grew it (`interval`, `date_from`, `events`, `breakdown_limit`, ...),
 * never run to a timeout or an out-of-memory death of the host.
 */
export interface QueryLimits {
  /** Buckets of one series (interval x date range), per compared period. Default 20000: hourly over two years, by minute two weeks. */
  readonly maxBucketsPerSeries: number
  /** Cells of one answer: series x breakdown values (Other included) x buckets x periods. Default 200000 (about 90 MB of PostHog's JSON). */
  readonly maxCells: number
  /** Series (events and actions) of one trend or stickiness request. Default 50. */
  readonly maxSeries: number
  /** The highest `breakdown_limit` accepted. Default 1000. */
  readonly maxBreakdownLimit: number
  /** Values in one property filter's list (`value: [...]`). Default 1000. */
  readonly maxFilterValues: number
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = Object.freeze({
  maxBucketsPerSeries: 20_000,
  maxCells: 200_000,
  maxSeries: 50,
  maxBreakdownLimit: 1000,
  maxFilterValues: 1000,
})
