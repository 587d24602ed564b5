import type { Kysely } from 'kysely'
import type { SightlineDatabase, StorageAdapter, StorageDriver } from './storage.js'
import type { Mutex } from './util/mutex.js'

/** What every service of one engine shares. Internal: not exported from the package. */
export interface EngineContext {
  readonly db: Kysely<SightlineDatabase>
  readonly adapter: StorageAdapter
  readonly driver: StorageDriver
  /** "Now": pinned by tests and demos through the `clock` option. */
  readonly clock: () => Date
  /**
   * Serialises writes that read-modify-write persons, groups and definitions,
   * so two captures in this process never race on the same person.
   */
  readonly writeLock: Mutex
  /** Throws `ClosedError` once the engine is closed. */
  assertOpen(): void
}
