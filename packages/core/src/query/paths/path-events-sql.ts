import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import { compileHogql, hogqlToText } from '../hogql/index.js'
import { eventScope } from '../scope/event-scope.js'
import { noNeeds } from '../scope/filter-needs.js'
import { hogqlScope, type QueryEnv } from '../trends/series-scope.js'
import { cleanedPathItemSql, eventTypeConditionSql, groupedPathItemSql, rawPathItemSql } from './path-item-sql.js'
import type { PathCleaningRule, PathsRequest } from './paths-request.js'

/**
 * The events a path reads, one row each: `pid` (the person, as text), `us`
 * (epoch microseconds), `id` (the uuid as text, which orders events at the
 * same instant) and `item` (the node name after cleaning and groupings).
 * Scoped like every analysis (project, range, global and test-account
 * filters), then by event type, then `exclude_events` on the final name;
 * PostHog applies the exclusions only when event types are listed
 * (reference §15.6), and so does this.
 */
export function pathEventsSql(
  env: QueryEnv,
  request: PathsRequest,
  range: { readonly fromMicros: number; readonly toMicros: number },
  rules: ReadonlyArray<PathCleaningRule>,
): RawBuilder<unknown> {
  const needs = noNeeds()
  // A HogQL node name may read person properties; which ones is known only once compiled.
  if (request.hogqlExpression !== null) needs.person = true
  const scope = eventScope({
    project: env.project,
    hooks: env.hooks,
    range,
    properties: request.properties,
    filterTestAccounts: request.filterTestAccounts,
    needs,
    extensions: env.extensions.filterSources,
  })
  const s = scope.sources
  const hogql = request.hogqlExpression === null ? null : hogqlToText(compileHogql(request.hogqlExpression, hogqlScope(env, s), ['paths_hogql_expression']))
  const conditions: Expression<SqlBool>[] = [scope.where]
  const types = eventTypeConditionSql(request, s)
  if (types) conditions.push(types)
  const raw = sql`select ${s.personId} as pid, ${s.timestampMicros} as us, cast(${s.uuid} as text) as id, ${rawPathItemSql(request, s, hogql)} as item
    from ${scope.from} where ${sql.join(conditions, sql` and `)}`
  let named: RawBuilder<unknown> = raw
  const item = sql.ref('item') as Expression<string>
  if (rules.length > 0) named = sql`select pid, us, id, ${cleanedPathItemSql(item, rules, s)} as item from (${named}) as r`
  if (request.pathGroupings.length > 0) named = sql`select pid, us, id, ${groupedPathItemSql(item, request.pathGroupings)} as item from (${named}) as c`
  if (request.includeEventTypes.length > 0 && request.excludeEvents.length > 0) {
    named = sql`select pid, us, id, item from (${named}) as g where not coalesce(${env.hooks.textInList(item, request.excludeEvents)}, false)`
  }
  return named
}
