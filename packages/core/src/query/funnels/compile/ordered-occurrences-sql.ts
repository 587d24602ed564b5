import { sql } from 'kysely'
import type { FunnelPlan } from '../funnel-plan.js'
import { carriesRunValue, eventPlan, partitionCols, runCols, runNames } from './run-key.js'
import { bit, cols, hasBit, hasBitValue, id, int, join, nullOf, sameCols, type Cte, type Sql } from './sql-kit.js'

/** `kind` of an occurrence row. */
export const P = 1
export const X = 2

/**
 * `grp`: each run's events, flagged `multi` when several events share a
 * timestamp with different flag lists (steps.rs then splits the instant into
 * one pseudo-event per step, drops exclusions and skips the strict reset);
 * with the CTEs it reads. Ordered funnels: `spans` (run columns, `lo`,
 * `hi`) names the runs to take and their events within reach; default,
 * every run with a step-0 event. Strict funnels: `compacted` names the CTE
 * of their events (`cmp`, or some runs of it).
 */
export function groupsCtes(plan: FunnelPlan, spans: Sql | null = null, compacted = 'cmp'): Array<Cte> {
  const base = eventPlan(plan)
  if (plan.order === 'strict') {
    // `cmp` found the split instants and numbered the events; a split instant's codes are ordered by step, then
    // event (occurrencesSql), so its few events get their place in it (`pos` of `isize`, from its first `ifirst`).
    const inst = sql`(partition by ${runCols(base)}, ts)`
    const none = nullOf('bigint')
    return [
      [
        'grp',
        sql`select c.*, ${none} as ifirst, ${none} as isize, ${none} as pos from ${id(compacted)} as c where c.multi = 0
      union all
      select c.*, min(er) over ${inst}, count(*) over ${inst}, row_number() over (partition by ${runCols(base)}, ts order by fs, uuid) - 1 from ${id(compacted)} as c where c.multi = 1`,
      ],
    ]
  }
  // `inr`: only events from a run's first step-0 event to a window after its last can take part: before, no
  // path exists; after, every path's window has closed. Runs without a step-0 event reach nothing. (A frequent
  // later step keeps only its events near a start: fewer rows for every level's pass, and for the grouping
  // that finds the split instants, which reads `inr`, not `runs`: 10M events, a 16% middle step, -33%.)
  const run = runCols(base)
  const starts = spans ?? sql`select ${run}, min(ts) as lo, max(ts) + ${int(plan.windowMicros)} as hi from runs where ${hasBit(sql`sm`, 0)} group by ${run}`
  const inReach = sql`select r.* from runs as r join (${starts}) as sb on ${sameCols(runNames(base), 'sb', 'r')} where r.ts >= sb.lo and r.ts <= sb.hi`
  return [
    ['inr', inReach],
    ['grp', sql`select r.*, ${multiOf(plan)} from inr as r${splitJoin(plan, sql`inr`)}`],
  ]
}

/** `multi` of the rows `r` of a run's events: 1 in a split instant, 0 elsewhere and always in trends (see splitJoin). */
const multiOf = (plan: FunnelPlan): Sql => (plan.trends ? sql`0 as multi` : sql`(case when m.ts is null then 0 else 1 end) as multi`)

/**
 * The join that finds the split instants of `source` for its rows `r`, as `m`. trends.rs takes events sharing a
 * timestamp one by one: none there. Otherwise the (few) split instants are found by grouping and joined back:
 * cheaper than a sort of every event by instant.
 */
function splitJoin(plan: FunnelPlan, source: Sql): Sql {
  if (plan.trends) return sql``
  const base = eventPlan(plan)
  const run = runCols(base)
  const split = sql`select ${run}, ts from ${source} as s group by ${run}, ts having count(*) > 1 and (min(sm) <> max(sm) or min(xm) <> max(xm))`
  return sql` left join (${split}) as m on ${sameCols(runNames(base), 'm', 'r')} and m.ts = r.ts`
}

/**
 * `spn` and `cmp` (strict funnels): their events, every one of the scope
 * within the spans below, then only those that make codes. An event matching nothing only resets the paths, so it
 * matters only between a run's first step-0 event and its last step or
 * exclusion event (inclusive: one at those instants makes them split
 * instants): before, no path exists; after, nothing extends one. Runs
 * without a step-0 event are dropped whole, as they reach no step. One
 * sort, of the events inside the spans only (the sort of every event by
 * person was most of a strict funnel), which also finds the split instants
 * (`multi`, as groupsCtes), numbers the events in processing order (`er`) and
 * counts the resets before each (`r0..`; see occurrencesSql). Those counts
 * are all an event matching nothing gives, so after them `cmp` keeps only
 * the events that match a step or an exclusion, and those of split instants
 * (whose size and order `grp` reads): occurrencesSql and the strict chain
 * read nothing else. (They used to keep the first of each row of such
 * events, found by three lags and a lead: DuckDB, 10M events, a strict 3-step
 * funnel took 0.87 of the time without them.)
 */
export function compactedCtes(plan: FunnelPlan): Array<Cte> {
  const base = eventPlan(plan)
  const run = runCols(base)
  const spans = sql`select ${run}, min(case when ${hasBit(sql`sm`, 0)} then ts end) as lo, max(ts) as hi from runs where sm <> 0 or xm <> 0 group by ${run}`
  // Where `fe` holds only the spans' events and a run is its target's, each run's span is all of its events (its first
  // step-0 event opens it, its last step or exclusion event closes it): cutting again changed nothing and cost a
  // grouping and a join of every kept event (DuckDB, 10M events, a strict 3-step funnel: 0.90 of the time without).
  const inSpan =
    plan.spansAtScan && plan.runs === 'none'
      ? sql`select * from runs`
      : sql`select r.* from runs as r join (${spans}) as sp on ${sameCols(runNames(base), 'sp', 'r')} where r.ts >= sp.lo and r.ts <= sp.hi`
  const order = sql`partition by ${partitionCols(base)} order by ts, fs, uuid`
  // Resets before each event (a split instant resets nothing), by the step they clear: see occurrencesSql.
  const resets = Array.from({ length: plan.n }, (_, k) => {
    const clears = sql`(case when multi = 0 and not ${hasBit(sql`sm`, k)} then 1 else 0 end)`
    return sql`sum(${clears}) over (${order} rows between unbounded preceding and current row) - ${clears} as ${id(`r${k}`)}`
  })
  const cmp = sql`select * from (
      select r.*, row_number() over w as er, ${join(resets)}
      from (select r.*, ${multiOf(plan)} from spn as r${splitJoin(plan, sql`spn`)}) as r window w as (${order})
    ) as c where sm <> 0 or xm <> 0 or multi = 1`
  return [
    ['spn', inSpan],
    ['cmp', cmp],
  ]
}

/**
 * `occ`: what the ordered and strict algorithm processes, one row each, in
 * its processing order `seq` (per run): a step code (`kind` P, `lvl` = the
 * 1-based step) and an exclusion code (X, `lvl` = the gap j: it hits the path
 * that completed j steps). Within one timestamp, events go by lowest step
 * then uuid; an event's codes go exclusions first (gap descending), then
 * steps from the highest down; a split instant (`multi`) goes by step, then
 * event, without exclusions.
 *
 * Strict funnels also reset, after each event outside a split instant, the
 * paths of the steps it does not match. Those resets are not rows here: each
 * code carries `r0..r{n-1}`, the resets before its event by events not
 * matching step k+1 (0-based bit k), counted once in `cmp`. A path that
 * completed k+1 steps is alive at a code while that count has not moved since
 * the path's own code, so each level's pass holds only paths and codes (with
 * reset rows, a frequent step put nearly every event through every level's
 * sort). And `cmp` numbered the events in this order (`er`), so a strict
 * code's `seq` is computed, not sorted: `er * 2^31` plus its place among its
 * event's codes, or within its split instant. (2^31 bounds both the events of
 * one run and the codes of one split instant; seq stays below 2^62.)
 */
export function occurrencesSql(plan: FunnelPlan): Sql {
  plan = eventPlan(plan)
  const n = plan.n
  const strict = plan.order === 'strict'
  const levels = sql`(values ${join(Array.from({ length: n }, (_, i) => sql`(${int(i + 1)}, ${int(bit(i))})`))}) as lv(l, bv)`
  const b = join(cols('b', plan.dims, 'g'))
  const common = sql`${runCols(plan, 'g')}, g.ts, g.uuid, g.fs, g.multi, g.sm as mask, ${b}${strict ? sql`, ${join(cols('r', n, 'g'))}` : sql``}`
  // Sort keys (k1, k2, uuid, k3) after ts, or (strict) the computed seq.
  const place = (k1: Sql, k2: Sql, k3: Sql, strictSeq: Sql) => (strict ? sql`${strictSeq} as seq` : sql`${k1} as k1, ${k2} as k2, ${k3} as k3`)
  const S = int(2 ** 31)
  const branches: Sql[] = [
    sql`select ${common}, ${int(P)} as kind, lv.l as lvl, ${place(
      sql`(case when g.multi = 1 then lv.l else g.fs end)`,
      sql`(case when g.multi = 1 then g.fs else 0 end)`,
      sql`(case when g.multi = 1 then 0 else ${int(2 * n)} - lv.l end)`,
      sql`(case when g.multi = 1 then g.ifirst * ${S} + (lv.l - 1) * g.isize + g.pos else g.er * ${S} + ${int(2 * n)} - lv.l end)`,
    )}
      from grp as g cross join ${levels} where ${hasBitValue(sql`g.sm`, sql`lv.bv`)}`,
  ]
  if (plan.gaps.some((g) => g)) {
    const gaps = plan.gaps.map((covered, j) => (covered ? j : 0)).filter((j) => j > 0)
    const gapValues = sql`(values ${join(gaps.map((j) => sql`(${int(j)}, ${int(bit(j - 1))})`))}) as gv(j, bv)`
    branches.push(
      sql`select ${common}, ${int(X)}, gv.j, ${place(sql`g.fs`, sql`0`, sql`${int(n)} - gv.j`, sql`g.er * ${S} + ${int(n)} - gv.j`)}
        from grp as g cross join ${gapValues} where g.multi = 0 and ${hasBitValue(sql`g.xm`, sql`gv.bv`)}`,
    )
  }
  const codes = join(branches, '\nunion all\n')
  if (strict) return codes
  return sql`select o.*, row_number() over (partition by ${partitionCols(plan, 'o')} order by o.ts, o.k1, o.k2, o.uuid, o.k3) as seq
    from (${codes}) as o`
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
