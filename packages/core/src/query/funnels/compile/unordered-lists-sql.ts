import { sql } from 'kysely'
import type { ListHooks, SqlHooks } from '../../../storage.js'
import type { FunnelPlan } from '../funnel-plan.js'
import { LIST_WORK_PER_ELEMENT, perRunListsSql, type TimeSpan } from './funnel-lists-sql.js'
import { runCols } from './run-key.js'
import { hasBit, id, int, join, type Cte, type Sql } from './sql-kit.js'

/**
 * The dialect's list functions when `plan` is an unordered funnel the step
 * lists can decide: its steps view, every event matching one step at most
 * (`disjointSteps`: so no event is filed, and no step shares its entity),
 * without exclusions or step attribution. Null otherwise.
 */
export function unorderedListsFor(plan: FunnelPlan, hooks: SqlHooks): ListHooks | null {
  if (!hooks.lists || plan.order !== 'unordered' || plan.trends || plan.attributionLevel !== null || plan.gaps.some((g) => g) || !plan.disjointSteps || plan.n < 2) return null
  return hooks.lists
}

/**
 * The unordered funnel over step lists (funnels.md §5, unordered_steps.rs),
 * as CTEs ending in `ulo(tgt, p0.., sure, reached, t1..tn)`: per run,
 * whether the lists decided it (`sure` 1) and then its furthest step
 * (`reached`, 0-based) and the reported step times; runs with `sure` 0 are
 * the window passes' to decide.
 *
 * Where every event matches one step and no exclusion empties the queues,
 * the queues a record reads are all the events from the oldest queued one,
 * `o`, to a window after it (a record is made just before `o` leaves, or at
 * the last event, where every later event is within `o`'s window): records
 * are the windows `[o, o + W]` taken in time order, and a window holds
 * whatever shares its first instant. So a run's depth is the most steps
 * found in a window `[s, s + W]` starting at one of its times `s`, the first
 * such window (the least `s`) is the one recorded (a record replaces the
 * best only when deeper), and its times are each step's first time in that
 * window (the queue heads), sorted. Same-instant events change nothing here
 * (the processing order among them only decides which of them comes first
 * in a queue, and they share their time).
 *
 * Each start is followed through every list, so a run costs about the
 * square of its events: runs over `LIST_WORK_PER_ELEMENT` times their
 * events go to the passes.
 */
export function unorderedListsCtes(plan: FunnelPlan, lists: ListHooks, span: TimeSpan): Array<Cte> {
  const n = plan.n
  const W = int(plan.windowMicros)
  const run = runCols(plan)
  const steps = Array.from({ length: n }, (_, k) => k)
  const l = (k: number) => id(`l${k}`)
  const m = (k: number) => id(`m${k}`)
  const ts = sql<number>`ts`
  const gathered = [...steps.map((k) => ({ name: `l${k}`, test: (tag: Sql) => hasBit(tag, k) })), { name: 'la', test: (tag: Sql) => sql`${tag} <> 0` }]
  const easy = sql`(case when ${lists.size(sql`la`)} <= ${int(LIST_WORK_PER_ELEMENT)} then 1 else 0 end)`
  // A run over the bound keeps one row (its first time) so that `ulo` names it for the passes.
  const start = lists.unnest(sql`(case when easy = 1 then la else ${lists.one(sql`lo`)} end)`)
  const heads = steps.map((k) => sql`${lists.leastBetween(l(k), sql<number>`s - 1`, sql<number>`s + ${W}`)} as ${m(k)}`)
  const found = join(
    steps.map((k) => sql`(case when ${m(k)} is null then 0 else 1 end)`),
    ' + ',
  )
  const best = lists.argMax(
    steps.map((k) => [`h${k}`, sql<number | null>`${m(k)}`] as const),
    [sql<number>`cnt`, sql<number>`-s`],
  )
  // Each head's place among the others (nulls after every time; equal times by step), then the times in that order.
  const h = (k: number) => id(`h${k}`)
  const before = (i: number, k: number) => (i < k ? sql`${h(i)} <= ${h(k)}` : sql`${h(i)} < ${h(k)}`)
  const place = steps.map(
    (k) => sql`(case when ${h(k)} is null then ${int(n)} else ${join(steps.filter((i) => i !== k).map((i) => sql`(case when ${before(i, k)} then 1 else 0 end)`), ' + ')} end) as ${id(`r${k}`)}`,
  )
  const sorted = steps.map((j) => sql`(case ${join(steps.map((k) => sql`when ${id(`r${k}`)} = ${int(j)} then ${h(k)}`), ' ')} end) as ${id(`t${j + 1}`)}`)
  return [
    ['uls', perRunListsSql(plan, lists, span, gathered, [['lo', sql`min(${ts})`]])],
    [
      'ulc',
      sql`select ${run}, easy, s, ${join(heads)} from (
        select ${run}, easy, ${start} as s, ${join(steps.map(l))} from (select u.*, ${easy} as easy from uls as u) as u) as u`,
    ],
    [
      'ulb',
      sql`select ${run}, min(easy) as sure, max(cnt) - 1 as reached, ${best} as best
        from (select c.*, ${found} as cnt from ulc as c) as c group by ${run}`,
    ],
    [
      'ulo',
      sql`select ${run}, sure, reached, ${join(sorted)} from (
        select ${run}, sure, reached, ${join(steps.map(h))}, ${join(place)} from (
          select ${run}, sure, reached, ${join(steps.map((k) => sql`${lists.field(sql`best`, `h${k}`)} as ${h(k)}`))} from ulb) as b) as b`,
    ],
  ]
}
