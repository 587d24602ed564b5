import { sql } from 'kysely'
import type { SqlHooks } from '../../../storage.js'
import type { FunnelPlan } from '../funnel-plan.js'
import { P, X } from './ordered-occurrences-sql.js'
import { carriesRunValue, partitionCols, runCols, runNames } from './run-key.js'
import { cols, id, int, join, nullOf, sameCols, type Cte, type Sql } from './sql-kit.js'

/** The CTEs one level adds: the paths that completed `level` steps, and what exclusions did one level down. */
export interface LevelCtes {
  readonly ctes: ReadonlyArray<Cte>
  /** `t{level}`: tenures of E[level] (run, seq, st, t1..t{level}, sts: ',' unless the last instant is split). */
  readonly tenures: string
  /** `x{level}`: runs with a derivation at `level` from an excluded path (run columns only); null without exclusions there. */
  readonly excluded: string | null
  /** `k{level-1}`: tenures of E[level-1] an exclusion hit while they were the furthest (run, seq); null without exclusions there. */
  readonly marked: string | null
  /** Trends: `h{level-1}`, per tenure of E[level-1] the exclusion code that hit it (run, seq, ts); null otherwise. */
  readonly hits: string | null
}

const tcols = (count: number, prefix = 't', alias?: string) => Array.from({ length: count }, (_, i) => id(alias ? `${alias}.${prefix}${i + 1}` : `${prefix}${i + 1}`))

/**
 * One pass of the ordered/strict algorithm (steps.rs): from the tenures of
 * E[L] (`t{L}`, each a path that completed L steps, alive from its `seq`
 * until the next one or, strict, the next event not matching step L) to
 * those of E[L+1], L = level - 1 >= 1.
 *
 * Each step-(L+1) code sees the live tenure T of E[L] ("latest earlier
 * step"): it extends T's path when within the window of T's start (inclusive),
 * not refused by step attribution, and (in a split instant) not an event
 * already on T's path. The first such code extends it (later ones find E[L+1]
 * holding T's start: already reached), unless an exclusion code on gap L,
 * within the window, came first: T is then excluded, and every later code
 * makes an excluded derivation that counts for the furthest step but
 * extends nothing. Strict funnels: a reset of E[L+1] (an event not matching
 * step L+1) lets T be extended again.
 *
 * Tenure attributes are carried by running maxima (starts and step times
 * only grow from one tenure to the next), or read from the latest tenure by
 * a join (`SqlHooks.hashesIntermediateJoins`). The same-instant uuid list (`sts`)
 * is kept only for tenures ending in a split instant and joined where needed.
 */
export function levelSql(plan: FunnelPlan, level: number, hooks: SqlHooks): LevelCtes {
  const L = level - 1
  const strict = plan.order === 'strict'
  const excl = plan.gaps[L] === true
  const attr = plan.attributionLevel === level
  const run = runCols(plan)
  const part = partitionCols(plan)
  const W = int(plan.windowMicros)
  const names = { items: `i${level}`, win: `w${level}`, valid: `v${level}`, groups: `g${level}`, excl: `e${level}`, tenures: `t${level}`, excluded: `x${level}`, marked: `k${L}`, hits: `h${L}` }
  const bcols = attr ? cols('b', plan.dims) : []

  // 1. The stream of this pass: tenures of E[L], step-(L+1) codes, gap-L exclusion codes. Strict: each
  //    tenure with its count of E[L]'s resets (`rc`), each code with the counts so far of E[L]'s (`cc`)
  //    and E[L+1]'s (`nc`) resets (see occurrencesSql): the resets themselves stay out of the pass.
  const tNull = tcols(L).map(() => nullOf('bigint'))
  const bNull = bcols.map(() => nullOf('text'))
  const counts = (rc: Sql, cc: Sql, nc: Sql) => (strict ? sql`, ${rc}, ${cc}, ${nc}` : sql``)
  const codeCounts = counts(nullOf('bigint'), id(`r${L - 1}`), id(`r${L}`))
  const branches: Sql[] = [
    sql`select ${run}, seq, 0 as k, st, ${join(tcols(L))}, ${nullOf('bigint')} as ts, ${nullOf('text')} as u, 0 as multi${bcols.length ? sql`, ${join(bNull.map((b, i) => sql`${b} as ${id(`b${i}`)}`))}` : sql``}${counts(sql`rc`, sql`${nullOf('bigint')} as cc`, sql`${nullOf('bigint')} as nc`)} from ${id(`t${L}`)}`,
    sql`select ${run}, seq, ${int(P)}, ${nullOf('bigint')}, ${join(tNull)}, ts, cast(uuid as varchar), multi${bcols.length ? sql`, ${join(bcols)}` : sql``}${codeCounts} from occ where kind = ${int(P)} and lvl = ${int(level)}`,
  ]
  if (excl) branches.push(sql`select ${run}, seq, ${int(X)}, ${nullOf('bigint')}, ${join(tNull)}, ts, ${nullOf('text')}, 0${bNull.length ? sql`, ${join(bNull)}` : sql``}${codeCounts} from occ where kind = ${int(X)} and lvl = ${int(L)}`)
  const items = join(branches, '\nunion all\n')

  // 2. Each row with the latest tenure before it (`tb`) and that tenure's start, step times and (strict)
  //    reset count (`cst`, `c1..`, `trc`). These only grow from one tenure to the next, so each is a running
  //    maximum; where the database hashes joins of intermediate results, only `tb` is, and the rest are read
  //    from the tenure by a join (one window aggregate instead of L + 2: 10M events, ordered 3-step funnel
  //    on DuckDB -7 to -10%; Postgres would nest loops over that join).
  const w = sql`(partition by ${part} order by seq rows between unbounded preceding and current row)`
  const bSel = bcols.length ? sql`, ${join(bcols)}` : sql``
  let win: Sql
  if (hooks.hashesIntermediateJoins === true) {
    const r = (n: string) => id(`r.${n}`)
    const inner = sql`select ${run}, seq, k, ts, u, multi${bSel}, st${strict ? sql`, cc, nc` : sql``},
      max(case when k = 0 then seq end) over ${w} as tb from ${id(names.items)}`
    win = sql`select ${runCols(plan, 'r')}, ${r('seq')}, ${r('k')}, ${r('ts')}, ${r('u')}, ${r('multi')}${bcols.length ? sql`, ${join(cols('b', plan.dims, 'r'))}` : sql``}, ${r('st')},
      ${r('tb')}, lt.st as cst, ${join(tcols(L, 't', 'lt').map((t, i) => sql`${t} as ${id(`c${i + 1}`)}`))}
      ${strict ? sql`, lt.rc as trc, ${r('cc')}, ${r('nc')}` : sql``}
      from (${inner}) as r left join ${id(`t${L}`)} as lt on ${sameCols(runNames(plan), 'lt', 'r')} and lt.seq = ${r('tb')}`
  } else {
    const latest = (expr: Sql) => sql`max(case when k = 0 then ${expr} end) over ${w}`
    win = sql`select ${run}, seq, k, ts, u, multi${bSel}, st,
      ${latest(sql`seq`)} as tb, ${latest(sql`st`)} as cst, ${join(tcols(L).map((t, i) => sql`${latest(t)} as ${id(`c${i + 1}`)}`))}
      ${strict ? sql`, ${latest(sql`rc`)} as trc, cc, nc` : sql``}
      from ${id(names.items)}`
  }

  // 3. Which codes count: alive tenure, window, attribution, a split instant's used events. The live
  //    tenure's events at its last instant (`psts`) are looked up only for tenures that ended in a split
  //    instant (`sts` other than ','), the only ones a code can meet again at their own instant: a running
  //    max of that text over every row was the costliest column of the pass.
  // Strict: the tenure is alive while no event not matching step L came since it (its reset count has not moved).
  const alive = strict ? sql`(w.tb is not null and w.cc = w.trc)` : sql`(w.tb is not null)`
  const cL = id(`w.c${L}`)
  const used = sql`(w.multi = 1 and ${cL} = w.ts and strpos(ms.sts, ',' || w.u || ',') > 0)`
  const validP = sql`(w.k = ${int(P)} and ${alive} and w.ts - w.cst <= ${W}${attr ? sql` and ${carriesRunValue(plan, 'w')}` : sql``} and not coalesce(${used}, false))`
  const validX = sql`(w.k = ${int(X)} and ${alive} and w.ts - w.cst <= ${W})`
  // Strict: a reset of E[L+1] starts a new segment of the tenure, in which it may be extended again.
  const seg = strict ? sql`w.nc` : sql`w.tb`
  const splitTenures = sql`select ${run}, seq, sts from ${id(`t${L}`)} where sts <> ','`
  const valid = sql`select ${runCols(plan, 'w')}, w.seq, w.ts, w.u, w.multi, w.tb, ${seg} as seg, w.cst, ${join(tcols(L, 'c', 'w'))}, ms.sts as psts, ${validP} as vp, ${validX} as vx
    from ${id(names.win)} as w left join (${splitTenures}) as ms on ${sameCols(runNames(plan), 'ms', 'w')} and ms.seq = w.tb
    where w.k in (${int(P)}, ${int(X)}) and ${alive}`

  // 4. Per tenure and strict segment: the first counting step code, the first counting exclusion code.
  // `qu`: the first counting step code's uuid, behind its seq, only when it is in a split instant.
  const packed = (e: Sql) => sql`lpad(cast(seq as varchar), 20, '0') || ${e}`
  const groups = sql`select ${run}, tb, seg, max(cst) as st${strict ? sql`, min(seg) as qrc` : sql``}, ${join(tcols(L, 'c').map((c, i) => sql`max(${c}) as ${id(`c${i + 1}`)}`))}, max(psts) as psts,
    min(case when vp then seq end) as q, min(case when vp then ts end) as qts, min(case when vp then ${packed(sql`(case when multi = 1 then u else '' end)`)} end) as qu
    ${excl ? sql`, min(case when vx then seq end) as x, min(case when vx then ts end) as xts` : sql``}
    from ${id(names.valid)} group by ${run}, tb, seg`

  const ctes: Array<Cte> = [
    [names.items, items],
    [names.win, win],
    [names.valid, valid],
    [names.groups, groups],
  ]
  const g = (n: string) => id(`g.${n}`)
  const newPath = sql`select ${runCols(plan, 'g')}, g.q as seq, g.st, ${join(tcols(L, 'c', 'g').map((c, i) => sql`${c} as ${id(`t${i + 1}`)}`))}, g.qts as ${id(`t${level}`)},
    (case when substr(g.qu, 21) = '' then ',' else (case when ${g(`c${L}`)} = g.qts then coalesce(g.psts, ',') else ',' end) || substr(g.qu, 21) || ',' end) as sts${strict ? sql`, g.qrc as rc` : sql``}
    from ${id(names.groups)} as g`
  if (!excl) {
    ctes.push([names.tenures, sql`${newPath} where g.q is not null`])
    return { ctes, tenures: names.tenures, excluded: null, marked: null, hits: null }
  }

  // 5. Exclusions: a tenure is excluded by the first counting exclusion code that beat a segment's first step code.
  ctes.push([names.excl, sql`select ${run}, tb, min(case when x is not null and (q is null or x < q) then x end) as xs from ${id(names.groups)} group by ${run}, tb`])
  const onTenure = sql`${sameCols(runNames(plan), 'e', 'g')} and e.tb = g.tb`
  ctes.push([names.tenures, sql`${newPath} join ${id(names.excl)} as e on ${onTenure} where g.q is not null and (e.xs is null or g.q < e.xs)`])
  ctes.push([
    names.excluded,
    sql`select ${runCols(plan, 'v')}, v.seq, v.ts from ${id(names.valid)} as v join ${id(names.excl)} as e on ${sameCols(runNames(plan), 'e', 'v')} and e.tb = v.tb
      where v.vp and e.xs is not null and v.seq > e.xs`,
  ])
  if (plan.trends) {
    // At the furthest level nothing extends a tenure, so the exclusion code that hits it is its first counting one.
    ctes.push([names.hits, sql`select ${run}, min(x) as seq, min(xts) as ts from ${id(names.groups)} group by ${run}, tb having min(x) is not null`])
  }
  // 6. A tenure of E[L] that an exclusion code hit while E[L] was set, after it and within its window, is marked
  //    (steps.rs marks the furthest path; funnels.md §6). Only the first live code after it matters: times only grow.
  //    The first one from each row on is a running minimum in descending order: a frame running forward
  //    (`current row and unbounded following`) is computed again for every row on Postgres, quadratic in a run's codes.
  const liveX = strict ? sql`k = ${int(X)} and tb is not null and cc = trc` : sql`k = ${int(X)}`
  ctes.push([
    names.marked,
    sql`select ${run}, seq from (
      select ${run}, seq, k, st, min(case when ${liveX} then ts end) over (partition by ${part} order by seq desc rows between unbounded preceding and current row) as nx
      from ${id(names.win)}) as m where k = 0 and nx is not null and nx - st <= ${W}`,
  ])
  return { ctes, tenures: names.tenures, excluded: names.excluded, marked: names.marked, hits: plan.trends ? names.hits : null }
}
