import { sql, type Expression, type SqlBool } from 'kysely'
import type { SqlHooks } from '../../storage.js'

/**
 * "The row's breakdown values are none of `kept`": the rows PostHog folds
 * into Other. Keys are never null (missing values carry the null marker);
 * every value is a bound parameter.
 */
export function notOneOfSql(keys: ReadonlyArray<Expression<string>>, kept: ReadonlyArray<ReadonlyArray<string>>, hooks: SqlHooks): Expression<SqlBool> {
  if (kept.length === 0) return sql<SqlBool>`true`
  if (keys.length === 1) return sql<SqlBool>`not coalesce(${hooks.textInList(keys[0]!, kept.map((k) => k[0]!))}, false)`
  const matches = kept.map((parts) => sql`(${sql.join(keys.map((k, i) => sql`${k} = ${parts[i]!}`), sql` and `)})`)
  return sql<SqlBool>`not (${sql.join(matches, sql` or `)})`
}
