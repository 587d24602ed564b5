/** Every worked example, by topic; data is plain, see funnel-oracle-dataset.ts `toFunnelDataset`. */
import { BREAKDOWN_EXAMPLES } from './funnel-oracle-examples-breakdowns.js'
import { EXCLUSION_EXAMPLES } from './funnel-oracle-examples-exclusions.js'
import { STEP_EXAMPLES } from './funnel-oracle-examples-steps.js'
import { VIEW_EXAMPLES } from './funnel-oracle-examples-views.js'
import type { FunnelExample } from './funnel-oracle-example-kit.js'

export const ORACLE_EXAMPLES: ReadonlyArray<FunnelExample> = [...STEP_EXAMPLES, ...EXCLUSION_EXAMPLES, ...BREAKDOWN_EXAMPLES, ...VIEW_EXAMPLES]
