import { sql } from 'kysely'
import type { SqlHooks } from '../../../storage.js'
import type { FunnelPlan } from '../funnel-plan.js'
import { compactedCtes, firstLevelSql, groupsCtes, occurrencesSql } from './ordered-occurrences-sql.js'
import { levelSql } from './ordered-level-sql.js'
import { listOutcomeSql, stepListsCtes, stepListsFor, type TimeSpan } from './funnel-lists-sql.js'
import { strictChainCtes, strictChainFor } from './strict-chain-sql.js'
import { partitionCols, runCols, runNames } from './run-key.js'
import { id, int, join, nullOf, sameCols, type Cte, type Sql } from './sql-kit.js'

const times = (n: number, upTo: number, alias?: string): Sql =>
  join(Array.from({ length: n }, (_, i) => (i < upTo ? id(alias ? `${alias}.t${i + 1}` : `t${i + 1}`) : sql`${nullOf('bigint')} as ${id(`t${i + 1}`)}`)))

/**
 * The ordered and strict funnel (funnels.md §3-4, PostHog's steps.rs) over
 * `runs`, as CTEs ending in `outcome(tgt, p0.., reached, t1..tn)`: per run,
 * the 0-based furthest step reached and the step times (epoch µs) of the
 * reported path. Runs excluded by an exclusion are left out.
 *
 * The furthest depth K is the deepest derivation, clean or excluded. The
 * reported path is the first clean path to reach K that no exclusion code hit
 * while it was the furthest; if there is none, the run is excluded.
 * (steps.rs keeps the first path to reach K and replaces it only while it is
 * excluded; a later clean path that the same exclusion would not have hit
 * takes over, which comes to the first path that stays clean, since starts
 * only grow.)
 */
export function orderedOutcomeCtes(plan: FunnelPlan, hooks: SqlHooks, span: TimeSpan): Array<Cte> {
  // Where the dialect has list functions, step lists decide most runs, and the passes below take the rest.
  const lists = stepListsFor(plan, hooks)
  // Where joins of intermediate results hash, a strict funnel's runs without a split instant are chained by joins, and the passes take the rest.
  const chain = strictChainFor(plan, hooks)
  const ctes: Array<Cte> = [
    ...(lists ? stepListsCtes(plan, lists, span) : []),
    ...(plan.order === 'strict' ? compactedCtes(plan) : []),
    ...(chain ? strictChainCtes(plan) : []),
    ...groupsCtes(plan, lists ? sql`select ${runCols(plan)}, lo, hi from slo where sure = 0` : null, chain ? 'cmpu' : 'cmp'),
    ['occ', occurrencesSql(plan)],
    ['t1', firstLevelSql(plan)],
  ]
  const levels: Array<{ level: number; tenures: string; excluded: string | null; marked: string | null }> = [{ level: 1, tenures: 't1', excluded: null, marked: null }]
  for (let level = 2; level <= plan.n; level++) {
    const out = levelSql(plan, level, hooks)
    ctes.push(...out.ctes)
    levels.push({ level, tenures: out.tenures, excluded: out.excluded, marked: null })
    // Marks found in this pass belong to the tenures one level down.
    if (out.marked) levels[level - 2] = { ...levels[level - 2]!, marked: out.marked }
  }
  const n = plan.n
  const run = runCols(plan)
  const part = partitionCols(plan)
  const anyExclusion = plan.gaps.some((g) => g)
  const branches: Sql[] = []
  for (const l of levels) {
    const marked = l.marked ? sql`(case when m.seq is null then 0 else 1 end)` : sql`0`
    const markJoin = l.marked ? sql` left join ${id(l.marked)} as m on ${sameCols(runNames(plan), 'm', 't')} and m.seq = t.seq` : sql``
    branches.push(sql`select ${runCols(plan, 't')}, ${int(l.level)} as lvl, t.seq, 1 as clean, ${marked} as marked, ${times(n, l.level, 't')} from ${id(l.tenures)} as t${markJoin}`)
    if (l.excluded) branches.push(sql`select ${run}, ${int(l.level)}, seq, 0, 0, ${times(n, 0)} from ${id(l.excluded)}`)
  }
  ctes.push(['alld', join(branches, '\nunion all\n')])
  if (!anyExclusion) {
    const passes = sql`select ${run}, lvl - 1 as reached, ${times(n, n)} from (
        select a.*, row_number() over (partition by ${part} order by lvl desc, seq) as rn from alld as a) as r where rn = 1`
    if (lists) ctes.push(['outp', passes], ['outcome', sql`${listOutcomeSql(plan)}\nunion all\nselect * from outp`])
    else if (chain) ctes.push(['outp', passes], ['outcome', sql`select * from sko\nunion all\nselect * from outp`])
    else ctes.push(['outcome', passes])
    return ctes
  }
  ctes.push([
    'outcome',
    sql`select ${run}, lvl - 1 as reached, ${times(n, n)} from (
      select c.*, row_number() over (partition by ${part} order by seq) as rn from (
        select a.*, max(lvl) over (partition by ${part}) as kmax from alld as a) as c
      where lvl = kmax and clean = 1 and marked = 0) as r where rn = 1`,
  ])
  return ctes
}
