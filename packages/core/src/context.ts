import type { Kysely } from 'kysely'
import type { SightlineDatabase, StorageAdapter, StorageDriver } from './storage.js'
import type { DefinitionsCache } from './ingest/definitions-cache.js'
import type { OverrideSquasher } from './ingest/override-squasher.js'
import type { KeyedMutex } from './util/keyed-mutex.js'
import type { QueryLimits } from './query/execution/query-limits.js'
import type { NumberPromoter } from './services/number-promoter.js'

/** What every service of one engine shares. Internal: not exported from the package. */
export interface EngineContext {
  readonly db: Kysely<SightlineDatabase>
  readonly adapter: StorageAdapter
  readonly driver: StorageDriver
  /** "Now": pinned by tests and demos through the `clock` option. */
  readonly clock: () => Date
  /**
   * Serialises writes by `WriteKey` (db/write-retries.ts): one project's
   * writes (captures, persons, insights...) run one at a time, so two
   * captures never race on the same person; other projects' writes run
   * concurrently. Take it through `withWriteRetries` or `writeTransaction`.
   */
  readonly writeLocks: KeyedMutex
  /**
   * Ids of projects seen to exist. Projects are never deleted, so a hit needs
   * no query: capture asks on every batch.
   */
  readonly knownProjects: Set<number>
  /** Definitions written recently by this engine (see DefinitionsCache). */
  readonly definitionsCache: DefinitionsCache
  /** Folds person overrides into the events once captures have written enough of them. */
  readonly overrideSquasher: OverrideSquasher
  /** The budgets every analysis is checked against before its work starts (option `queries`). */
  readonly limits: QueryLimits
  /** Promotes numeric properties analyses read from the JSON (option `properties.promoteNumbersAfter`); null when off. */
  readonly numberPromoter: NumberPromoter | null
  /** Throws `ClosedError` once the engine is closed. */
  assertOpen(): void
}
