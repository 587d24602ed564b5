/**
 * A Sightline engine for the trend, retention, paths and correlation suites:
 * they query it through `sightline.query`, as production runs an analysis
 * (the executor's timeout, cancellation and budgets), with the reference
 * suites' budgets (`REFERENCE_LIMITS`).
 */
import { openEngine, type Engine } from '../../conformance/harness.js'
import { REFERENCE_LIMITS } from '../../execution/reference-limits.js'
import type { ConformanceTarget } from '../../conformance/target.js'
import { loadDataset } from '../../reference/shared/load-dataset.js'
import type { RefDataset } from '../../reference/shared/ref-dataset.js'

export interface TrendEngine extends Engine {
  /** Loads a dataset as a new project; resolves to its id. */
  load(data: RefDataset): Promise<number>
  close(): Promise<void>
}

export async function openTrendEngine(target: ConformanceTarget, clock: () => Date): Promise<TrendEngine> {
  const engine = await openEngine(target, clock, { queries: { limits: REFERENCE_LIMITS } })
  return { ...engine, load: (data) => loadDataset(engine.sightline, engine.organizationId, data) }
}
