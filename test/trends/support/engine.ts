/**
 * A Sightline engine for the trend suites, plus the internal EngineContext
 * `runTrend` and `trendActors` take (the facade is wired by the lead): a
 * second connection to the same database, as the engine's own services see it.
 */
import { Kysely } from 'kysely'
import type { SightlineDatabase } from '@sightline/core/storage'
import type { EngineContext } from '../../../packages/core/src/context.js'
import { rememberFailedSql } from '../../../packages/core/src/db/run.js'
import { KeyedMutex } from '../../../packages/core/src/util/keyed-mutex.js'
import { OverrideSquasher, SQUASH_THRESHOLD } from '../../../packages/core/src/ingest/override-squasher.js'
import { DefinitionsCache } from '../../../packages/core/src/ingest/definitions-cache.js'
import { ClosedError } from '../../../packages/core/src/errors.js'
import { openEngine, type Engine } from '../../conformance/harness.js'
import { REFERENCE_LIMITS } from '../../execution/reference-limits.js'
import { withStatementTimeout } from '../../execution/with-statement-timeout.js'
import type { ConformanceTarget } from '../../conformance/target.js'
import { loadDataset } from '../../reference/shared/load-dataset.js'
import type { RefDataset } from '../../reference/shared/ref-dataset.js'

export interface TrendEngine extends Engine {
  readonly ctx: EngineContext
  /** Loads a dataset as a new project; resolves to its id. */
  load(data: RefDataset): Promise<number>
  close(): Promise<void>
}

export async function openTrendEngine(target: ConformanceTarget, clock: () => Date): Promise<TrendEngine> {
  // Its `sightline.query` runs under the executor with the same budgets as `ctx`.
  const engine = await openEngine(target, clock, { queries: { limits: REFERENCE_LIMITS } })
  const adapter = engine.db.storage()
  const driver = await adapter.open()
  // Each statement under production's analysis timeout: these contexts bypass sightline.query's executor.
  const db = new Kysely<SightlineDatabase>({ dialect: withStatementTimeout(driver.dialect), log: rememberFailedSql })
  let closed = false
  const ctx: EngineContext = {
    db,
    adapter,
    driver,
    clock,
    writeLocks: new KeyedMutex(),
    knownProjects: new Set(),
    definitionsCache: new DefinitionsCache(),
    // These engines capture no merges that reach the threshold; a squash would need the context.
    overrideSquasher: new OverrideSquasher(SQUASH_THRESHOLD, async () => {}),
    limits: REFERENCE_LIMITS,
    assertOpen() {
      if (closed) throw new ClosedError()
    },
  }
  return {
    ...engine,
    ctx,
    load: (data) => loadDataset(engine.sightline, engine.organizationId, data),
    async close() {
      closed = true
      await db.destroy()
      await driver.close()
      await engine.close()
    },
  }
}
