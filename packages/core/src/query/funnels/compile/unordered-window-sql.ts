import { sql } from 'kysely'
import type { SqlHooks } from '../../../storage.js'
import type { FunnelPlan } from '../funnel-plan.js'
import { partitionCols, runCols } from './run-key.js'
import { hasBit, id, int, join, type Cte, type Sql } from './sql-kit.js'

/**
 * Whether `plan` is an unordered funnel that one window pass decides: its
 * steps view, every event matching one step at most (`disjointSteps`: so no
 * event is filed, and no step shares its entity), without exclusions or
 * step attribution.
 */
export function unorderedWindowFor(plan: FunnelPlan): boolean {
  return plan.order === 'unordered' && !plan.trends && plan.attributionLevel === null && !plan.gaps.some((g) => g) && plan.disjointSteps && plan.n >= 2
}

/**
 * The unordered funnel (funnels.md §5, unordered_steps.rs) by one window
 * pass over each run's events, as CTEs ending in `ulo(tgt, p0.., reached,
 * t1..tn)`: per run, its furthest step (`reached`, 0-based) and the
 * reported step times.
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
 * Each step's first time at or after `s` is a minimum over the run's events
 * from `s` on: one sort of the run's events, latest first, each minimum a
 * frame growing from the run's last event (computed incrementally, so a run
 * of tens of thousands of events costs a sort, not their square, where
 * the step lists this replaced did). Against those lists and the window
 * passes that took their heavy runs, same answers: DuckDB 10M events, 3
 * rare steps 0.87 of the time, 5 steps 0.35, a step matching 16% of all
 * events 0.24; Postgres 1M, 0.45 to 0.62.
 */
export function unorderedWindowCtes(plan: FunnelPlan, hooks: SqlHooks): Array<Cte> {
  const n = plan.n
  const W = int(plan.windowMicros)
  const run = runCols(plan)
  const steps = Array.from({ length: n }, (_, k) => k)
  const m = (k: number) => id(`m${k}`)
  const h = (k: number) => id(`h${k}`)
  // `range` keeps the events sharing the start's instant in its frame.
  const from = sql`partition by ${partitionCols(plan)} order by ts desc range between unbounded preceding and current row`
  const first = steps.map((k) => sql`min(case when ${hasBit(sql`sm`, k)} then ts end) over (${from}) as ${id(`n${k}`)}`)
  const heads = steps.map((k) => sql`(case when ${id(`n${k}`)} <= s + ${W} then ${id(`n${k}`)} end) as ${m(k)}`)
  const found = join(
    steps.map((k) => sql`(case when ${m(k)} is null then 0 else 1 end)`),
    ' + ',
  )
  // The recorded window: the most steps, then the least start. Where the dialect has a record aggregate (`ListHooks.argMax`), one
  // grouping picks it (DuckDB, a frequent middle step at 10M: 0.82 of a second sort's time); otherwise the first row by those keys.
  const lists = hooks.lists
  const best: Sql = lists
    ? sql`select ${run}, reached, ${join(steps.map((k) => sql`${lists.field(sql`best`, `h${k}`)} as ${h(k)}`))} from (
        select ${run}, max(cnt) - 1 as reached, ${lists.argMax(
          steps.map((k) => [`h${k}`, sql<number | null>`${m(k)}`] as const),
          [sql<number>`cnt`, sql<number>`-s`],
        )} as best from ulc group by ${run}) as b`
    : sql`select ${run}, cnt - 1 as reached, ${join(steps.map((k) => sql`${m(k)} as ${h(k)}`))} from (
        select c.*, row_number() over (partition by ${partitionCols(plan)} order by cnt desc, s) as rn from ulc as c) as c where rn = 1`
  // Each head's place among the others (nulls after every time; equal times by step), then the times in that order.
  const before = (i: number, k: number) => (i < k ? sql`${h(i)} <= ${h(k)}` : sql`${h(i)} < ${h(k)}`)
  const place = steps.map(
    (k) => sql`(case when ${h(k)} is null then ${int(n)} else ${join(steps.filter((i) => i !== k).map((i) => sql`(case when ${before(i, k)} then 1 else 0 end)`), ' + ')} end) as ${id(`r${k}`)}`,
  )
  const sorted = steps.map((j) => sql`(case ${join(steps.map((k) => sql`when ${id(`r${k}`)} = ${int(j)} then ${h(k)}`), ' ')} end) as ${id(`t${j + 1}`)}`)
  return [
    [
      'ulc',
      sql`select ${run}, s, ${join(steps.map(m))}, ${found} as cnt from (
        select ${run}, s, ${join(heads)} from (
          select ${run}, ts as s, sm, ${join(first)} from runs) as w where sm <> 0) as w`,
    ],
    ['ulb', best],
    [
      'ulo',
      sql`select ${run}, reached, ${join(sorted)} from (
        select ${run}, reached, ${join(steps.map(h))}, ${join(place)} from ulb) as b`,
    ],
  ]
}
