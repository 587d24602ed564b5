import { sql, type Expression } from 'kysely'
import type { SqlHooks } from '../../storage.js'

/** Consecutive buckets of one length: `firstIndex + (t - start) div length` finds each. */
interface Run {
  readonly firstIndex: number
  readonly start: number
  readonly length: number
}

/**
 * The index into `starts` of the bucket holding each row's instant, as SQL
 * integer arithmetic on epoch microseconds, never a time-zone conversion per
 * row (shared/reference/performance.md: 1.7x the floor against 15x for
 * `date_trunc`; identical across daylight-saving changes).
 *
 * The compiler already knows every bucket start (`bucketStarts`, which owns
 * the calendar and time-zone rules); it cuts them into runs of equal length
 * (a day run ends at each daylight-saving change, a month run at each month
 * of another length) and emits one CASE branch per run. `end` is where the
 * last bucket ends (exclusive). Rows before `starts[0]` get -1; rows at or
 * after `end` get an index past the last bucket: callers scope rows to the
 * range first.
 */
export function bucketIndexSql(
  micros: Expression<number>,
  starts: ReadonlyArray<Date>,
  end: Date,
  hooks: SqlHooks,
): Expression<number> {
  const runs = bucketRuns(starts.map((d) => d.getTime() * 1000), end.getTime() * 1000)
  if (runs.length === 0) return sql<number>`cast(-1 as bigint)`
  const branches = [...runs].reverse().map(
    (r) =>
      sql`when ${micros} >= ${lit(r.start)} then ${lit(r.firstIndex)} + ${hooks.intDiv(sql<number>`(${micros} - ${lit(r.start)})`, lit(r.length))}`,
  )
  return sql<number>`(case ${sql.join(branches, sql` `)} else -1 end)`
}

/**
 * `bucketIndexSql` of a stored `timestamptz` whose epoch microseconds are
 * `micros`: the database's own `hooks.bucketIndex` where it has one (Postgres
 * looks the instant up among the starts instead of computing a numeric epoch
 * in every CASE branch: a New York daily total at 10M events took 0.75 of
 * the time), else the CASE on `micros`. Same index either way.
 */
export function timestampBucketIndexSql(
  timestamp: Expression<unknown>,
  micros: Expression<number>,
  starts: ReadonlyArray<Date>,
  end: Date,
  hooks: SqlHooks,
): Expression<number> {
  return hooks.bucketIndex ? hooks.bucketIndex(timestamp, starts, end) : bucketIndexSql(micros, starts, end, hooks)
}

/** Exported for tests: the runs of equal-length buckets. */
export function bucketRuns(startsMicros: ReadonlyArray<number>, endMicros: number): Run[] {
  const runs: Run[] = []
  for (let i = 0; i < startsMicros.length; i++) {
    const start = startsMicros[i]!
    const next = i + 1 < startsMicros.length ? startsMicros[i + 1]! : endMicros
    const length = next - start
    if (!(length > 0)) throw new RangeError('bucket starts must increase and precede the end')
    const last = runs[runs.length - 1]
    if (last && last.length === length && last.start + (i - last.firstIndex) * last.length === start) continue
    runs.push({ firstIndex: i, start, length })
  }
  return runs
}

/** Integers the compiler computed (never user text): inlined so both databases see 64-bit integer literals. */
function lit(n: number): Expression<number> {
  if (!Number.isSafeInteger(n)) throw new RangeError(`not a safe integer: ${n}`)
  return sql.lit(n) as Expression<number>
}
