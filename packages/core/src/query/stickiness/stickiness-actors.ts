import { sql, type RawBuilder } from 'kysely'
import { ValidationError } from '../../errors.js'
import type { Period } from '../dates/periods.js'
import type { QueryEnv } from '../analysis/query-env.js'
import type { TrendRequest, TrendSeries } from '../trends/trend-request.js'
import { stickinessActor, stickinessBucket, stickinessScope } from './run-stickiness.js'

/**
 * `{ a, n }` for a stickiness point: the actors active in exactly `days`
 * buckets of the period, with their matching events. ValidationError when
 * `days` is outside 1..N.
 */
export function stickinessActorsSql(env: QueryEnv, request: TrendRequest, series: TrendSeries, period: Period, days: number): RawBuilder<unknown> {
  const n = period.starts.length
  if (days < 1 || days > n) throw new ValidationError([{ path: ['stickiness_days'], message: `the result has ${n} day counts (1 to ${n})` }], { context: 'invalid persons parameters' })
  const scope = stickinessScope(env, request, series, period)
  const rows = sql`select ${stickinessActor(series, scope)} as a, ${stickinessBucket(period, scope)} as b from ${scope.from} where ${scope.where}`
  return sql`select a, count(*) as n from (${rows}) as r where a is not null and a <> '' and b >= 0 group by a having count(distinct b) = ${sql.lit(days)}`
}
