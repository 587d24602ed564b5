import { sql, type RawBuilder } from 'kysely'
import type { Period } from '../dates/periods.js'
import type { QueryEnv } from '../analysis/query-env.js'
import type { TrendRequest, TrendSeries } from '../trends/trend-request.js'
import type { LifecycleStatus } from './lifecycle-sql.js'
import { lifecycleStatuses } from './run-lifecycle.js'

/** `{ a, n }` for a lifecycle point: the persons with `status` in bucket `bucket` of the period (n is 1). */
export function lifecycleActorsSql(env: QueryEnv, request: TrendRequest, series: TrendSeries, period: Period, bucket: number, status: LifecycleStatus): RawBuilder<unknown> {
  // Grid index 0 is the period before the range: bucket i of the result is index i + 1.
  return sql`select p as a, 1 as n from (${lifecycleStatuses(env, request, series, period)}) as s where b = ${sql.lit(bucket + 1)} and status = ${status}`
}
