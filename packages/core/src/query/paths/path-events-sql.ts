import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import { PERSON_KEY as EVENT_PERSON_KEY, PERSON_UUID } from '../scope/event-scope.js'
import { withCtes } from '../funnels/compile/sql-kit.js'
import type { FunnelPathBounds } from './funnel-paths.js'
import { analysisScope } from '../analysis/analysis-scope.js'
import { noNeeds } from '../scope/filter-needs.js'
import { hogqlTextCompiler } from '../scope/hogql-scope.js'
import type { QueryEnv } from '../analysis/query-env.js'
import { cleanedPathItemSql, eventTypeConditionSql, groupedPathItemSql, namesEventType, rawPathItemSql } from './path-item-sql.js'
import type { PathCleaningRule, PathsRequest } from './paths-request.js'
import { eventPropertyText } from '../filters/compile-property-filters.js'

/**
 * The person of an event as a sort key of fixed size: `pid`, its person's
 * native uuid (eventScope's `PERSON_UUID`), and `pd`, the distinct id of a
 * personless event (null otherwise), which then is a person of its own.
 * Windows partition by `(pid, pd)`: sorting 16-byte uuids instead of their
 * text made the paths' window passes about a quarter cheaper on DuckDB.
 */
const PERSON_KEY = sql`${PERSON_UUID} as pid, case when ${PERSON_UUID} is null then e.distinct_id end as pd`

/** The person's id as text (the uuid's text, or a personless distinct id), from `pid` and `pd`. */
export const personTextSql = sql<string>`coalesce(cast(pid as text), pd)`

/**
 * The events a path reads: `raw`, one row each with `pid, pd` (the person,
 * see PERSON_KEY), `us` (epoch microseconds), `id` (the uuid, which orders
 * events at the same instant; both databases order uuids as their text) and
 * `item` (the node name before cleaning), and `named`, which cleans and
 * groups names. Scoped like every analysis (project, range, global and
 * test-account filters), then by event type, then `exclude_events` on the
 * final name (with `funnel`, only the funnel's persons' events within their
 * bounds); PostHog applies the exclusions only when event types are listed
 * (reference §15.6), and so does this.
 */
export interface PathEvents {
  readonly raw: RawBuilder<unknown>
  /**
   * `rows` (a relation with an `item` column and the columns `keep`) with
   * `item` cleaned by the rules, then grouped (`path_groupings`), and the
   * rows whose final name is excluded left out: per event, or once per
   * distinct name where names are coded (path-items.ts).
   */
  named(rows: RawBuilder<unknown>, keep: ReadonlyArray<string>): RawBuilder<unknown>
}

/** The events of a paths request and the naming of their nodes (see `PathEvents`). */
export function pathEventsSql(
  env: QueryEnv,
  request: PathsRequest,
  range: { readonly fromMicros: number; readonly toMicros: number },
  rules: ReadonlyArray<PathCleaningRule>,
  funnel: FunnelPathBounds | null = null,
): PathEvents {
  const needs = noNeeds()
  // A HogQL node name may read person properties; which ones is known only once compiled.
  if (request.hogqlExpression !== null) needs.person = true
  const scope = analysisScope(env, { range, properties: request.properties, filterTestAccounts: request.filterTestAccounts, needs })
  const s = scope.sources
  const hogql = request.hogqlExpression === null ? null : hogqlTextCompiler(s, env.project.timezone, env.now)(request.hogqlExpression, ['paths_hogql_expression'])
  const conditions: Expression<SqlBool>[] = [scope.where]
  const types = eventTypeConditionSql(request, s)
  if (types) conditions.push(types)
  // The JSON reads and the HogQL text once per event, then the name from those columns. A JSON
  // read only for the events named by it: parsing the properties is most of reading an event.
  const jsonFor = (event: string, key: string) =>
    namesEventType(request, event) ? sql`case when ${s.eventName} = ${event} then ${eventPropertyText(s, key)} end` : sql`cast(null as text)`
  // Funnel paths: only the funnel's persons, and their events within the bounds of their step (PostHog's handle_funnel).
  if (funnel) conditions.push(sql<SqlBool>`(fpa.lo is null or ${s.timestampMicros} >= fpa.lo) and (fpa.hi is null or ${s.timestampMicros} <= fpa.hi)`)
  const funnelJoin = funnel ? sql` join fpa on fpa.tgt = ${EVENT_PERSON_KEY}` : sql``
  const select = sql`select ${PERSON_KEY}, ${s.timestampMicros} as us, ${s.uuid} as id, ${s.eventName} as ev,
      ${jsonFor('$pageview', '$current_url')} as url,
      ${jsonFor('$screen', '$screen_name')} as screen,
      ${hogql ?? sql`cast(null as text)`} as hq
    from ${scope.from}${funnelJoin} where ${sql.join(conditions, sql` and `)}`
  const read = funnel ? withCtes(funnel.ctes, select) : select
  const columns = { event: sql.ref('ev') as Expression<string>, url: sql.ref('url') as Expression<string | null>, screen: sql.ref('screen') as Expression<string | null>, hogql: hogql ? (sql.ref('hq') as Expression<string | null>) : null }
  const raw = sql`select pid, pd, us, id, ${rawPathItemSql(request, columns)} as item from (${read}) as e0`
  const item = sql.ref('item') as Expression<string>
  const named = (rows: RawBuilder<unknown>, keep: ReadonlyArray<string>): RawBuilder<unknown> => {
    const kept = sql.join(keep.map((c) => sql.ref(c)))
    let out = rows
    if (rules.length > 0) out = sql`select ${kept}, ${cleanedPathItemSql(item, rules, s)} as item from (${out}) as r`
    if (request.pathGroupings.length > 0) out = sql`select ${kept}, ${groupedPathItemSql(item, request.pathGroupings)} as item from (${out}) as c`
    if (request.includeEventTypes.length > 0 && request.excludeEvents.length > 0) {
      out = sql`select ${kept}, item from (${out}) as g where not coalesce(${env.hooks.textInList(item, request.excludeEvents)}, false)`
    }
    return out
  }
  return { raw, named }
}
