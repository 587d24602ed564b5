import { sql } from 'kysely'
import type { SqlHooks } from '../../../storage.js'
import type { FunnelPlan } from '../funnel-plan.js'
import { runCols } from './run-key.js'
import { cols, id, int, join, type Sql } from './sql-kit.js'

/** Seconds between step i-1 and step i (0-based i >= 1) of a run that reached step i, when above 0 (funnel_udf.py keeps `timings[i] > 0`). */
const stepTime = (i: number): Sql => sql`(case when reached >= ${int(i)} and ${id(`t${i + 1}`)} - ${id(`t${i}`)} > 0 then ${id(`t${i + 1}`)} - ${id(`t${i}`)} end)`

/** Per step: targets that reached it, and the mean and median (linear interpolation, ClickHouse's `median`) of its times in seconds. */
function stepAggregates(n: number, hooks: SqlHooks): Sql {
  const parts: Sql[] = []
  for (let i = 0; i < n; i++) parts.push(sql`count(case when reached >= ${int(i)} then 1 end) as ${id(`c${i}`)}`)
  for (let i = 1; i < n; i++) {
    parts.push(sql`cast(avg(${stepTime(i)}) as double precision) / 1000000.0 as ${id(`a${i}`)}`)
    parts.push(sql`cast(${hooks.quantileCont(sql<number | null>`${stepTime(i)}`, 0.5)} as double precision) / 1000000.0 as ${id(`m${i}`)}`)
  }
  return join(parts)
}

/**
 * `fin`: every run of `outcome` with the value it is shown under (`v0..`)
 * and its value's rank `rn` (null without a limit). Event, person and group
 * breakdowns keep the `limit` values ranked by the count at the last step,
 * then the one before, ... then by value (code point order), and merge the
 * rest into "Other" (`v0 = 'Other'`, the other parts null).
 */
export function finalValuesCte(plan: FunnelPlan, limit: number | null, hooks: SqlHooks): Sql {
  const n = plan.n
  const p = cols('p', plan.dims)
  const times = join(Array.from({ length: n }, (_, i) => id(`o.t${i + 1}`)))
  if (limit === null) {
    return sql`select ${runCols(plan, 'o')}, ${join(p.map((_, i) => sql`${id(`o.p${i}`)} as ${id(`v${i}`)}`))}, cast(null as bigint) as rn, o.reached, ${times} from outcome as o`
  }
  const counts = join(Array.from({ length: n }, (_, i) => sql`count(case when reached >= ${int(i)} then 1 end) as ${id(`c${i}`)}`))
  const rank = join([...Array.from({ length: n }, (_, i) => sql`${id(`c${n - 1 - i}`)} desc`), ...p.map((c) => sql`${hooks.binaryText(c as never)}`)])
  const on = join(Array.from({ length: plan.dims }, (_, i) => sql`${id(`rk.p${i}`)} = ${id(`o.p${i}`)}`), ' and ')
  const values = join(p.map((_, i) => sql`(case when rk.rn <= ${int(limit)} then ${id(`o.p${i}`)} else ${i === 0 ? sql`'Other'` : sql`cast(null as varchar)`} end) as ${id(`v${i}`)}`))
  return sql`select ${runCols(plan, 'o')}, ${values}, rk.rn, o.reached, ${times}
    from outcome as o join (
      select ${join(p)}, row_number() over (order by ${rank}) as rn from (select ${join(p)}, ${counts} from outcome group by ${join(p)}) as vc
    ) as rk on ${on}`
}

/**
 * The steps view from `fin`: one row per shown value (`v0..`), with counts
 * `c0..` (targets that reached at least step i), mean `a1..` and median
 * `m1..` step times, and `rn`, the value's best rank (a kept value keeps its
 * place when the rest merge into it, being itself "Other"). Without a
 * breakdown, exactly one row (zeros when empty).
 */
export function stepsAggregateSql(plan: FunnelPlan, hooks: SqlHooks): Sql {
  if (plan.runs === 'none') return sql`select ${stepAggregates(plan.n, hooks)} from fin`
  const v = join(cols('v', plan.dims))
  return sql`select ${v}, min(rn) as rn, ${stepAggregates(plan.n, hooks)} from fin group by ${v}`
}
