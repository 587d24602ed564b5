/**
 * A Sightline engine for the funnel suites, plus the internal EngineContext
 * `runFunnel` and `funnelActors` take (the facade is wired by the lead): a
 * second connection to the same database, as the engine's services see it.
 * The clock is settable, so each dataset runs at its own "now".
 */
import { Kysely } from 'kysely'
import type { SightlineDatabase } from '@sightline/core/storage'
import type { EngineContext } from '../../../packages/core/src/context.js'
import { rememberFailedSql } from '../../../packages/core/src/db/run.js'
import { ClosedError } from '../../../packages/core/src/errors.js'
import { OverrideSquasher, SQUASH_THRESHOLD } from '../../../packages/core/src/ingest/override-squasher.js'
import { DefinitionsCache } from '../../../packages/core/src/ingest/definitions-cache.js'
import { KeyedMutex } from '../../../packages/core/src/util/keyed-mutex.js'
import { openEngine, type Engine } from '../../conformance/harness.js'
import { REFERENCE_LIMITS } from '../../execution/reference-limits.js'
import { withStatementTimeout } from '../../execution/with-statement-timeout.js'
import type { ConformanceTarget } from '../../conformance/target.js'

export interface FunnelEngine extends Engine {
  readonly ctx: EngineContext
  /** Sets the engine's "now". */
  setNow(now: Date): void
  close(): Promise<void>
}

export async function openFunnelEngine(target: ConformanceTarget): Promise<FunnelEngine> {
  let now = new Date('2024-03-20T12:00:00Z')
  const clock = () => now
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
    numberPromoter: null,
    limits: REFERENCE_LIMITS,
    assertOpen() {
      if (closed) throw new ClosedError()
    },
  }
  return {
    ...engine,
    ctx,
    setNow(value) {
      now = value
    },
    async close() {
      closed = true
      await db.destroy()
      await driver.close()
      await engine.close()
    },
  }
}
