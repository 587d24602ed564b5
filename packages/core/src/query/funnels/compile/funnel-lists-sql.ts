import { sql } from 'kysely'
import type { ListHooks, SqlHooks, TaggedListShape } from '../../../storage.js'
import type { FunnelPlan } from '../funnel-plan.js'
import { runCols } from './run-key.js'
import { hasBit, id, int, join, type Cte, type Sql } from './sql-kit.js'

/**
 * The dialect's list functions when `plan` can follow its runs through step
 * lists: an ordered funnel's steps view of two steps or more (trends take
 * every step-0 event as an attempt of its own period), without exclusions
 * or step attribution (their rules need each code's place among the
 * others). Null otherwise.
 */
export function stepListsFor(plan: FunnelPlan, hooks: SqlHooks): ListHooks | null {
  if (!hooks.lists || plan.order !== 'ordered' || plan.trends || plan.attributionLevel !== null || plan.gaps.some((g) => g) || plan.n < 2) return null
  return hooks.lists
}

/**
 * A run's lists cost about (its step-0 times) x (its later steps' times):
 * each start is followed through whole lists. Runs above this many times
 * the elements of their lists (a frequent step 0 and a frequent later step)
 * take the window passes, whose cost is a sort of their events.
 */
export const LIST_WORK_PER_ELEMENT = 64

/**
 * The ordered funnel over step lists (funnels.md §3, PostHog's steps.rs), as
 * CTEs ending in `slo(tgt, p0.., sure, lo, hi, reached, t1..tn)`: per run
 * with a step-0 event, whether the lists decided it (`sure` 1), and then its
 * furthest step (`reached`, 0-based) and the reported path's step times;
 * otherwise (`sure` 0) the span of its step-0 events (`lo`
 * to `hi`, a window after the last), for the window passes to decide it.
 *
 * Per run, `l{k}` lists the times of the events matching step k (an event
 * matching several steps is in several lists). Each step-0 time `c0` starts
 * a path, which takes at each later step the first time after its last one
 * and within the window of `c0` (the greedy choice loses no depth: a later
 * time leaves less of the window). steps.rs keeps, per depth, the newest
 * start whose path got there, and reports the first path to reach the
 * furthest depth; that is the path reaching it at the earliest time, and of
 * those (their last step is the same event) the newest start: keys (depth,
 * -last time, start).
 *
 * Times decide order here, so the lists are only sure of a run where no
 * path meets another event at its own time that steps.rs would order
 * differently: some path's time `c{k-1}` found again in `l{k}`, other than
 * by one event matching both steps alone at its instant: the time is in
 * `mm` (the times of events matching two consecutive steps), once in
 * `l{k-1}`, once in `l{k}` and in no other list, so the one event there
 * matches steps k-1 and k. Among other events (a split instant) steps.rs
 * takes that event's step k-1 first, and the path cannot take its step k. Those
 * runs, and those whose lists would cost too much (`LIST_WORK_PER_ELEMENT`),
 * are left to the passes.
 */
export function stepListsCtes(plan: FunnelPlan, lists: ListHooks, span: TimeSpan): Array<Cte> {
  const n = plan.n
  const W = int(plan.windowMicros)
  const run = runCols(plan)
  const l = (k: number) => id(`l${k}`)
  const c = (k: number) => sql<number | null>`${id(`c${k}`)}`
  const x = (k: number) => id(`x${k}`)
  const isStep = (k: number) => hasBit(sql`sm`, k)
  const ts = sql<number>`ts`

  // One list of the events matching two consecutive steps (usually none): aggregates cost per list (5 steps, 10M: -10%).
  // None where no event can match two steps (`disjointSteps`), and no list: every tie is then one of several events.
  const adjacent = (tag: Sql) => Array.from({ length: n - 1 }, (_, k) => sql`(${hasBit(tag, k)} and ${hasBit(tag, k + 1)})`)
  const twoSteps = !plan.disjointSteps
  const gathered: StepListItem[] = [
    ...Array.from({ length: n }, (_, k) => ({ name: `l${k}`, test: (tag: Sql) => hasBit(tag, k) })),
    ...(twoSteps ? [{ name: 'mm', test: (tag: Sql) => sql`(${join(adjacent(tag), ' or ')})` }] : []),
  ]
  const perRun = perRunListsSql(plan, lists, span, gathered, [
    ['lo', sql`min(case when ${isStep(0)} then ts end)`],
    ['hi', sql`max(case when ${isStep(0)} then ts end) + ${W}`],
  ])
  const size = (k: number): Sql => sql`${lists.size(l(k))}`
  const later = sql`(${join(Array.from({ length: n - 1 }, (_, k) => size(k + 1)), ' + ')})`
  const easy = sql`(case when ${size(0)} * ${later} <= ${int(LIST_WORK_PER_ELEMENT)} * (${size(0)} + ${later}) then 1 else 0 end)`

  // A run over the work bound is followed from one start (its earliest): one row for `slo`, one pass over each list.
  // Every step's list stays to the end: a tie test reads them all.
  const kept = join([...Array.from({ length: n }, (_, j) => l(j)), ...(twoSteps ? [sql`mm`] : [])])
  const ctes: Array<Cte> = [
    ['sl', perRun],
    [
      'sc0',
      sql`select ${run}, easy, lo, hi, ${lists.unnest(sql`(case when easy = 1 then l0 else ${lists.one(sql`lo`)} end)`)} as c0, ${kept}
        from (select s.*, ${easy} as easy from sl as s where lo is not null) as s`,
    ],
  ]
  for (let k = 1; k < n; k++) {
    const prev = c(k - 1)
    const found = (list: Sql) => lists.countOf(list, prev)
    // `g`: the least time of step k from the path's own time on (times are integers), one pass over the list.
    // Only where it is that time itself (a tie, or one event matching both steps) is the list read again.
    const g = id(`g${k}`)
    const upTo = sql<number>`c0 + ${W}`
    const next = sql`(case when ${g} = ${prev} then ${lists.leastBetween(l(k), prev, upTo)} else ${g} end)`
    // steps.rs orders events sharing a time by their steps and uuids: a path's time found again in the next list is a tie, unless
    // it is one event matching both steps, alone at its instant (in no other list). Among other events (a split instant) that
    // event's earlier step comes first and the path could not take its later one: the passes decide.
    const elsewhere = Array.from({ length: n }, (_, j) => j).filter((j) => j !== k - 1 && j !== k)
    const alone = elsewhere.length === 0 ? sql`` : sql` and ${join(elsewhere.map((j) => sql`${found(l(j))} = 0`), ' and ')}`
    const oneEvent = twoSteps ? sql`(case when ${found(sql`mm`)} > 0 and ${found(l(k - 1))} = 1 and ${found(l(k))} = 1${alone} then 0 else 1 end)` : sql`1`
    const tie = sql`(case when ${g} = ${prev} then ${oneEvent} else 0 end)`
    const carried = [...Array.from({ length: k }, (_, j) => c(j)), ...Array.from({ length: k - 1 }, (_, j) => x(j + 1))]
    ctes.push([
      `sc${k}`,
      sql`select ${run}, easy, lo, hi, ${join(carried)}, ${next} as ${c(k)}, ${tie} as ${x(k)}, ${kept}
        from (select s.*, ${lists.leastBetween(l(k), sql<number | null>`${prev} - 1`, upTo)} as ${g} from ${id(`sc${k - 1}`)} as s) as s`,
    ])
  }

  const depth = sql`(case ${join(Array.from({ length: n - 1 }, (_, k) => sql`when ${c(k + 1)} is null then ${int(k + 1)}`), ' ')} else ${int(n)} end)`
  const last = sql`coalesce(${join(Array.from({ length: n }, (_, k) => c(n - 1 - k)))})`
  const ties = sql`max(${join(Array.from({ length: n - 1 }, (_, k) => x(k + 1)), ' + ')})`
  const best = lists.argMax(
    Array.from({ length: n }, (_, k) => [`t${k + 1}`, c(k)] as const),
    [sql<number>`lvl`, sql<number>`-${last}`, sql<number>`c0`],
  )
  // The record is read into columns in the same CTE: a stored record column is not portable (ClickHouse refuses a nullable tuple).
  const times = Array.from({ length: n }, (_, k) => sql`${lists.field(sql`best`, `t${k + 1}`)} as ${id(`t${k + 1}`)}`)
  ctes.push([
    'slo',
    sql`select ${run}, sure, lo, hi, reached, ${join(times)} from (
      select ${run}, (case when min(easy) = 1 and ${ties} = 0 then 1 else 0 end) as sure, min(lo) as lo, max(hi) as hi, max(lvl) - 1 as reached, ${best} as best
      from (select s.*, ${depth} as lvl from ${id(`sc${n - 1}`)} as s) as s group by ${run}) as b`,
  ])
  return ctes
}

/** `outcome`'s columns from `slo`'s sure runs: `tgt, p0.., reached, t1..tn`. */
export function listOutcomeSql(plan: FunnelPlan): Sql {
  const times = Array.from({ length: plan.n }, (_, k) => id(`t${k + 1}`))
  return sql`select ${runCols(plan)}, reached, ${join(times)} from slo where sure = 1`
}

/** The times a funnel's events span (epoch µs, inclusive): its resolved date range, which its scan reads within. */
export interface TimeSpan {
  readonly fromMicros: number
  readonly toMicros: number
}

/** One list of a run's event times: `name`, the times of the events whose step mask passes `test`. */
interface StepListItem {
  readonly name: string
  readonly test: (mask: Sql) => Sql
}

/**
 * Per run of `runs`, each item's list of times and the aggregates `also`
 * (name, aggregate), as one grouped select. Where the dialect tags values
 * (`ListHooks.tagged`) every time is gathered once with its step mask (one
 * aggregate, tags of `plan.n` bits: `runs` of a plan over step lists holds
 * step bits only) and each list read back from it; otherwise each list is
 * an aggregate of its own.
 */
function perRunListsSql(plan: FunnelPlan, lists: ListHooks, span: TimeSpan, items: ReadonlyArray<StepListItem>, also: ReadonlyArray<readonly [string, Sql]>): Sql {
  const run = runCols(plan)
  const ts = sql<number>`ts`
  const aggregates = also.map(([name, value]) => sql`${value} as ${id(name)}`)
  const shape: TaggedListShape = { from: span.fromMicros, to: span.toMicros, tagBits: plan.n }
  const tagged = lists.tagged?.listOf(ts, sql<number>`sm`, shape) ?? null
  if (tagged === null || !lists.tagged) {
    const each = items.map((item) => sql`${lists.listOf(ts, sql`${item.test(sql`sm`)}`)} as ${id(item.name)}`)
    return sql`select ${run}, ${join([...each, ...aggregates])} from runs group by ${run}`
  }
  const read = lists.tagged
  const each = items.map((item) => sql`${read.withTag(sql`tl`, shape, (tag) => sql`${item.test(sql`${tag}`)}`)} as ${id(item.name)}`)
  return sql`select ${run}, ${join([...each, ...also.map(([name]) => id(name))])} from (
      select ${run}, ${tagged} as tl, ${join(aggregates)} from runs group by ${run}) as g`
}
