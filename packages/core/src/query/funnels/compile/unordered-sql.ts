import { sql } from 'kysely'
import type { SqlHooks } from '../../../storage.js'
import type { FunnelPlan } from '../funnel-plan.js'
import { carriesRunValue, partitionCols, runCols, runNames } from './run-key.js'
import { hasBit, id, int, join, sameCols, type Cte, type Sql } from './sql-kit.js'
import { unorderedWindowCtes, unorderedWindowFor } from './unordered-window-sql.js'

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
 * (`co{c}`, `cot` for all classes), and `done` (distinct steps in the queues
 * after it, 0 after an exclusion). An exclusion's row counts with the
 * segment it closes (`dseg`).
 *
 * funnels.md §5 (unordered_steps.rs) as sets: the queues after an event are
 * the events pushed since the last exclusion and within the window of it
 * (FIFO eviction of the oldest); steps sharing an entity are filled in turn
 * (each event goes to the class's step whose newest event is oldest), so a
 * class of k steps has min(k, queued) of them done. With step attribution,
 * an event enters an empty queue set only if it carries the run's value, so
 * the pushed events of an island (events no more than a window apart) are
 * those from its first such event on.
 *
 * An event matching steps of several classes goes to the one of its steps
 * whose queue's newest event is oldest, which depends on how every earlier
 * event was filed: with `filing` (see `unorderedFiling`), the islands holding
 * such an event are folded in order by the database (`SqlHooks.unorderedFiling`)
 * and each event counts for the class of the step it was filed under. Without
 * it (no event can match two classes), an event's class is its entity's.
 */
export function unorderedStateCtes(plan: FunnelPlan, filing: SqlHooks | null, hooks: SqlHooks): Array<Cte> {
  const run = runCols(plan)
  const part = partitionCols(plan)
  const W = int(plan.windowMicros)
  const classes = stepClasses(plan)
  const clsOf = sql`(case fs ${join(plan.stepClass.map((c, i) => sql`when ${int(i + 1)} then ${int(c)}`), ' ')} else -1 end)`
  const byRun = sql`partition by ${part} order by seq`
  const attribution = plan.attributionLevel !== null
  const pushed = attribution ? sql`(ex = 0 and seq >= coalesce(min(case when ex = 0 and ${carriesRunValue(plan)} then seq end) over (partition by ${part}, island), ${int(Number.MAX_SAFE_INTEGER)}))` : sql`(ex = 0)`
  const rows = sql`rows between unbounded preceding and current row`
  // Counts by exclusion segment; an exclusion's own row counts with the segment it closes (`dseg`), whose queues it drains.
  const perClass = classes.map(({ cls }) => {
    const mine = sql`(case when pushed = 1 and cls = ${int(cls)} then 1 else 0 end)`
    return sql`sum(${mine}) over (partition by ${part}, dseg order by seq ${rows}) as ${id(`cr${cls}`)},
      coalesce(${hooks.sumBefore(mine, sql`${part}, dseg`, id('ts'), plan.windowMicros + 1)}, 0) as ${id(`co${cls}`)}`
  })
  const done = join(
    classes.map(({ cls, size }) => sql`least(${int(size)}, ${id(`cr${cls}`)} - ${id(`co${cls}`)})`),
    ' + ',
  )
  const fold = filing !== null && classes.length >= 2
  const seq = sql`row_number() over (partition by ${partitionCols(plan, 'r')} order by r.ts, r.fs, r.uuid) as seq, (case when r.sm = 0 then 1 else 0 end) as ex`
  return [
    fold
      ? ['u0', sql`select r.*, ${seq}, ${clsOf} as cls0, ${overlapping(plan)} as ov from runs as r`]
      : ['u0', sql`select r.*, ${seq}, ${clsOf} as cls from runs as r`],
    ['u1', sql`select u0.*, sum(ex) over (${byRun} ${rows}) as seg, lag(ts) over (${byRun}) as pts, lag(ex) over (${byRun}) as pex from u0`],
    ['u2', sql`select u1.*, sum(case when pts is null or ex = 1 or ts - pts > ${W} then 1 else 0 end) over (${byRun} ${rows}) as island from u1`],
    ['u3', sql`select u2.*, (case when ${pushed} then 1 else 0 end) as pushed, seg - ex as dseg from u2`],
    ...(fold ? filedCtes(plan, filing) : []),
    // Running sums only: a moving sum is cheap on both databases, a moving min over a time range is not (Postgres recomputes it per row).
    fold ? ['u4', sql`select uf2.*, ${join(perClass)} from uf2`] : ['u4', sql`select u3.*, ${join(perClass)} from u3`],
    [
      'u5',
      sql`select u4.*, (case when ex = 1 then 0 else ${done} end) as done,
        (case cls ${join(classes.map(({ cls }) => sql`when ${int(cls)} then ${id(`cr${cls}`)}`), ' ')} else 0 end) as rk,
      ${join(classes.map(({ cls }) => id(`co${cls}`)), ' + ')} as cot
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
 * Window functions over each run only, no joins: Postgres misjudges joins
 * between these intermediate results and would nest loops over them.
 * Where every event matches one step and no exclusion or step attribution
 * is set (`unorderedWindowFor`), one window pass decides every run instead
 * (unordered-window-sql.ts).
 */
export function unorderedOutcomeCtes(plan: FunnelPlan, filing: SqlHooks | null, hooks: SqlHooks): Array<Cte> {
  const run = runCols(plan)
  const times = Array.from({ length: plan.n }, (_, i) => id(`t${i + 1}`))
  if (unorderedWindowFor(plan)) return [...unorderedWindowCtes(plan, hooks), ['outcome', sql`select ${run}, reached, ${join(times)} from ulo`]]
  const part = partitionCols(plan)
  const n = plan.n
  const classes = stepClasses(plan)
  const byRun = sql`partition by ${part} order by seq`
  const perRun = sql`partition by ${part}`
  // The source of the best record: the event before a record made at an event (even position), or the last event.
  const bestSrc = sql`(case when bpos % 2 = 0 then bpos / 2 - 1 else (bpos - 1) / 2 end)`
  const atSrc = (col: Sql) => sql`max(case when seq = bsrc then ${col} end) over (${perRun})`
  const ofClass = (prefix: string) => sql`(case cls ${join(classes.map(({ cls }) => sql`when ${int(cls)} then ${id(`${prefix}${cls}`)}`), ' ')} end)`
  const sizeOf = sql`(case cls ${join(classes.map(({ cls, size }) => sql`when ${int(cls)} then ${int(size)}`), ' ')} end)`
  // The best record's source row's segment and class counts, on every row of its run: window maxima over the
  // run, one per column, or (where joins of intermediate results hash) joined from that row, one per run: on
  // DuckDB the maxima cost more than any other pass (10M events, 3 steps: -18% as a join).
  const sourceCols = classes.flatMap(({ cls }) => [
    [`co${cls}`, `sco${cls}`],
    [`cr${cls}`, `scr${cls}`],
  ])
  const sourceWindowed = sql`select ur5.*, ${atSrc(sql`seg`)} as sseg, ${join(sourceCols.map(([c, as]) => sql`${atSrc(id(c!))} as ${id(as!)}`))} from ur5`
  const sourceJoined = sql`select ur5.*, s.seg as sseg, ${join(sourceCols.map(([c, as]) => sql`${id(`s.${c}`)} as ${id(as!)}`))}
    from ur5 join (select ${run}, seg, ${join(sourceCols.map(([c]) => id(c!)))} from ur5 where seq = bsrc) as s on ${sameCols(runNames(plan), 's', 'ur5')}`
  const passes = sql`select ${run}, max(vmax) - 1 as reached, ${join(Array.from({ length: n }, (_, i) => sql`max(case when hn = ${int(i + 1)} then ts end) as ${id(`t${i + 1}`)}`))}
        from uheads group by ${run}`
  return [
    ...unorderedStateCtes(plan, filing, hooks),
    [
      'ur1',
      sql`select u5.*, lag(done) over (${byRun}) as pdone, lag(cot) over (${byRun}) as pcot, lag(dseg) over (${byRun}) as pdseg, max(seq) over (${perRun}) as last from u5`,
    ],
    [
      'ur2',
      // rv1: the record made at this event from the previous one's queues, when its oldest event left the window
      // (the count before this event's window grew, in the same segment) or everything was done; rv2: the last event's.
      sql`select ur1.*, (case when pdone > 0 and ((pdseg = dseg and cot > pcot) or pdone >= ${int(n)}) then pdone end) as rv1,
        (case when seq = last and done > 0 then done end) as rv2 from ur1`,
    ],
    ['ur3', sql`select ur2.*, max(greatest(coalesce(rv1, 0), coalesce(rv2, 0))) over (${perRun}) as vmax from ur2`],
    ['ur4', sql`select ur3.*, min(case when rv1 = vmax then 2 * seq when rv2 = vmax then 2 * seq + 1 end) over (${perRun}) as bpos from ur3 where vmax > 0`],
    ['ur5', sql`select ur4.*, ${bestSrc} as bsrc from ur4`],
    ['ur6', hooks.hashesIntermediateJoins === true ? sourceJoined : sourceWindowed],
    [
      'uheads',
      // Per class, the oldest queued events of the best record's queues: class ranks co+1 .. co+min(size, queued).
      sql`select ${run}, vmax, ts, row_number() over (partition by ${part} order by ts) as hn from ur6
        where pushed = 1 and seg = sseg and seq <= bsrc and rk > ${ofClass('sco')} and rk <= ${ofClass('sco')} + least(${sizeOf}, ${ofClass('scr')} - ${ofClass('sco')})`,
    ],
    ['outcome', passes],
  ]
}

/** 1 when the event matches steps of two classes or more, else 0. */
function overlapping(plan: FunnelPlan): Sql {
  const steps = new Map<number, number[]>()
  plan.stepClass.forEach((c, i) => steps.set(c, [...(steps.get(c) ?? []), i]))
  const hits = join([...steps.values()].map((bits) => sql`(case when ${join(bits.map((i) => hasBit(sql`sm`, i)), ' or ')} then 1 else 0 end)`), ' + ')
  return sql`(case when ${hits} >= 2 then 1 else 0 end)`
}

/**
 * After `u3`: `uf2`, its rows with `cls`, the class of the step each pushed
 * event is filed under. Only islands holding an event that matches two
 * classes are folded (`need`): in the others every event has one class, and
 * an island starts with empty queues (every earlier event is out of the
 * window, or an exclusion emptied them), so folding it would change nothing.
 */
function filedCtes(plan: FunnelPlan, hooks: SqlHooks): Array<Cte> {
  const run = runCols(plan)
  const part = partitionCols(plan)
  const carries = plan.attributionLevel !== null ? sql`(case when ${carriesRunValue(plan)} then 1 else 0 end)` : sql`1`
  const classOfStep = join(plan.stepClass.map((c, i) => sql`when ${int(i + 1)} then ${int(c)}`), ' ')
  const filed = hooks.unorderedFiling({
    from: 'uf0',
    partition: [...runNames(plan), 'island'],
    order: 'seq',
    when: 'need',
    ts: 'ts',
    mask: 'sm',
    carries: 'okv',
    steps: plan.n,
    windowMicros: plan.windowMicros,
    as: 'fstep',
  })
  return [
    ['uf0', sql`select u3.*, max(ov) over (partition by ${part}, island) as need, ${carries} as okv from u3`],
    ['uf1', sql`${filed}`],
    ['uf2', sql`select uf1.*, (case fstep ${classOfStep} else cls0 end) as cls from uf1`],
  ]
}

/**
 * The hooks to file events with when two of the first `plan.n` steps of
 * different classes can match one event (an "All events" step, an action, or
 * one event name with different filters); null when none can, and the
 * classes are filed as they are (the fast path).
 */
export function unorderedFiling(steps: ReadonlyArray<{ kind: string; event: string | null }>, plan: FunnelPlan, hooks: SqlHooks): SqlHooks | null {
  const n = plan.n
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (plan.stepClass[i] === plan.stepClass[j]) continue
      const a = steps[i]!
      const b = steps[j]!
      const apart = a.kind === 'events' && b.kind === 'events' && a.event !== null && b.event !== null && a.event !== b.event
      if (!apart) return hooks
    }
  }
  return null
}
