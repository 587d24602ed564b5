import { sql, type Expression, type SqlBool } from 'kysely'
import type { SqlHooks } from '../../storage.js'
import type { QueryExtensions } from '../analysis/query-extensions.js'
import { breakdownValueSql } from '../breakdowns/breakdown-value.js'
import { cohortMembership } from '../cohorts/cohort-membership.js'
import type { CohortCatalog } from '../cohorts/load-cohorts.js'
import { eventScope, PERSON_ID, PERSON_KEY } from '../scope/event-scope.js'
import { addFilterNeeds, noNeeds } from '../scope/filter-needs.js'
import { hogqlTextCompiler } from '../scope/hogql-scope.js'
import type { QueryProject } from '../scope/query-project.js'
import { seriesCondition } from '../series/series-condition.js'
import type { SeriesEntity } from '../series/series.js'
import type { FunnelSources } from './compile/funnel-events-sql.js'
import { firstTimeCondition, isFirstTimeMath } from './first-time-step.js'
import type { FunnelPlan } from './funnel-plan.js'
import type { FunnelRequest } from './funnel-request.js'

export interface FunnelSourcesInput {
  readonly request: FunnelRequest
  readonly plan: FunnelPlan
  readonly project: QueryProject
  readonly hooks: SqlHooks
  readonly range: { readonly fromMicros: number; readonly toMicros: number }
  readonly extensions: QueryExtensions
  /** Cohort breakdowns: the loaded cohorts; null otherwise. */
  readonly cohorts: CohortCatalog | null
  /** The engine's clock, for HogQL's `now()` and behavioral cohorts. */
  readonly now: Date
}

/**
 * The funnel's events as SQL over one event scope (funnels.md §2): the date
 * range, global and test-account filters on every event; each step's event
 * or action and its own properties (and, with a first-time math, being the
 * person's first such event: first-time-step.ts); each gap's exclusions (their properties
 * are dropped by the legacy endpoint); the aggregation target, a person
 * (distinct ids merged; a personless distinct id stands alone), the
 * event's group of the chosen type or the text of `funnel_aggregate_by_hogql`
 * (events without one take no part); the
 * breakdown values and cohort memberships.
 */
export function funnelSources(input: FunnelSourcesInput): FunnelSources {
  const { request, plan, project, hooks } = input
  const steps = request.steps.slice(0, plan.n)
  // The steps' filters and the loaded actions' step filters may read person or group properties.
  const needs = addFilterNeeds(noNeeds(), null)
  needs.person = input.extensions.needs.person
  for (const g of input.extensions.needs.groups) needs.groups.add(g)
  for (const s of steps) addFilterNeeds(needs, s.properties)
  // An aggregation expression may read person.properties.
  if (request.aggregateByHogql !== null) needs.person = true
  for (const d of request.breakdown?.dims ?? []) {
    // A HogQL breakdown may read person.properties.
    if (d.type === 'person' || d.type === 'hogql') needs.person = true
    if (d.type === 'group' && d.groupTypeIndex !== null) needs.groups.add(d.groupTypeIndex)
  }
  const scope = eventScope({
    project,
    hooks,
    range: input.range,
    properties: request.properties,
    filterTestAccounts: request.filterTestAccounts,
    needs,
    extensions: input.extensions.filterSources,
  })
  const src = scope.sources
  const action = (id: number) => input.extensions.actionCondition(id, src)
  const exclusionConds = request.exclusions.map((x) => ({ cond: seriesCondition(x.entity, src, action), from: x.from, to: x.to }))
  const gaps = Array.from({ length: plan.n - 1 }, (_, i) => {
    const j = i + 1
    const covering = exclusionConds.filter((x) => x.from < j && j <= x.to).map((x) => x.cond)
    return covering.length === 0 ? null : sql<SqlBool>`(${sql.join(covering, sql` or `)})`
  })
  const entities = [...steps, ...request.exclusions.map((x) => x.entity)]
  const g = request.aggregationGroup
  // The person as text where its value shows (HogQL, cohorts); as a fixed-size key where runs are partitioned by it.
  const person = PERSON_ID
  const b = request.breakdown
  const hogql = hogqlTextCompiler(src, project.timezone, input.now)
  // PostHog's _aggregation_target_expr: a group key, the expression's text (funnel_aggregate_by_hogql), or the person.
  const byHogql = request.aggregateByHogql === null ? null : hogql(request.aggregateByHogql, ['funnel_aggregate_by_hogql'])
  // Rows whose expression is null are left out by targetPresent, so a kept row's target is text.
  const target: Expression<string> = g !== null ? src.groupKeys[g]! : ((byHogql as Expression<string> | null) ?? PERSON_KEY)
  // PostHog's _aggregation_target_filter: a target that is null or '' takes no part.
  const targetPresent = g !== null ? sql<SqlBool>`${src.groupKeys[g]!} <> ''` : byHogql !== null ? sql<SqlBool>`coalesce(${byHogql} <> '', false)` : null
  const values =
    b === null || plan.runs === 'cohort'
      ? []
      : b.dims.map((d, i) => breakdownValueSql(d, src, hogql, b.viaBreakdowns ? ['breakdowns', i] : ['breakdown']))
  const cohorts = plan.cohorts.map((c) =>
    c === 'all' ? sql<SqlBool>`true` : cohortMembership(c, input.cohorts!, { personId: person, projectId: project.id, now: input.now, hooks }),
  )
  return {
    from: scope.from,
    where: scope.where,
    target,
    targetPresent,
    actorPerson: byHogql === null ? null : PERSON_KEY,
    timestampMicros: src.timestampMicros,
    timestamp: src.timestamp,
    uuid: src.uuid,
    eventName: src.eventName,
    named: namedIn(src.eventName, eventNames(entities), hooks),
    // An exclusion covering only gaps past the funnel's cut (trends) is named but matches no gap here.
    namesDecide: entities.every(isBareName) && request.exclusions.every((x) => x.from < plan.n - 1),
    steps: steps.map((s) => {
      const matches = seriesCondition(s, src, action)
      if (!isFirstTimeMath(s.math)) return matches
      return sql<SqlBool>`(${matches} and ${firstTimeCondition({ ...s, math: s.math }, src.uuid, { project, hooks, range: input.range, extensions: input.extensions })})`
    }),
    gaps,
    values,
    cohorts,
  }
}

/** "The event has one of `names`"; null without names. */
const namedIn = (eventName: Expression<string>, names: ReadonlyArray<string> | null, hooks: SqlHooks): Expression<SqlBool> | null =>
  names === null ? null : (hooks.textInList(eventName, names) as Expression<SqlBool>)

/** The event names of `entities` when each names one (no action, no "All events"); null otherwise. */
function eventNames(entities: ReadonlyArray<SeriesEntity>): string[] | null {
  if (entities.some((e) => e.kind !== 'events' || e.event === null)) return null
  return [...new Set(entities.map((e) => e.event!))]
}

/** The entity matches every event of its name: an event name with no property filter and no first-time math. */
function isBareName(e: SeriesEntity): boolean {
  const filters = Array.isArray(e.properties) ? e.properties.length : (e.properties as { values: ReadonlyArray<unknown> }).values.length
  return e.kind === 'events' && e.event !== null && filters === 0 && !isFirstTimeMath(e.math)
}
