import type { StorageAdapter } from '@sightline/core'

/** A database under test, reachable both through Sightline and directly. */
export interface FreshDatabase {
  /** A new adapter over this same database: call twice to reopen it. */
  storage(): StorageAdapter
  /** Reads or writes the database with its own driver, bypassing Sightline. Integers come back as numbers. */
  raw<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>
  /** SQL for a timestamp column's microseconds since the epoch, as a bigint the raw reader turns into a number. */
  epochMicros(column: string): string
  dispose(): Promise<void>
}

/** One storage configuration the conformance suite runs against. */
export interface ConformanceTarget {
  readonly name: string
  /** A new, empty database. */
  fresh(): Promise<FreshDatabase>
  /** An adapter whose database cannot be reached (an outage). */
  unreachable(): StorageAdapter
  /** Cases this target cannot run, each with its reason. */
  readonly skip?: Readonly<Record<string, string>>
}
