import { sql } from 'kysely'
import type { FunnelPlan } from '../funnel-plan.js'
import { carriesRunValue, eventPlan, partitionCols, runCols, runNames } from './run-key.js'
import { bit, cols, hasBit, hasBitValue, id, int, join, sameCols, type Sql } from './sql-kit.js'

/** `kind` of an occurrence row. */
export const P = 1
export const X = 2
export const C = 3

/**
 * `grp`: each run's events, flagged `multi` when several events share a
 * timestamp with different flag lists (steps.rs then splits the instant into
 * one pseudo-event per step, drops exclusions and skips the strict reset).
 */
export function groupsSql(plan: FunnelPlan): Sql {
  const base = eventPlan(plan)
  const run = runCols(base)
  const source = plan.order === 'strict' ? sql`cmp` : sql`runs`
  // trends.rs takes events sharing a timestamp one by one. Otherwise the (few) split instants are found by
  // grouping and joined back: cheaper than a sort of every event by instant.
  if (plan.trends) return sql`select r.*, 0 as multi from ${source} as r`
  const split = sql`select ${run}, ts from ${source} as s group by ${run}, ts having count(*) > 1 and (min(sm) <> max(sm) or min(xm) <> max(xm))`
  return sql`select r.*, (case when m.ts is null then 0 else 1 end) as multi from ${source} as r left join (${split}) as m on ${sameCols(runNames(base), 'm', 'r')} and m.ts = r.ts`
}

/**
 * `cmp` (strict funnels): their events, every one of the scope, without the
 * redundant resets. An event matching nothing only resets the paths, so it
 * matters only between a run's first step-0 event and its last step or
 * exclusion event (inclusive: one at those instants makes them split
 * instants): before, no path exists; after, nothing extends one. Runs
 * without a step-0 event are dropped whole, as they reach no step. Of a row
 * of such events in that span, each alone at its instant (so in no split
 * instant), the first does all the others would, so only it is kept. One
 * sort, of the events inside the spans only (the sort of every event by
 * person was most of a strict funnel).
 */
export function compactedSql(plan: FunnelPlan): Sql {
  const base = eventPlan(plan)
  const run = runCols(base)
  const spans = sql`select ${run}, min(case when ${hasBit(sql`sm`, 0)} then ts end) as lo, max(ts) as hi from runs where sm <> 0 or xm <> 0 group by ${run}`
  const inSpan = sql`select r.* from runs as r join (${spans}) as sp on ${sameCols(runNames(base), 'sp', 'r')} where r.ts >= sp.lo and r.ts <= sp.hi`
  return sql`select * from (
      select r.*, lag(ts) over w as pts, lag(ts, 2) over w as ppts, lead(ts) over w as nts,
        lag(case when sm = 0 and xm = 0 then 1 else 0 end) over w as pblank
      from (${inSpan}) as r window w as (partition by ${partitionCols(base)} order by ts, fs, uuid)
    ) as c where not (sm = 0 and xm = 0 and pblank = 1 and pts < ts and (nts is null or nts > ts) and (ppts is null or ppts < pts))`
}

/**
 * `occ`: what the ordered and strict algorithm processes, one row each, in
 * its processing order `seq` (per run): a step code (`kind` P, `lvl` = the
 * 1-based step), an exclusion code (X, `lvl` = the gap j: it hits the path
 * that completed j steps) and, for strict funnels, the reset after each event
 * (C, `mask` = the event's steps). Within one timestamp, events go by lowest
 * step then uuid; an event's codes go exclusions first (gap descending), then
 * steps from the highest down, then its reset; a split instant (`multi`)
 * goes by step, then event, without exclusions or resets.
 */
export function occurrencesSql(plan: FunnelPlan): Sql {
  plan = eventPlan(plan)
  const n = plan.n
  const levels = sql`(values ${join(Array.from({ length: n }, (_, i) => sql`(${int(i + 1)}, ${int(bit(i))})`))}) as lv(l, bv)`
  const b = join(cols('b', plan.dims, 'g'))
  const common = sql`${runCols(plan, 'g')}, g.ts, g.uuid, g.fs, g.multi, g.sm as mask, ${b}`
  const branches: Sql[] = [
    sql`select ${common}, ${int(P)} as kind, lv.l as lvl,
      (case when g.multi = 1 then lv.l else g.fs end) as k1, (case when g.multi = 1 then g.fs else 0 end) as k2,
      (case when g.multi = 1 then 0 else ${int(2 * n)} - lv.l end) as k3
      from grp as g cross join ${levels} where ${hasBitValue(sql`g.sm`, sql`lv.bv`)}`,
  ]
  if (plan.gaps.some((g) => g)) {
    const gaps = plan.gaps.map((covered, j) => (covered ? j : 0)).filter((j) => j > 0)
    const gapValues = sql`(values ${join(gaps.map((j) => sql`(${int(j)}, ${int(bit(j - 1))})`))}) as gv(j, bv)`
    branches.push(sql`select ${common}, ${int(X)}, gv.j, g.fs, 0, ${int(n)} - gv.j from grp as g cross join ${gapValues} where g.multi = 0 and ${hasBitValue(sql`g.xm`, sql`gv.bv`)}`)
  }
  if (plan.order === 'strict') {
    branches.push(sql`select ${common}, ${int(C)}, 0, g.fs, 0, ${int(2 * n)} from grp as g where g.multi = 0`)
  }
  const order = sql`partition by ${partitionCols(plan, 'o')} order by o.ts, o.k1, o.k2, o.uuid, o.k3`
  return sql`select o.*, row_number() over (${order}) as seq${plan.order === 'strict' ? sql`, ${strictResets(n, order)}` : sql``}
    from (${join(branches, '\nunion all\n')}) as o`
}

/**
 * Strict funnels: `r0..r{n-1}`, on each row the number of resets so far
 * (this row included) by events not matching step k+1 (0-based bit k). A
 * path that completed k+1 steps dies at such a reset, so a code finds the
 * path it meets alive when the count has not moved since the path's own row.
 * Each level's pass reads these counts on its rows instead of carrying every
 * reset through its own window: the resets are counted once, here, in the
 * window that numbers `seq` (one sort), and the passes hold only paths, step
 * and exclusion codes (a strict funnel with a frequent step put nearly every
 * event through every level's sort). Counts, not the latest reset's `seq`,
 * because `seq` is numbered in this same window.
 */
function strictResets(n: number, order: Sql): Sql {
  return join(
    Array.from(
      { length: n },
      (_, k) =>
        sql`sum(case when o.kind = ${int(C)} and not ${hasBit(sql`o.mask`, k)} then 1 else 0 end) over (${order} rows between unbounded preceding and current row) as ${id(`r${k}`)}`,
    ),
  )
}

/**
 * `t1`: the paths that completed step 0 (tenures of E[1]). A step-0 code
 * starts a path at its own time unless one already started at that instant
 * (steps.rs: E[0] is "now", and E[1] already holds it); with step
 * attribution on step 0, only events carrying the run's value start one.
 * `sts` lists the path's events at its last instant (`,uuid,`) when that is a
 * split instant, which may not reuse them (',' otherwise).
 */
export function firstLevelSql(plan: FunnelPlan): Sql {
  const attribution = plan.attributionLevel === 1 ? sql` and ${carriesRunValue(plan)}` : sql``
  // Strict: the path's count of step-1 resets at its own row (counts only grow with seq, so the min is the first row's).
  const resetCount = plan.order === 'strict' ? sql`, min(r0) as rc` : sql``
  if (plan.trends) {
    // Trends: a step-0 event opens (or moves the start of) the attempt of its own period (`eper`, see
    // ordered-trends-sql.ts). Step-0 events at one instant are one start, unless an exclusion code on gap 1
    // comes between them (an event that is both, e.g. with an "All events" step 0): the later one then starts
    // a clean path again (trends.rs resets E[1] on every step-0 event).
    const base = runCols(eventPlan(plan))
    const source = plan.gaps[1]
      ? sql`(select o.*, sum(case when kind = ${int(X)} and lvl = 1 then 1 else 0 end) over (partition by ${partitionCols(eventPlan(plan))} order by seq rows between unbounded preceding and current row) as cx from occ0 as o) as o`
      : sql`(select o.*, 0 as cx from occ0 as o) as o`
    return sql`select ${base}, eper as per, min(seq) as seq, min(ts) as st, min(ts) as t1, ',' as sts${resetCount}
      from ${source} where kind = ${int(P)} and lvl = 1${attribution} group by ${base}, eper, ts, cx`
  }
  // Only a split instant can meet a path's events again at that instant (see levelSql): elsewhere `sts` is ','.
  return sql`select ${runCols(plan)}, min(seq) as seq, min(ts) as st, min(ts) as t1,
    coalesce(',' || substr(min(case when multi = 1 then lpad(cast(seq as varchar), 20, '0') || cast(uuid as varchar) end), 21) || ',', ',') as sts${resetCount}
    from occ where kind = ${int(P)} and lvl = 1${attribution} group by ${runCols(plan)}, ts`
}

export { hasBit }
