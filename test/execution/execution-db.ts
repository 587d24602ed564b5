/**
 * The execution tests' databases: each target's adapter opened as Sightline
 * opens it (its own dialect and driver), with statements long enough to
 * cancel. No tables: the statements compute over generated series.
 */
import { Kysely, sql, type RawBuilder } from 'kysely'
import type { ConformanceTarget, FreshDatabase } from '../conformance/target.js'
import { targets } from '../filters/filter-db.js'

export { serverSkipReason } from '../filters/filter-db.js'

/** Marks the statements of these tests, to find them in `pg_stat_activity`. */
export const MARK = 'sightline-execution-test'

/**
 * `n` x `n` rows counted, each tested: seconds of work for the database, in
 * one statement, bounded (it ends by itself if a cancel is broken).
 */
const crossJoinCount = (n: number): RawBuilder<{ n: number }> =>
  sql<{ n: number }>`select /* ${sql.raw(MARK)} */ count(*) as n from generate_series(1, ${sql.lit(n)}) as a(x) cross join generate_series(1, ${sql.lit(n)}) as b(y) where (a.x + b.y) % 7 = 3`

interface Sizes {
  /** Whether the database stops a statement mid-flight (PGlite cannot: it runs on the JavaScript thread). */
  readonly interruptible: boolean
  /** Side of a statement running 10 s or more uninterrupted, on 2 shared cores. */
  readonly long: number
  /** Side of a statement running a few hundred milliseconds. */
  readonly short: number
}

const SIZES: Readonly<Record<string, Sizes>> = {
  'duckdb (memory)': { interruptible: true, long: 30_000, short: 5_000 },
  'postgres (PGlite)': { interruptible: false, long: 6_000, short: 2_000 },
  'postgres (server)': { interruptible: true, long: 20_000, short: 2_000 },
}

export interface ExecutionDb {
  readonly target: ConformanceTarget
  readonly fresh: FreshDatabase
  readonly db: Kysely<any>
  readonly interruptible: boolean
  /** A statement of 10 s or more. */
  long(): RawBuilder<{ n: number }>
  /** A statement of a few hundred milliseconds, and the count it answers. */
  short(): RawBuilder<{ n: number }>
  readonly shortCount: number
  close(): Promise<void>
}

export const executionTargets = targets

/** Whether the target's database stops a statement mid-flight. */
export const isInterruptible = (target: ConformanceTarget): boolean => SIZES[target.name]?.interruptible ?? false

export async function openExecutionDb(target: ConformanceTarget): Promise<ExecutionDb> {
  const sizes = SIZES[target.name]
  if (!sizes) throw new Error(`no statement sizes for target ${target.name}`)
  const fresh = await target.fresh()
  const driver = await fresh.storage().open()
  const db = new Kysely<any>({ dialect: driver.dialect })
  return {
    target,
    fresh,
    db,
    interruptible: sizes.interruptible,
    long: () => crossJoinCount(sizes.long),
    short: () => crossJoinCount(sizes.short),
    shortCount: expectedCount(sizes.short),
    async close() {
      await db.destroy()
      await driver.close()
      await fresh.dispose()
    },
  }
}

/** Pairs (x, y) in 1..n with (x + y) % 7 = 3. */
function expectedCount(n: number): number {
  const perResidue = (r: number) => Math.floor((n - r + 7) / 7) - (r === 0 ? 1 : 0)
  let count = 0
  for (let r = 0; r < 7; r++) count += perResidue(r) * perResidue((3 - r + 7) % 7)
  return count
}
