import { DEFAULT_QUERY_LIMITS, type QueryLimits } from '../../packages/core/src/query/execution/query-limits.js'

/**
 * The budgets of the engines the reference properties run: answers of any
 * size are compared, so the answer budgets are out of the way (the budgets
 * have tests of their own, test/hostile); the request budgets stay the defaults.
 */
export const REFERENCE_LIMITS: QueryLimits = Object.freeze({
  ...DEFAULT_QUERY_LIMITS,
  maxBucketsPerSeries: 1_000_000,
  maxCells: 10_000_000,
  maxBreakdownCells: 10_000_000,
  maxResponseBytes: 2 ** 30,
})
