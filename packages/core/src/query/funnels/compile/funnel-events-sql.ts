import { sql, type Expression, type SqlBool } from 'kysely'
import type { FunnelPlan } from '../funnel-plan.js'
import { bit, cols, hasBit, id, int, join, type Sql } from './sql-kit.js'

/** The SQL pieces of a funnel's events, compiled over one event scope (see `funnelSources`). */
export interface FunnelSources {
  /** `events as e` and its joins, and the WHERE of project, date range, global and test-account filters. */
  readonly from: Sql
  readonly where: Expression<SqlBool>
  /** The aggregation target: the person as `PERSON_KEY` (a uuid), or a group key. */
  readonly target: Expression<string>
  /** Rows without a target (no group of the aggregation type, a null or '' expression) take no part; null when every row has one. */
  readonly targetPresent: Expression<SqlBool> | null
  /** Aggregating by a HogQL expression: the event's person (`PERSON_KEY`), kept as `pk` for the people lists; null otherwise. */
  readonly actorPerson: Expression<string> | null
  readonly timestampMicros: Expression<number>
  /** The event's timestamp as stored: compared where `timestampMicros` would be computed for every event. */
  readonly timestamp: Expression<unknown>
  readonly uuid: Expression<string>
  readonly eventName: Expression<string>
  /** "The event matches step i", for the plan's n steps. */
  readonly steps: ReadonlyArray<Expression<SqlBool>>
  /**
   * "The event has one of the names every step and exclusion is limited to", when each names one (no
   * action, no "All events"): the same filter as the conditions', spelled (`SqlHooks.textInList`) so
   * that the scan can skip other events; null otherwise.
   */
  readonly named: Expression<SqlBool> | null
  /** Every step and exclusion is an event name alone (no property filter, no first-time math): each event `named` selects matches one. */
  readonly namesDecide: boolean
  /** "The event matches an exclusion covering gap j", for j = 1..n-1 (index j-1); null where none does. */
  readonly gaps: ReadonlyArray<Expression<SqlBool> | null>
  /** The breakdown value text of each property (null when missing); empty without a breakdown. */
  readonly values: ReadonlyArray<Expression<string | null>>
  /** "The event's person is in cohort k", for the plan's cohorts. */
  readonly cohorts: ReadonlyArray<Expression<SqlBool>>
}

const flag = (condition: Expression<SqlBool>, value: number): Sql => sql`(case when ${condition} then ${int(value)} else 0 end)`
const sum = (parts: ReadonlyArray<Sql>): Sql => (parts.length === 0 ? sql`cast(0 as bigint)` : sql`cast(${join(parts, ' + ')} as bigint)`)

/**
 * `fe`: one row per event that takes part, with its target `tgt`, time `ts`
 * (epoch microseconds), `uuid`, step mask `sm` (bit i-1: matches 1-based
 * step i), gap mask `xm` (bit j-1: an exclusion covering gap j matches),
 * `fs` (its lowest step, or n+1 for none: the order of events sharing a
 * timestamp), breakdown texts `b0..` ('' when missing), cohort flags
 * `c0..` and, aggregating by a HogQL expression, the event's person `pk`. Ordered and unordered funnels keep events matching a step or an
 * exclusion; strict ones keep every event of the scope (any other event
 * breaks a strict chain).
 */
export function funnelEventsSql(plan: FunnelPlan, s: FunnelSources): Sql {
  const gapConds = s.gaps.map((g, i) => (g ? { g, j: i + 1 } : null)).filter((x) => x !== null)
  const conditions: Expression<SqlBool>[] = [s.where]
  if (s.targetPresent) conditions.push(s.targetPresent)
  // Ordered and unordered: events named by a step or exclusion, then (`keep`) those that match one.
  if (plan.order !== 'strict') conditions.push(s.named ?? matchesAny(s))
  const values = plan.runs === 'none' || plan.runs === 'cohort' ? [sql`''`] : s.values.map((v) => sql`coalesce(${v}, '')`)
  const spans = strictSpans(plan, s, conditions)
  if (spans) conditions.push(sql<SqlBool>`${s.timestamp} >= fsp.lo and ${s.timestamp} <= fsp.hi`)
  const inner = sql`select ${s.target} as tgt, ${s.timestampMicros} as ts, ${s.uuid} as uuid,
    ${sum(s.steps.map((c, i) => flag(c, bit(i))))} as sm,
    ${sum(gapConds.map(({ g, j }) => flag(g, bit(j - 1))))} as xm,
    ${join(values.map((v, i) => sql`${v} as ${id(`b${i}`)}`))}
    ${s.cohorts.length > 0 ? sql`, ${join(s.cohorts.map((c, i) => sql`coalesce(${c}, false) as ${id(`c${i}`)}`))}` : sql``}
    ${s.actorPerson ? sql`, cast(${s.actorPerson} as varchar) as pk` : sql``}
    from ${s.from}${spans ? sql` join (${spans}) as fsp on fsp.tgt = ${s.target}` : sql``} where ${join(conditions.map((c) => sql`${c}`), ' and ')}`
  const fs = sql`(case ${join(Array.from({ length: plan.n }, (_, i) => sql`when ${hasBit(sql`sm`, i)} then ${int(i + 1)}`), ' ')} else ${int(plan.n + 1)} end)`
  // Needless where the names decide (10M events, an ordered funnel of 5 names: about -6%).
  const keep = plan.order !== 'strict' && s.named && !s.namesDecide ? sql` where fe0.sm <> 0 or fe0.xm <> 0` : sql``
  return sql`select fe0.*, ${fs} as fs from (${inner}) as fe0${keep}`
}

/**
 * A strict funnel reads every event of the scope, but only those from a
 * target's first step-0 event to its last step or exclusion event can take
 * part (compactedCtes: before, no path exists; after, nothing extends one).
 * Those spans are found first from the step and exclusion events alone (a
 * scan the event-name filter narrows), and the scope's events are joined to
 * them: events outside every span are dropped as they are read, instead of
 * being carried into `runs` and read again (at 10M events that was a third
 * of a strict funnel). Null where the plan says this does not hold or pays
 * nothing (`FunnelPlan.spansAtScan`).
 */
function strictSpans(plan: FunnelPlan, s: FunnelSources, conditions: ReadonlyArray<Expression<SqlBool>>): Sql | null {
  if (!plan.spansAtScan) return null
  // The plan and the sources read the same entities: every step and exclusion names an event.
  if (s.named === null) throw new Error('funnel events: spans at scan without a name for every step and exclusion')
  const where = join([...conditions, s.named].map((c) => sql`${c}`), ' and ')
  // Grouped by the inner select's column: a target with bound parameters (a HogQL expression) repeated in a
  // GROUP BY would bind new ones, and DuckDB would not see the same expression.
  const named = sql`select ${s.target} as tgt, ${s.timestamp} as ets, ${s.steps[0]!} as is0, ${matchesAny(s)} as isx from ${s.from} where ${where}`
  return sql`select * from (select tgt, min(case when is0 then ets end) as lo, max(case when isx then ets end) as hi from (${named}) as nm group by tgt) as sp
    where lo is not null`
}

/*
 * Events named by a step or an exclusion are selected by their name alone,
 * and whether they match one (properties, first-time math) is tested on the
 * selected rows: DuckDB scans with the name list as a filter, and Postgres
 * estimates the rows from it. With both conditions in one WHERE, Postgres
 * took them as independent and estimated 2% of the rows (461 of 19,573 at
 * 1M events), planned nested loops over the funnel's CTEs, and an ordered
 * 3-step funnel took 199 s instead of 0.7 s. The name list is spelled by
 * `SqlHooks.textInList`: DuckDB keeps an `IN` list only as a row-group
 * filter and tests it after reading every column of every row, but applies
 * `list_contains` inside the scan, reading the other columns of the named
 * rows only (10M events: the funnel's scan 89 -> 61 ms, a whole ordered
 * funnel -17%).
 */

/** "The event matches a step or an exclusion". */
function matchesAny(s: FunnelSources): Expression<SqlBool> {
  const any = [...s.steps, ...s.gaps.filter((g) => g !== null)]
  return sql<SqlBool>`(${join(any.map((c) => sql`${c}`), ' or ')})`
}


/**
 * `runs`: the events of each run of the per-target algorithm, keyed by
 * (`tgt`, `p0..`), the run's breakdown value (funnels.md §9.2): first and
 * last touch one run under the value of the earliest or latest event with a
 * non-empty value ('' when none); all_events one run per value over the
 * events carrying it; step attribution one run per value of an event
 * matching the attribution step (any event for unordered funnels), over all
 * the target's events; cohorts one run per cohort the event's person is in.
 * Without a breakdown, one run with `p0 = ''`.
 */
export function funnelRunsSql(plan: FunnelPlan): Sql {
  const k = plan.dims
  const b = cols('b', k)
  const rest = sql`ts, uuid, sm, xm, fs, ${join(b)}`
  const restOf = (alias: string) => sql`${id(`${alias}.ts`)}, ${id(`${alias}.uuid`)}, ${id(`${alias}.sm`)}, ${id(`${alias}.xm`)}, ${id(`${alias}.fs`)}, ${join(cols('b', k, alias))}`
  switch (plan.runs) {
    case 'none':
      return sql`select tgt, '' as p0, ${rest} from fe`
    case 'all_events':
      return sql`select tgt, ${join(b.map((c, i) => sql`${c} as ${id(`p${i}`)}`))}, ${rest} from fe`
    case 'first_touch':
    case 'last_touch': {
      const dir = plan.runs === 'first_touch' ? sql`` : sql` desc`
      const edge = plan.runs === 'first_touch' ? sql`min` : sql`max`
      const nonEmpty = (alias?: string) => join(cols('b', k, alias).map((c) => sql`${c} <> ''`), ' or ')
      // The earliest (latest) instant with a value by a grouping, then the order within that instant: a
      // row_number over every event sorted them all (a strict funnel reads every event in range: on the
      // Postgres server at 1M events, a 3.5 s sort that spilled to disk).
      const instant = sql`select tgt, ${edge}(ts) as tts from fe where ${nonEmpty()} group by tgt`
      const touch = sql`select f.tgt, ${join(cols('b', k, 'f'))}, row_number() over (partition by f.tgt order by f.fs${dir}, f.uuid${dir}) as rn
        from fe as f join (${instant}) as ti on ti.tgt = f.tgt and f.ts = ti.tts where ${nonEmpty('f')}`
      return sql`select fe.tgt, ${join(cols('b', k, 'ft').map((c, i) => sql`coalesce(${c}, '') as ${id(`p${i}`)}`))}, ${restOf('fe')}
        from fe left join (${touch}) as ft on ft.tgt = fe.tgt and ft.rn = 1`
    }
    case 'step': {
      const which = plan.order === 'unordered' ? sql`true` : hasBit(sql`sm`, plan.attributionLevel! - 1)
      const cand = sql`select distinct tgt, ${join(b)} from fe where ${which}`
      return sql`select fe.tgt, ${join(cols('b', k, 'cv').map((c, i) => sql`${c} as ${id(`p${i}`)}`))}, ${restOf('fe')}
        from fe join (${cand}) as cv on cv.tgt = fe.tgt`
    }
    case 'cohort':
      return join(
        plan.cohorts.map((c, i) => sql`select tgt, cast(${String(c)} as varchar) as p0, ${rest} from fe where ${id(`c${i}`)}`),
        '\nunion all\n',
      )
  }
}
