import { sql, type Expression, type SqlBool } from 'kysely'
import type { QuerySources } from '../scope/query-sources.js'
import type { PathCleaningRule, PathsRequest } from './paths-request.js'

/**
 * Whether PostHog's runner names events of type `event` its own way
 * (`_should_query_event`): with event types listed, when listed; without,
 * when not among `exclude_events` (so excluding `$pageview` then names page
 * views `$pageview` instead of by URL, and keeps them).
 */
export function namesEventType(request: PathsRequest, event: string): boolean {
  if (request.includeEventTypes.length === 0) return !request.excludeEvents.includes(event)
  return (request.includeEventTypes as ReadonlyArray<string>).includes(event)
}

/** The columns a node's name is made of, read once per event (DuckDB repeats a JSON read as often as it is spelt). */
export interface PathItemColumns {
  readonly event: Expression<string>
  /** `$current_url`'s text, null when missing. */
  readonly url: Expression<string | null>
  /** `$screen_name`'s text, null when missing. */
  readonly screen: Expression<string | null>
  /** The HogQL expression's text; null without one. */
  readonly hogql: Expression<string | null> | null
}

/**
 * A node's name before cleaning (reference §14.1, PostHog's
 * `construct_event_hogql`): a page view's `$current_url` with one trailing
 * `/` removed (`'(.)/$'` -> `'\1'`: never the whole text, nor after a line
 * break, which RE2's `.` does not match), a screen's `$screen_name`, any
 * other event its name or the HogQL expression's text; '' when missing.
 */
export function rawPathItemSql(request: PathsRequest, columns: PathItemColumns): Expression<string> {
  let item: Expression<string | null> = columns.event
  if (columns.hogql && namesEventType(request, 'hogql')) item = columns.hogql
  if (namesEventType(request, '$pageview')) {
    const url = sql<string>`coalesce(${columns.url}, '')`
    const stripped = sql<string>`(case when length(${url}) > 1 and substr(${url}, length(${url}), 1) = '/' and substr(${url}, length(${url}) - 1, 1) <> chr(10) then substr(${url}, 1, length(${url}) - 1) else ${url} end)`
    item = sql`(case when ${columns.event} = ${'$pageview'} then ${stripped} else ${item} end)`
  }
  if (namesEventType(request, '$screen')) item = sql`(case when ${columns.event} = ${'$screen'} then ${columns.screen} else ${item} end)`
  return sql<string>`coalesce(${item}, '')`
}

/** The cleaning rules applied in order, each replacing every match of its regex with its alias (`replaceRegexpAll`). */
export function cleanedPathItemSql(item: Expression<string>, rules: ReadonlyArray<PathCleaningRule>, sources: QuerySources): Expression<string> {
  return rules.reduce<Expression<string>>((text, rule) => sources.hooks.regexReplace(text, rule.regex, rule.alias) as Expression<string>, item)
}

/**
 * The node after `path_groupings`: the first grouping whose pattern occurs
 * anywhere in the name (`*` is any text, everything else literal; PostHog's
 * `escape(g).replace('\*', '.*')` searched unanchored) names the node.
 */
export function groupedPathItemSql(item: Expression<string>, groupings: ReadonlyArray<string>): Expression<string> {
  if (groupings.length === 0) return item
  const whens = groupings.map((g) => sql`when ${item} like ${groupingLikePattern(g)} escape ${sql.lit('\\')} then cast(${g} as text)`)
  return sql<string>`(case ${sql.join(whens, sql` `)} else ${item} end)`
}

/** A grouping as a LIKE pattern matching it anywhere: `*` is `%`; `%`, `_` and `\` are escaped. */
export function groupingLikePattern(grouping: string): string {
  const literal = (part: string) => part.replace(/[\\%_]/g, (c) => `\\${c}`)
  return `%${grouping.split('*').map(literal).join('%')}%`
}

/**
 * Which events a path reads (PostHog's `_get_event_query`): with event types
 * listed, page views, screens and events not starting with `$` as listed
 * (`hogql` alone adds no condition); none listed, every event.
 */
export function eventTypeConditionSql(request: PathsRequest, sources: QuerySources): Expression<SqlBool> | null {
  const types = request.includeEventTypes
  const parts: Expression<SqlBool>[] = []
  if (types.includes('$pageview')) parts.push(sql<SqlBool>`${sources.eventName} = ${'$pageview'}`)
  if (types.includes('$screen')) parts.push(sql<SqlBool>`${sources.eventName} = ${'$screen'}`)
  if (types.includes('custom_event')) parts.push(sql<SqlBool>`substr(${sources.eventName}, 1, 1) <> ${'$'}`)
  return parts.length === 0 ? null : sql<SqlBool>`(${sql.join(parts, sql` or `)})`
}
