import { sql } from 'kysely'
import type { SqlHooks } from '../../../storage.js'
import { id, int, type Cte, type Sql } from './sql-kit.js'

/**
 * The time-to-convert histogram from `outcome` (funnels.md §11): one sample
 * per run that reached `toStep`, the time from step `fromStep` to step
 * `toStep` of its reported path (microseconds: the sum of the step times in
 * between). `bin_count` when given (clamped by the decoder), else
 * ceil(cbrt(samples)) clamped to 1..60; bins start at floor(min) seconds and
 * are ceil((ceil(max) - floor(min)) / bins) seconds wide, 60 when that is 0
 * (no samples count as min = max = 0, as ClickHouse's empty arrays do). One
 * row per non-empty bin (`bin`, `persons`), each with the shared `bins`,
 * `lo` (seconds), `width` and `average` (seconds, null without samples); one
 * row with a null `bin` when there is no sample.
 */
export function timeToConvertSql(fromStep: number, toStep: number, binCount: number | null, hooks: SqlHooks): { ctes: Array<Cte>; final: Sql } {
  const sample = sql`(${id(`t${toStep + 1}`)} - ${id(`t${fromStep + 1}`)})`
  const bins = binCount === null ? sql`least(60, greatest(1, cast(ceil(cbrt(count(*))) as bigint)))` : sql`cast(${int(binCount)} as bigint)`
  const stats = sql`select ${bins} as bins,
      coalesce(${hooks.intDiv(sql`min(s)`, sql`cast(1000000 as bigint)`)}, 0) as lo,
      coalesce(${hooks.intDiv(sql`(max(s) + 999999)`, sql`cast(1000000 as bigint)`)}, 0) as hi,
      cast(avg(s) as double precision) / 1000000.0 as average
    from ttc_samples`
  const width = sql`(case when hi - lo = 0 then 60 else ${hooks.intDiv(sql`(hi - lo + bins - 1)`, sql`bins`)} end)`
  const ctes: Array<Cte> = [
    ['ttc_samples', sql`select ${sample} as s from outcome where reached >= ${int(toStep)}`],
    ['ttc_stats', sql`select st0.*, ${width} as width from (${stats}) as st0`],
  ]
  const final = sql`select st.bins, st.lo, st.width, st.average, b.bin, b.persons from ttc_stats as st
    left join (
      select ${hooks.intDiv(sql`(x.s - s2.lo * 1000000)`, sql`(s2.width * 1000000)`)} as bin, count(*) as persons
      from ttc_samples as x cross join ttc_stats as s2 group by 1
    ) as b on true`
  return { ctes, final }
}
