import { sql, type Expression } from 'kysely'
import type { SqlHooks } from '../../../storage.js'
import type { FunnelPlan } from '../funnel-plan.js'
import { eventPlan, partitionCols, runCols } from './run-key.js'
import { id, int, join, type Cte, type Sql } from './sql-kit.js'
import { stepClasses, unorderedStateCtes } from './unordered-sql.js'

/**
 * Unordered funnel trends (funnels.md §10.4, unordered_trends.rs) as CTEs
 * ending in `toutcome(tgt, p0.., per, outcome)`.
 *
 * The queues are the pushed events of the current exclusion segment from a
 * cut on (events are popped oldest first). Before each event the cut moves
 * past every event outside the window and, while every step is done, past
 * the oldest ones until one is not: the cut is the running maximum of those
 * two thresholds, and the completion threshold is one past the earliest of
 * each class's k-th latest queued event (k = the steps of that class). A
 * popped event records the distinct steps of the queues at its pop (its own
 * events to the newest queued) for its own period; the last event pops
 * everything; an exclusion clears the rest unrecorded. A period whose best
 * record reaches `fromStep + 1` steps is an entry, converted at all steps.
 * An event matching steps of several classes counts for the class of the
 * step `filing` files it under (see `unorderedStateCtes`).
 */
export function unorderedTrendCtes(
  plan: FunnelPlan,
  periodOf: (ts: Expression<number>) => Expression<number>,
  fromStep: number,
  filing: SqlHooks | null,
  hooks: SqlHooks,
): Array<Cte> {
  const base = eventPlan(plan)
  const run = runCols(base)
  const part = partitionCols(base)
  const n = plan.n
  const classes = stepClasses(plan)
  const byRun = sql`partition by ${part} order by seq`
  const before = sql`rows between unbounded preceding and 1 preceding`
  const kpos = sql`(case when pushed = 1 then (case cls ${join(
    classes.map(({ cls, size }) => sql`when ${int(cls)} then lag(seq, ${int(size - 1)}) over (partition by ${part}, seg, pushed, cls order by seq)`),
    ' ',
  )} end) end)`
  const kMax = classes.map(({ cls }) => sql`max(case when cls = ${int(cls)} then kp end) over (${byRun} ${before}) as ${id(`kq${cls}`)}`)
  const prevCounts = classes.map(({ cls }) => sql`(case when lag(dseg) over (${byRun}) = dseg then coalesce(lag(${id(`cr${cls}`)}) over (${byRun}), 0) else 0 end) as ${id(`pc${cls}`)}`)
  const compCut = classes.length === 0 ? sql`0` : sql`(1 + least(${join(classes.map(({ cls }) => sql`coalesce(${id(`kq${cls}`)}, -2)`))}))`
  const crs = classes.map(({ cls }) => id(`cr${cls}`))
  const pcs = classes.map(({ cls }) => id(`pc${cls}`))
  const record = join(
    classes.map(({ cls, size }) => sql`least(${int(size)}, ${id(`nc${cls}`)} - ${id(`cr${cls}`)} + (case when cls = ${int(cls)} then 1 else 0 end))`),
    ' + ',
  )
  // A cut row at `pos` pops the queued events before it: it sorts before an event at that position. The
  // rows from this one to the end, as a running frame in reverse: (pos, typ, eseq) is unique within a run's
  // segment, so it is the same set of rows, and Postgres computes a running min once instead of once per row
  // (a frame ending at UNBOUNDED FOLLOWING made a heavy person quadratic: 18,000 events took 664 s on PGlite).
  const following = sql`(partition by ${part}, dseg order by pos desc, typ desc, eseq desc rows between unbounded preceding and current row)`
  return [
    ...unorderedStateCtes(base, filing, hooks),
    // The first event within e's window: one past the events before it (a moving count, cheap everywhere).
    ['ut0', sql`select u5.*, ${kpos} as kp, 1 + coalesce(${hooks.sumBefore(null, part, id('ts'), plan.windowMicros + 1)}, 0) as wcut from u5`],
    ['ut1', sql`select ut0.*, ${join([...kMax, ...prevCounts])}, max(seq) over (partition by ${part}) as lastseq from ut0`],
    ['ut2', sql`select ut1.*, max(greatest(wcut, ${compCut})) over (${byRun} rows between unbounded preceding and current row) as cut from ut1`],
    [
      'ut3',
      sql`select ${run}, seq as pos, 1 as typ, seq as eseq, seg as dseg, cls, ${join(crs)}, ${join(pcs.map((_, i) => sql`cast(null as bigint) as ${id(`pc${classes[i]!.cls}`)}`))}, ${periodOf(sql.ref('ts'))} as per
        from ut2 where pushed = 1
      union all
      select ${run}, cut, 0, seq, dseg, -1, ${join(crs.map((_, i) => sql`cast(null as bigint) as ${id(`cr${classes[i]!.cls}`)}`))}, ${join(pcs)}, cast(null as bigint) from ut2
      union all
      select ${run}, ${int(Number.MAX_SAFE_INTEGER)}, 0, seq + 1, seg, -1, ${join(crs.map(() => sql`cast(null as bigint)`))}, ${join(crs)}, cast(null as bigint) from ut2 where seq = lastseq`,
    ],
    [
      'ut4',
      sql`select ut3.*, ${join(classes.map(({ cls }) => sql`min(case when typ = 0 then ${id(`pc${cls}`)} end) over ${following} as ${id(`nc${cls}`)}`))},
        min(case when typ = 0 then eseq end) over ${following} as popped
        from ut3`,
    ],
    [
      'toutcome',
      sql`select ${run}, per, (case when max(rec) >= ${int(n)} then 1 else -1 end) as outcome from (
          select ${run}, per, ${record} as rec from ut4 where typ = 1 and popped is not null) as r
        group by ${run}, per having max(rec) >= ${int(fromStep + 1)}`,
    ],
  ]
}
