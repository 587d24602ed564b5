/**
 * Every worked example of trends, stickiness and lifecycle, with expected
 * results derived by hand (never by running the reference). The storage
 * adapters' tests load `data` (toRefDataset / actionMatchesOf for the
 * reference), POST `params`, and check with matchesTrendExpected.
 */
import { LIFECYCLE_EXAMPLES } from '../lifecycle/lifecycle-examples.js'
import { STICKINESS_EXAMPLES } from '../stickiness/stickiness-examples.js'
import type { TrendExample } from './trend-example-data.js'
import { BREAKDOWN_EXAMPLES } from './trend-examples-breakdown.js'
import { DISPLAY_EXAMPLES } from './trend-examples-display.js'
import { FORMULA_EXAMPLES } from './trend-examples-formula.js'
import { MATH_EXAMPLES } from './trend-examples-math.js'
import { SERIES_EXAMPLES } from './trend-examples-series.js'
import { SMOOTHING_EXAMPLES } from './trend-examples-smoothing.js'
import { TIME_EXAMPLES } from './trend-examples-time.js'

export { actionMatchesOf, toRefDataset, type TrendExample, type TrendExampleData } from './trend-example-data.js'
export { matchesTrendExpected, trendMismatches } from './trend-expected.js'

export const TREND_EXAMPLES: ReadonlyArray<TrendExample> = [
  ...MATH_EXAMPLES,
  ...TIME_EXAMPLES,
  ...DISPLAY_EXAMPLES,
  ...BREAKDOWN_EXAMPLES,
  ...FORMULA_EXAMPLES,
  ...SERIES_EXAMPLES,
  ...SMOOTHING_EXAMPLES,
  ...STICKINESS_EXAMPLES,
  ...LIFECYCLE_EXAMPLES,
]
