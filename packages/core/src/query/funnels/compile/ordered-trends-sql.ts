import { sql, type Expression } from 'kysely'
import type { SqlHooks } from '../../../storage.js'
import type { FunnelPlan } from '../funnel-plan.js'
import { compactedCtes, firstLevelSql, groupsCtes, occurrencesSql, P } from './ordered-occurrences-sql.js'
import { levelSql } from './ordered-level-sql.js'
import { eventPlan, partitionCols, runCols, runNames } from './run-key.js'
import { id, int, join, sameCols, type Cte, type Sql } from './sql-kit.js'

/**
 * Ordered and strict funnel trends (funnels.md §10.2, trends.rs) as CTEs
 * ending in `toutcome(tgt, p0.., per, outcome)`: per run and entry period,
 * 1 = converted, -1 = entered without converting (rows with neither are
 * left out). `periodOf` maps a row's `ts` to its period index.
 *
 * Each period's attempt is the ordered algorithm over its own step-0 events
 * and everyone's later steps: the step-0 events of other periods are not
 * seen, events sharing a timestamp are taken one by one, and a step-0 event
 * always moves the start (same-instant step-0 events are one start). The
 * attempt's furthest depth K and its state follow trends.rs's `max_step`:
 * the first derivation at depth K, replaced while an exclusion code on gap K
 * within the window of its event has hit it ("partial"); the first such
 * derivation that stays unhit is the state (clean "not", or "full" when
 * made over an excluded path), else "partial". A period converts when a
 * clean path completes the cut funnel; otherwise it is an entrant from
 * depth `fromStep + 1` unless partial. A run with a full attempt keeps only
 * its conversions.
 */
export function orderedTrendCtes(
  plan: FunnelPlan,
  periodOf: (ts: Expression<number>) => Expression<number>,
  fromStep: number,
  hooks: SqlHooks,
): Array<Cte> {
  const base = eventPlan(plan)
  const baseRun = runCols(base)
  const n = plan.n
  const W = int(plan.windowMicros)
  const strict = plan.order === 'strict'
  const ctes: Array<Cte> = [
    ...(plan.order === 'strict' ? compactedCtes(plan) : []),
    ...groupsCtes(plan),
    ['occ0', sql`select o.*, ${periodOf(sql.ref('o.ts'))} as eper from (${occurrencesSql(base)}) as o`],
    ['t1', firstLevelSql(plan)],
    [
      'occ',
      // Each period's stream: the codes after its first step-0 event, but step 0 (strict: with their reset counts).
      sql`select ${runCols(base, 'o')}, pp.per, o.ts, o.uuid, o.fs, o.multi, o.mask, ${join(Array.from({ length: plan.dims }, (_, i) => id(`o.b${i}`)))}, o.kind, o.lvl, o.seq${strict ? sql`, ${join(Array.from({ length: n }, (_, k) => id(`o.r${k}`)))}` : sql``}
        from occ0 as o join (select ${baseRun}, per, min(seq) as fseq from t1 group by ${baseRun}, per) as pp on ${sameCols(runNames(base), 'pp', 'o')}
        where o.seq > pp.fseq and not (o.kind = ${int(P)} and o.lvl = 1)`,
    ],
  ]
  const tall: Sql[] = [sql`select ${runCols(plan)}, 1 as lvl, seq, t1 as ets, 0 as fx from t1`]
  const hits: Sql[] = []
  for (let level = 2; level <= n; level++) {
    const out = levelSql(plan, level, hooks)
    ctes.push(...out.ctes)
    tall.push(sql`select ${runCols(plan)}, ${int(level)}, seq, ${id(`t${level}`)}, 0 from ${id(out.tenures)}`)
    if (out.excluded) tall.push(sql`select ${runCols(plan)}, ${int(level)}, seq, ts, 1 from ${id(out.excluded)}`)
    if (out.hits) hits.push(sql`select ${runCols(plan)}, ${int(level - 1)} as lvl, seq, ts from ${id(out.hits)}`)
  }
  const run = runCols(plan)
  const part = partitionCols(plan)
  const on = (a: string, b: string) => sameCols(runNames(plan), a, b)
  ctes.push(['tall', join(tall, '\nunion all\n')])
  ctes.push(['tk', sql`select ${run}, max(lvl) as k, max(case when lvl = ${int(n)} and fx = 0 then 1 else 0 end) as conv from tall group by ${run}`])
  // The derivations at the furthest depth of attempts that did not convert, and the exclusion codes that hit a tenure there.
  const atK = [sql`select ${runCols(plan, 'a')}, a.seq, a.ets as ts, a.fx, 0 as hit from tall as a join tk on ${on('tk', 'a')} and a.lvl = tk.k where tk.conv = 0`]
  if (hits.length > 0) {
    atK.push(sql`select ${runCols(plan, 'h')}, h.seq, h.ts, 0, 1 from (${join(hits, '\nunion all\n')}) as h join tk on ${on('tk', 'h')} and h.lvl = tk.k where tk.conv = 0`)
  }
  // The first hit from each row on, as a running minimum in descending order (a frame running forward is quadratic on Postgres).
  ctes.push([
    'tm',
    sql`select m.*, min(case when hit = 1 then ts end) over (partition by ${part} order by seq desc, hit desc rows between unbounded preceding and current row) as nh
      from (${join(atK, '\nunion all\n')}) as m`,
  ])
  ctes.push([
    'tstate',
    sql`select tk.*, coalesce(f.fx, 2) as state from tk left join (
        select ${run}, fx, row_number() over (partition by ${part} order by seq) as rn from tm where hit = 0 and (nh is null or nh - ts > ${W})
      ) as f on ${on('f', 'tk')} and f.rn = 1`,
  ])
  const baseOnly = runCols(base)
  ctes.push([
    'toutcome',
    sql`select * from (
        select ${run}, (case when conv = 1 then 1
          when max(case when conv = 0 and state = 1 then 1 else 0 end) over (partition by ${partitionCols(base)}) = 1 then null
          when k >= ${int(fromStep + 1)} and state = 0 then -1 end) as outcome
        from tstate) as o where outcome is not null`,
  ])
  return ctes
}
