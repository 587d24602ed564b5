import type { FunnelExample } from './funnel-example-builders.js'
import { AGGREGATION_EXAMPLES } from './funnel-examples-aggregation.js'
import { BREAKDOWN_EXAMPLES } from './funnel-examples-breakdowns.js'
import { ERROR_EXAMPLES } from './funnel-examples-errors.js'
import { STEP_EXAMPLES } from './funnel-examples-steps.js'
import { TREND_EXAMPLES } from './funnel-examples-trends.js'
import { UNORDERED_EXAMPLES } from './funnel-examples-unordered.js'

export type { FunnelExample } from './funnel-example-builders.js'
export { toRefDataset } from './funnel-dataset.js'

/**
 * Funnel worked examples, each derived by hand (the reasoning is in `why`),
 * as self-contained plain data: load `data` into any storage (actions are the
 * event names their steps match, cohorts lists of person ids), POST `params`,
 * and compare the response's `result` with `expected` exactly (toEqual).
 * `expected: { validationError: attr }` means a 400 whose attr is that field.
 * The people URLs the implementation adds are not in `expected`.
 */
export const FUNNEL_EXAMPLES: ReadonlyArray<FunnelExample> = [...STEP_EXAMPLES, ...UNORDERED_EXAMPLES, ...AGGREGATION_EXAMPLES, ...BREAKDOWN_EXAMPLES, ...TREND_EXAMPLES, ...ERROR_EXAMPLES]
