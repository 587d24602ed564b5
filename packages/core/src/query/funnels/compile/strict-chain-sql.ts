import { sql } from 'kysely'
import type { SqlHooks } from '../../../storage.js'
import type { FunnelPlan } from '../funnel-plan.js'
import { partitionCols, runCols, runNames } from './run-key.js'
import { hasBit, id, int, join, nullOf, sameCols, type Cte, type Sql } from './sql-kit.js'

/**
 * Whether a strict funnel's runs without a split instant can be chained by
 * joins (`strictChainCtes`): its steps view, steps no event can match
 * together (`disjointSteps`), no exclusion, no step attribution, on a
 * database whose joins of intermediate results hash (Postgres nests loops
 * over them; `SqlHooks.hashesIntermediateJoins`).
 */
export function strictChainFor(plan: FunnelPlan, hooks: SqlHooks): boolean {
  return hooks.hashesIntermediateJoins === true && plan.order === 'strict' && !plan.trends && plan.attributionLevel === null && !plan.gaps.some((g) => g) && plan.disjointSteps && plan.n >= 2
}

/**
 * The strict funnel (funnels.md §4, steps.rs) over `cmp` (compactedCtes:
 * each event in processing order `er`, with `r{k}`, the resets before it by
 * events not matching step k), as CTEs ending in `sko(tgt, p0.., reached,
 * t1..tn)` for the runs without a split instant (`multi`), and `cmpu`, the
 * events of the other runs, for the window passes.
 *
 * Outside split instants, with every event matching one step at most, a
 * path that reached step k-1 is alive until the next event not matching
 * step k-1, which moves `r{k-1}`; the first step-k event after its node
 * (the event that put it there) either extends it, when within its start's
 * window, or ends it. So a path node of step k is a step-k event joined to
 * the node of step k-1 with the same `r{k-1}`: for k-1 >= 1 there is at
 * most one (an event of step k-2 comes between two nodes of step k-1 and
 * moves the count); for step 0, the latest step-0 event of that count (a
 * new step-0 event replaces E[1]'s start). The furthest step is the deepest
 * node, and the path reported the first to get there (`er`); a run that
 * reaches only step 0 reports its first step-0 event.
 */
export function strictChainCtes(plan: FunnelPlan): Array<Cte> {
  const n = plan.n
  const W = int(plan.windowMicros)
  const run = runCols(plan)
  const names = runNames(plan)
  const isStep = (k: number) => hasBit(sql`sm`, k)
  const t = (k: number, alias?: string) => id(alias ? `${alias}.t${k + 1}` : `t${k + 1}`)
  const ctes: Array<Cte> = [
    ['sks', sql`select ${run}, max(multi) as split from cmp group by ${run}`],
    ['cmpu', sql`select c.* from cmp as c join sks as s on ${sameCols(names, 's', 'c')} where s.split = 1`],
    // Step-0 nodes: the latest step-0 event of each count of resets before it.
    ['skn0', sql`select ${run}, r0 as rk, max(ts) as st, max(ts) as t1, max(er) as er from cmp where ${isStep(0)} group by ${run}, r0`],
  ]
  for (let k = 1; k < n; k++) {
    const prior = Array.from({ length: k }, (_, j) => t(j, 's'))
    ctes.push([
      `skn${k}`,
      sql`select ${runCols(plan, 'e')}, ${id(`e.r${k}`)} as rk, s.st, ${join(prior)}, e.ts as ${t(k)}, e.er
        from cmp as e join ${id(`skn${k - 1}`)} as s on ${sameCols(names, 's', 'e')} and s.rk = ${id(`e.r${k - 1}`)}
        where ${hasBit(sql`e.sm`, k)} and e.ts - s.st <= ${W}`,
    ])
  }
  const missing = (from: number): Sql =>
    from >= n ? sql`` : sql`, ${join(Array.from({ length: n - from }, (_, i) => sql`${nullOf('bigint')} as ${t(from + i)}`))}`
  const nodes = [
    // Reaching step 0 only: the first step-0 event (times grow with `er`).
    sql`select ${run}, 1 as lvl, min(er) as er, min(ts) as t1${missing(1)} from cmp where ${isStep(0)} group by ${run}`,
    ...Array.from({ length: n - 1 }, (_, i) => sql`select ${run}, ${int(i + 2)} as lvl, er, ${join(Array.from({ length: i + 2 }, (_, k) => t(k)))}${missing(i + 2)} from ${id(`skn${i + 1}`)}`),
  ]
  ctes.push(
    ['skd', join(nodes, '\nunion all\n')],
    [
      'sko',
      sql`select ${runCols(plan, 'b')}, b.lvl - 1 as reached, ${join(Array.from({ length: n }, (_, k) => t(k, 'b')))} from (
        select ${run}, lvl, ${join(Array.from({ length: n }, (_, k) => t(k)))}, row_number() over (partition by ${partitionCols(plan)} order by lvl desc, er) as rn from skd) as b
        join sks as s on ${sameCols(names, 's', 'b')} where b.rn = 1 and s.split = 0`,
    ],
  )
  return ctes
}
