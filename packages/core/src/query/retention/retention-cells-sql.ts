import { sql, type RawBuilder } from 'kysely'
import type { SqlHooks } from '../../storage.js'
import { bucketIndexSql } from '../dates/bucket-index-sql.js'
import type { RetentionRequest } from './retention-request.js'
import type { RetentionEvents } from './retention-events-sql.js'
import type { RetentionWindow } from './retention-window.js'
import { sqlCast } from '../../db/sql-cast.js'

/** One appearance: actor `a` of breakdown value `v` is in cohort row `i` and active at `k` periods after it (k = 0: the cohort itself). */
export type RetentionCell = { a: string; v: string; i: number; k: number }

/**
 * Every appearance of every actor (reference §13.2-13.4), set at a time:
 * the events are folded once into per-actor, per-period activity (`act`:
 * whether a start event happened, how many return events), cohorts come
 * from that (recurring: every period with a start event) or from each
 * actor's first start event ever (first-time types; PostHog's minIf per
 * actor and breakdown value), and the returns are a join of the small
 * cohort and activity sets, never of events. A return counts in a later
 * period of the window within `total_intervals` periods of the cohort, with
 * at least `minimum_occurrences` return events in it. Each (a, v, i, k) is
 * one row.
 */
export function retentionCellsSql(events: RetentionEvents, request: RetentionRequest, window: RetentionWindow, hooks: SqlHooks, projectId: number): RawBuilder<RetentionCell> {
  const starts = window.starts.map((ms) => new Date(ms))
  const end = new Date(window.end)
  const from = sql.lit(window.starts[0]! * 1000)
  const to = sql.lit(window.end * 1000)
  const bucket = (micros: RawBuilder<number>) => bucketIndexSql(micros, starts, end, hooks)

  let act = sql`select a, v, ${bucket(sql<number>`u`)} as b, max(st) as s, sum(rt) as r from ${events.windowRows ? sql`evw` : sql`ev`} where u >= ${from} and u < ${to} group by a, v, 3`
  let first = sql`select a, v, min(case when st = 1 then u end) as f, min(case when st0 = 1 then u end) as f0 from ev group by a, v`
  if (events.byDistinctId) {
    // Grouped by distinct id first; the person of each id is looked up once per group, then regrouped.
    const person = sql`coalesce(cast(pdi.person_uuid as text), x.a)`
    const join = sql`left join person_distinct_ids as pdi on pdi.project_id = ${projectId} and pdi.distinct_id = x.a`
    act = sql`select ${person} as a, x.v, x.b, max(x.s) as s, sum(x.r) as r from (${act}) as x ${join} group by 1, 2, 3`
    first = sql`select ${person} as a, x.v, min(x.f) as f, min(x.f0) as f0 from (${first}) as x ${join} group by 1, 2`
  }
  let cohorts: RawBuilder<unknown>
  if (request.retentionType === 'retention_recurring') cohorts = sql`select a, v, b as i from act where s = 1`
  else {
    // First-ever occurrence: the first event of the target, whatever its own filters, must match them.
    const same = request.retentionType === 'retention_first_ever_occurrence' ? sql` and f = f0` : sql``
    cohorts = sql`select a, v, ${bucket(sql<number>`f`)} as i from (${first}) as fs where f >= ${from} and f < ${to}${same}`
  }
  const lookahead = sql.lit(window.lookahead)
  const minimum = sql.lit(request.minimumOccurrences)
  const windowCte = events.windowRows ? sql`, evw as (${events.windowRows})` : sql``
  return sql<RetentionCell>`with ev as (${events.rows})${windowCte}, act as (${act}), coh as (${cohorts})
    select a, v, i, cast(0 as bigint) as k from coh
    union all
    select c.a, c.v, c.i, r.b - c.i as k from coh as c join act as r on r.a = c.a and r.v = c.v and r.b > c.i and r.b < c.i + ${lookahead} and r.r >= ${minimum}`
}

/**
 * The counts of a result: `{ v, i, k, n }`, the actors of value `v` in row
 * `i` at `k`; with `cumulative`, k is instead each actor's furthest return
 * (its count holds for every k' <= k, PostHog's arrayJoin(range(0, max + 1))).
 */
export function retentionCountsSql(cells: RawBuilder<RetentionCell>, cumulative: boolean): RawBuilder<{ v: string; i: number; k: number; n: number }> {
  if (cumulative) {
    return sql`select v, i, mk as k, ${sqlCast(sql`count(*)`, 'float8')} as n from (select a, v, i, max(k) as mk from (${cells}) as c group by a, v, i) as m group by v, i, mk`
  }
  return sql`select v, i, k, ${sqlCast(sql`count(*)`, 'float8')} as n from (${cells}) as c group by v, i, k`
}
