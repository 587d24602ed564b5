import { sql, type Expression, type RawBuilder } from 'kysely'
import { personText, type SeriesScope } from '../trends/series-scope.js'
import { sqlCast } from '../../db/sql-cast.js'

export const LIFECYCLE_STATUSES = ['new', 'returning', 'resurrecting', 'dormant'] as const
export type LifecycleStatus = (typeof LIFECYCLE_STATUSES)[number]

/**
 * Each person's activity periods with their status (reference §12), over a
 * grid whose period 0 is the one before the reporting window:
 * `{ p: person, b: period index, status }`, one row per active period
 * (new, returning or resurrecting) and one `dormant` row at the period after
 * each active period that is not followed by activity.
 *
 * - new: the person's first activity period in the grid, and the period
 *   holding its `created_at` (`createdBucket`);
 * - returning: active in the period just before;
 * - resurrecting: any other activity period.
 *
 * `person` names each person: its id as text by default (actors lists read
 * it), or `PERSON_KEY` when only counts are read (16 bytes to group and
 * sort by).
 */
export function lifecycleStatusSql(scope: SeriesScope, bucket: Expression<number>, createdBucket: Expression<number>, person: Expression<string> = personText()): RawBuilder<{ p: string; b: number; status: LifecycleStatus }> {
  const active = sql`select ${person} as p, ${bucket} as b, min(${createdBucket}) as cb from ${scope.from} where ${scope.where} group by 1, 2`
  const ordered = sql`select p, b, cb, lag(b) over (partition by p order by b) as prev, lead(b) over (partition by p order by b) as next from (${active}) as a where b >= 0`
  return sql<{ p: string; b: number; status: LifecycleStatus }>`with l as (${ordered})
    select p, b, (case when prev = b - 1 then 'returning' when prev is null and b = cb then 'new' else 'resurrecting' end) as status from l
    union all select p, b + 1 as b, 'dormant' as status from l where next is null or next > b + 1`
}

/** Lifecycle cells: `{ b, status, v }`, the number of persons of each status in each period. */
export function lifecycleCountsSql(statuses: RawBuilder<{ p: string; b: number; status: LifecycleStatus }>): RawBuilder<{ b: number; status: LifecycleStatus; v: number }> {
  return sql<{ b: number; status: LifecycleStatus; v: number }>`select b, status, ${sqlCast(sql`count(*)`, 'float8')} as v from (${statuses}) as s group by b, status`
}
