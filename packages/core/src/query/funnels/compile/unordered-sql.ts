import { sql } from 'kysely'
import type { FunnelPlan } from '../funnel-plan.js'
import { carriesRunValue, runCols, runNames } from './run-key.js'
import { id, int, join, sameCols, type Sql } from './sql-kit.js'

/** The distinct classes of an unordered funnel's steps, with how many steps share each. */
export function stepClasses(plan: FunnelPlan): Array<{ cls: number; size: number }> {
  const sizes = new Map<number, number>()
  for (const c of plan.stepClass) sizes.set(c, (sizes.get(c) ?? 0) + 1)
  return [...sizes].map(([cls, size]) => ({ cls, size }))
}

/**
 * The CTEs of `unorderedStateSql`'s per-event state, shared by the steps view
 * and the trends: `u5` has, per event of each run (processing order `seq`:
 * time, lowest step, uuid), its exclusion `seg`ment, whether it entered the
 * queues (`pushed`), its class `cls` and class rank `rk`, per class the
 * queued events of that class up to it (`cr{c}`) and before the window
 * (`co{c}`), `done` (distinct steps in the queues after it, 0 after an
 * exclusion) and `mts` (the oldest queued time).
 *
 * funnels.md §5 (unordered_steps.rs) as sets: the queues after an event are
 * the events pushed since the last exclusion and within the window of it
 * (FIFO eviction of the oldest); steps sharing an entity are filled in turn,
 * so a class of k steps has min(k, queued) of them done. An event matching
 * several classes counts for the class of its lowest step. With step
 * attribution, an event enters an empty queue set only if it carries the
 * run's value, so the pushed events of an island (events no more than a
 * window apart) are those from its first such event on.
 */
export function unorderedStateCtes(plan: FunnelPlan): Array<readonly [string, Sql]> {
  const run = runCols(plan)
  const W = int(plan.windowMicros)
  const classes = stepClasses(plan)
  const clsOf = sql`(case fs ${join(plan.stepClass.map((c, i) => sql`when ${int(i + 1)} then ${int(c)}`), ' ')} else -1 end)`
  const byRun = sql`partition by ${run} order by seq`
  const attribution = plan.attributionLevel !== null
  const pushed = attribution ? sql`(ex = 0 and seq >= coalesce(min(case when ex = 0 and ${carriesRunValue(plan)} then seq end) over (partition by ${run}, island), ${int(Number.MAX_SAFE_INTEGER)}))` : sql`(ex = 0)`
  const rows = sql`rows between unbounded preceding and current row`
  const perClass = classes.map(({ cls }) => {
    const mine = sql`(case when pushed = 1 and cls = ${int(cls)} then 1 else 0 end)`
    return sql`sum(${mine}) over (partition by ${run}, seg order by seq ${rows}) as ${id(`cr${cls}`)},
      coalesce(sum(${mine}) over (partition by ${run}, seg order by ts range between unbounded preceding and ${int(plan.windowMicros + 1)} preceding), 0) as ${id(`co${cls}`)}`
  })
  const done = join(
    classes.map(({ cls, size }) => sql`least(${int(size)}, ${id(`cr${cls}`)} - ${id(`co${cls}`)})`),
    ' + ',
  )
  return [
    ['u0', sql`select r.*, row_number() over (partition by ${runCols(plan, 'r')} order by r.ts, r.fs, r.uuid) as seq, (case when r.sm = 0 then 1 else 0 end) as ex, ${clsOf} as cls from runs as r`],
    ['u1', sql`select u0.*, sum(ex) over (${byRun} ${rows}) as seg, lag(ts) over (${byRun}) as pts, lag(ex) over (${byRun}) as pex from u0`],
    ['u2', sql`select u1.*, sum(case when pts is null or ex = 1 or ts - pts > ${W} then 1 else 0 end) over (${byRun} ${rows}) as island from u1`],
    ['u3', sql`select u2.*, (case when ${pushed} then 1 else 0 end) as pushed from u2`],
    [
      'u4',
      sql`select u3.*, ${join(perClass)},
        min(case when pushed = 1 then ts end) over (partition by ${run}, seg order by ts range between ${W} preceding and current row) as mts
        from u3`,
    ],
    [
      'u5',
      sql`select u4.*, (case when ex = 1 then 0 else ${done} end) as done,
        (case cls ${join(classes.map(({ cls }) => sql`when ${int(cls)} then ${id(`cr${cls}`)}`), ' ')} else 0 end) as rk
        from u4`,
    ],
  ]
}

/**
 * The unordered funnel (funnels.md §5) as CTEs ending in
 * `outcome(tgt, p0.., reached, t1..tn)`. Progress is recorded when the
 * oldest queued event leaves the window (or everything is done) at the next
 * event, from the queues after the previous event, and at the last event
 * from the final queues; the first record of the highest count is the run's,
 * and its times are the queue heads' (per class, its oldest queued events).
 */
export function unorderedOutcomeCtes(plan: FunnelPlan): Array<readonly [string, Sql]> {
  const run = runCols(plan)
  const W = int(plan.windowMicros)
  const n = plan.n
  const classes = stepClasses(plan)
  const byRun = sql`partition by ${run} order by seq`
  const records = sql`select ${run}, 2 * seq as pos, seq - 1 as src, pdone as v from (
      select ${run}, seq, ts, lag(done) over (${byRun}) as pdone, lag(mts) over (${byRun}) as pmts from u5) as l
      where pdone > 0 and (pmts + ${W} < ts or pdone >= ${int(n)})
    union all
    select ${run}, 2 * seq + 1, seq, done from (select ${run}, seq, done, max(seq) over (partition by ${run}) as last from u5) as f where seq = last and done > 0`
  const best = sql`select ${run}, src, v from (
      select r.*, row_number() over (partition by ${run} order by v desc, pos) as rn from (${records}) as r) as b where rn = 1`
  const heads = join(
    classes.map(({ cls, size }) => sql`(h.cls = ${int(cls)} and h.rk > s.${id(`co${cls}`)} and h.rk <= s.${id(`co${cls}`)} + least(${int(size)}, s.${id(`cr${cls}`)} - s.${id(`co${cls}`)}))`),
    ' or ',
  )
  const onRun = (a: string, b: string) => sameCols(runNames(plan), a, b)
  const headTimes = sql`select ${runCols(plan, 'b')}, b.v, h.ts, row_number() over (partition by ${runCols(plan, 'b')} order by h.ts) as hn
    from ubest as b join u5 as s on ${onRun('s', 'b')} and s.seq = b.src
    join u5 as h on ${onRun('h', 'b')} and h.seg = s.seg and h.pushed = 1 and h.seq <= s.seq and (${heads})`
  return [
    ...unorderedStateCtes(plan),
    ['ubest', best],
    ['uheads', headTimes],
    [
      'outcome',
      sql`select ${run}, max(v) - 1 as reached, ${join(Array.from({ length: n }, (_, i) => sql`max(case when hn = ${int(i + 1)} then ts end) as ${id(`t${i + 1}`)}`))}
        from uheads group by ${run}`,
    ],
  ]
}
