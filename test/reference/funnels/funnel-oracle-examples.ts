/**
 * Every worked example of the funnel oracle, by topic, as plain data: load
 * `data` into any storage (actions are the event names they match, cohorts
 * lists of person ids; uuids that are not UUIDs are hashed by load-dataset.ts),
 * POST `params`, and compare the `result` with `expected` through
 * matchesFunnelExpected (float noise in times allowed). `why` derives each
 * `expected` by hand.
 */
export { actionMatchesFrom, toFunnelDataset, type FunnelExampleData } from './funnel-oracle-dataset.js'
export { funnelMismatch, matchesFunnelExpected } from './funnel-oracle-compare.js'
export type { FunnelExample } from './funnel-oracle-example-kit.js'
import { BREAKDOWN_EXAMPLES } from './funnel-oracle-examples-breakdowns.js'
import { EXCLUSION_EXAMPLES } from './funnel-oracle-examples-exclusions.js'
import { STEP_EXAMPLES } from './funnel-oracle-examples-steps.js'
import { VIEW_EXAMPLES } from './funnel-oracle-examples-views.js'
import type { FunnelExample } from './funnel-oracle-example-kit.js'

export const ORACLE_EXAMPLES: ReadonlyArray<FunnelExample> = [...STEP_EXAMPLES, ...EXCLUSION_EXAMPLES, ...BREAKDOWN_EXAMPLES, ...VIEW_EXAMPLES]
