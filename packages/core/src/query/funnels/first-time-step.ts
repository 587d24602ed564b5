import { sql, type Expression, type SqlBool } from 'kysely'
import type { SqlHooks } from '../../storage.js'
import { formatTimestamp } from '../../time/timestamp.js'
import type { QueryExtensions } from '../analysis/query-extensions.js'
import { eventScope, PERSON_KEY } from '../scope/event-scope.js'
import { addFilterNeeds, noNeeds } from '../scope/filter-needs.js'
import type { QueryProject } from '../scope/query-project.js'
import { seriesCondition } from '../series/series-condition.js'
import type { SeriesEntity } from '../series/series.js'
import { sqlCast } from '../../db/sql-cast.js'

/**
 * The step maths PostHog's funnels read (`FunnelMathType`); the legacy
 * translation drops every other math from a funnel step
 * (`MathAvailability.FunnelsOnly`), so those change nothing.
 */
export type FirstTimeMath = 'first_time_for_user' | 'first_time_for_user_with_filters'
export const isFirstTimeMath = (math: string | null): math is FirstTimeMath => math === 'first_time_for_user' || math === 'first_time_for_user_with_filters'

export interface FirstTimeInput {
  readonly project: QueryProject
  readonly hooks: SqlHooks
  readonly range: { readonly fromMicros: number; readonly toMicros: number }
  readonly extensions: QueryExtensions
}

/**
 * "This event is the person's first time" for a funnel step, as PostHog's
 * `FirstTimeForUserAggregationQuery` decides it: among all the person's
 * events up to `date_to` (before `date_from` too; no global or test-account
 * filters) that match the step's event or action, the earliest must be in
 * the range and pass the step's property filters, and only that event can
 * fill the step. With `first_time_for_user_with_filters` the property
 * filters choose the events first: the earliest event matching the event and
 * its filters, which must be in the range. Persons here are persons even
 * when the funnel aggregates by groups (PostHog groups by `person_id`).
 *
 * PostHog takes `argMin(uuid, timestamp)`, leaving a tie at the earliest
 * instant open; here the smaller uuid wins.
 */
export function firstTimeCondition(step: SeriesEntity & { readonly math: FirstTimeMath }, eventUuid: Expression<string>, input: FirstTimeInput): Expression<SqlBool> {
  // The step's filters, and an action's step filters, may read person or group properties.
  const needs = addFilterNeeds(noNeeds(), step.properties)
  needs.person ||= input.extensions.needs.person
  for (const g of input.extensions.needs.groups) needs.groups.add(g)
  const scope = eventScope({
    project: input.project,
    hooks: input.hooks,
    range: null,
    needs,
    extensions: input.extensions.filterSources,
  })
  const src = scope.sources
  const withFilters = step.math === 'first_time_for_user_with_filters'
  const entity = seriesCondition(withFilters ? step : { ...step, properties: [] }, src, (id) => input.extensions.actionCondition(id, src))
  const to = sqlCast(sql.lit(formatTimestamp(input.range.toMicros)), 'timestamptz')
  const firsts = sql`select ${src.uuid} as fu, row_number() over (partition by ${PERSON_KEY} order by e.timestamp, cast(e.uuid as text)) as frn
    from ${scope.from} where ${scope.where} and ${entity} and e.timestamp <= ${to}`
  // PostHog's HAVING (the first event is in the range and passes the filters) needs no
  // check here: the step's own condition, ANDed with this, holds only for events in
  // range that pass the filters, so a first event failing either fills no step.
  return sql<SqlBool>`${eventUuid} in (select f.fu from (${firsts}) as f where f.frn = 1)`
}
