import { sql, type Expression, type RawBuilder } from 'kysely'
import type { SeriesScope } from '../trends/series-scope.js'
import { sqlCast } from '../../db/sql-cast.js'

/**
 * Stickiness cells: `{ c, v }`, the number of actors (v) active in exactly
 * `c` distinct buckets. `bucket` is the row's bucket index; `actor` the
 * actor's key, null where the row has none (`stickinessKey`).
 */
export function stickinessSql(scope: SeriesScope, bucket: Expression<number>, actor: Expression<string | null>): RawBuilder<{ c: number; v: number }> {
  const activity = sql`select distinct ${actor} as a, ${bucket} as b from ${scope.from} where ${scope.where}`
  const perActor = sql`select a, count(*) as c from (${activity}) as t where a is not null and b >= 0 group by a`
  return sql<{ c: number; v: number }>`select c, ${sqlCast(sql`count(*)`, 'float8')} as v from (${perActor}) as x group by c`
}
