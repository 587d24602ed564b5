import { sql, type Expression } from 'kysely'
import { actorKeySql, asNumber, groupBySql, keyNames, rowsSql, selectGroups, type CellsInput, type CellsSql } from './cells-sql.js'
import type { TrendSeries } from './trend-request.js'

const int = (n: number): Expression<number> => {
  if (!Number.isSafeInteger(n)) throw new RangeError(`not a safe integer: ${n}`)
  return sql.lit(n) as Expression<number>
}

/**
 * Active users over day-aligned windows (shared/reference/performance.md's
 * gap/delta shape, 11.6x the floor against 44x for expanding each person-day
 * into N days): `input.bucket` is the row's local day index. A person active
 * on day d is counted for the window ending on days d .. d+N-1; sorted by
 * day, each person-day newly covers `[max(d, previous + N), d + N - 1]`, so
 * it adds +1 where that starts and -1 at d + N. Cells are `{k.., b: day,
 * v: delta}`; the count of a window ending on day e is the sum of the deltas
 * at days <= e (the caller's running sum).
 */
export function activeDaysCellsSql(series: TrendSeries, input: CellsInput, days: number): CellsSql {
  const keys = keyNames(input)
  const n = int(days)
  const personDays = sql`select distinct ${selectGroups(keys)}a, b as d from (${rowsSql(input, [['a', actorKeySql(series, input)]])}) as r where a is not null`
  const partition = sql.join([...keys, 'a'].map((c) => sql.raw(c)), sql`, `)
  const gaps = sql`select ${selectGroups(keys)}d, lag(d) over (partition by ${partition} order by d) as p from (${personDays}) as pd`
  const deltas = sql`select ${selectGroups(keys)}(case when p is null or p + ${n} <= d then d else p + ${n} end) as s, 1 as delta from g
    union all select ${selectGroups(keys)}d + ${n} as s, -1 as delta from g`
  return sql`with g as (${gaps}) select ${selectGroups(keys)}s as b, ${asNumber(sql`sum(delta)`)} as v from (${deltas}) as x ${groupBySql([...keys, 's'])}`
}

/** One window of an active-users bucket: rows with `lo <= timestamp < hi` (epoch microseconds) count for bucket `index`. */
export interface ActiveWindow {
  readonly index: number
  readonly loMicros: number
  readonly hiMicros: number
}

/**
 * Active users over windows that do not follow local days (hour and minute
 * buckets: the N days ending where each bucket ends): distinct actors per
 * window through a range join of the rows with the window list. Cells are
 * `{b: bucket, k.., v}`. `input.bucket` is not read.
 */
export function activeWindowsCellsSql(series: TrendSeries, input: CellsInput, windows: ReadonlyArray<ActiveWindow>): CellsSql {
  const keys = keyNames(input)
  const rows = rowsSql({ ...input, bucket: null }, [
    ['a', actorKeySql(series, input)],
    ['u', input.scope.sources.timestampMicros],
  ])
  const values = sql.join(
    windows.map((w) => sql`(${int(w.index)}, ${int(w.loMicros)}, ${int(w.hiMicros)})`),
    sql`, `,
  )
  const distinct = sql`select distinct w.i as b, ${selectGroups(keys.map((k) => `r.${k}`))}r.a from (${rows}) as r join (values ${values}) as w(i, lo, hi) on r.u >= w.lo and r.u < w.hi where r.a is not null`
  return sql`select ${selectGroups(['b', ...keys])}${asNumber(sql`count(*)`)} as v from (${distinct}) as t ${groupBySql(['b', ...keys])}`
}
