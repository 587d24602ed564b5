import type { Dialect } from 'kysely'
import type { StorageAdapter } from '@sightline/core'
import type { SqlHooks } from '@sightline/core/storage'

/**
 * Where a test's own tables meet the analyses' SQL, when that is not where
 * the adapter creates tables: ClickHouse runs the analyses, while the
 * adapter sends DDL and reads of other tables to its companion store.
 */
export interface AnalysisDatabase {
  readonly dialect: Dialect
  readonly sql: SqlHooks
  readonly jsonColumnType: string
  /** What its CREATE TABLE needs after the columns ('' for none). */
  readonly tableOptions: string
}

/** A database under test, reachable both through Sightline and directly. */
export interface FreshDatabase {
  /** A new adapter over this same database: call twice to reopen it. */
  storage(): StorageAdapter
  /** Reads or writes the database with its own driver, bypassing Sightline. Integers come back as numbers. */
  raw<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>
  /** SQL for a timestamp column's microseconds since the epoch, as a bigint the raw reader turns into a number. */
  epochMicros(column: string): string
  /** A dialect straight to where analyses run, for suites that compile SQL over tables of their own; absent when that is `storage()`'s own dialect. */
  analysisDatabase?(): Promise<AnalysisDatabase>
  dispose(): Promise<void>
}

/** One storage configuration the conformance suite runs against. */
export interface ConformanceTarget {
  readonly name: string
  /** A new, empty database. */
  fresh(): Promise<FreshDatabase>
  /**
   * A new database already at the newest schema, as `fresh()` and then
   * `createSightline` leave it, copied from one migrated once per process
   * (absent: the harness takes `fresh()` and lets the engine migrate it).
   */
  migrated?(): Promise<FreshDatabase>
  /** An adapter whose database cannot be reached (an outage). */
  unreachable(): StorageAdapter
  /** Cases this target cannot run, each with its reason. */
  readonly skip?: Readonly<Record<string, string>>
  /**
   * The share of a reference property's runs this target runs (default 1),
   * for the suite's CPU budget: see `runsOn`.
   */
  readonly propertyShare?: number
}

/** A property's `runs` on `target`: its share of them, at least one. */
export const runsOn = (target: ConformanceTarget, runs: number): number => Math.max(1, Math.round(runs * (target.propertyShare ?? 1)))
