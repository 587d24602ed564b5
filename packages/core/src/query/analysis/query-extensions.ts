import { sql, type Expression, type SqlBool } from 'kysely'
import type { EngineContext } from '../../context.js'
import { ValidationError } from '../../errors.js'
import { compileActionCondition } from '../actions/compile-action.js'
import { readActions } from '../actions/load-actions.js'
import { cohortFilterSource, cohortMembership, type CohortScope } from '../cohorts/cohort-membership.js'
import { loadCohorts, loadLiveCohorts, type CohortCatalog } from '../cohorts/load-cohorts.js'
import { compileHogqlCondition, loadHogqlParser, type HogqlScope } from '../hogql/index.js'
import type { PropertyFilterSources } from '../filters/compile-property-filters.js'
import { PERSON_ID, scopedEventNumber, scopedEventProperty, SESSION_ID } from '../scope/event-scope.js'
import type { QueryProject } from '../scope/query-project.js'
import { addFilterNeeds, noNeeds, type FilterNeeds } from '../scope/filter-needs.js'
import { sessionCondition } from '../sessions/session-condition.js'
import type { QuerySources } from '../scope/query-sources.js'

/** What a query references beyond events and properties, so it can be loaded before compiling. */
export interface QueryReferences {
  /** Action ids used by series, steps or exclusions, with where each was used (for error paths). */
  readonly actions: ReadonlyArray<{ readonly id: number; readonly path: ReadonlyArray<string | number> }>
}

/**
 * Compilers for the parts of a query that live outside the events table:
 * actions (loaded before compiling, since compilation is synchronous),
 * cohorts and HogQL. Build once per query with `prepareQueryExtensions`.
 */
export interface QueryExtensions {
  /** "The event matches action `id`" over the query's sources. */
  actionCondition(actionId: number, sources: QuerySources): Expression<SqlBool>
  /** "The event's person is in cohort `id`" (cohort breakdowns); ValidationError at `path` for no cohort of the project. */
  cohortCondition(cohortId: number, path: ReadonlyArray<string | number>): Expression<SqlBool>
  /** The cohort's name, for breakdown labels; null when it has none. */
  cohortName(cohortId: number): string | null
  /** A loaded action's stored name (series and step labels, as PostHog's); null when it was not loaded. */
  actionName(actionId: number): string | null
  /** Every cohort of the project, with the cohorts and actions they name. */
  readonly cohorts: CohortCatalog
  /** The joins the loaded actions' step filters read (person or group properties): add to the scope's needs. */
  readonly needs: FilterNeeds
  /** Extra filter sources for `eventScope({ extensions })`: cohort filters (and HogQL where available). */
  readonly filterSources: Partial<Omit<PropertyFilterSources, 'event' | 'hooks'>>
}

/**
 * Loads what a query can reference in `project`: the actions `references`
 * names (ValidationError at the path of an unknown or deleted one) and the
 * project's cohorts, with the cohorts and actions they name in turn
 * (cohorts are few; loading them all spares every analysis a walk of its
 * filters).
 */
export async function prepareQueryExtensions(ctx: EngineContext, project: QueryProject, references: QueryReferences): Promise<QueryExtensions> {
  const projectId = project.id
  // One read for every action the query names; an unknown or deleted one is refused at its first path.
  const actions = await readActions(ctx, projectId, [...new Set(references.actions.map((a) => a.id))], { includeDeleted: false })
  const missing = references.actions.find((a) => !actions.has(a.id))
  if (missing) throw new ValidationError([{ path: missing.path, message: `Action ID ${missing.id} does not exist!` }], { context: 'invalid query' })
  const zone = { timeZone: project.timezone, weekStartDay: project.weekStartDay }
  // A project read with no cohorts (most) spares the read.
  const catalog = project.hasCohorts === false ? await loadCohorts(ctx, projectId, [], zone) : await loadLiveCohorts(ctx, projectId, zone)
  const cohortScope: CohortScope = { personId: PERSON_ID, projectId, now: ctx.clock(), hooks: ctx.adapter.sql }
  await loadHogqlParser()
  const hogqlScope: HogqlScope = {
    hooks: ctx.adapter.sql,
    event: sql.ref('e.properties'),
    eventProperty: scopedEventProperty(ctx.adapter.sql, project.promoted),
    eventNumber: scopedEventNumber(ctx.adapter.sql, project.promoted),
    eventName: sql.ref('e.event'),
    timestamp: sql.ref('e.timestamp'),
    distinctId: sql.ref('e.distinct_id'),
    personId: PERSON_ID,
    // `filterNeeds` joins persons for every query with a hogql filter.
    person: sql.ref('p.properties'),
    elementsChain: sql.ref('e.elements_chain'),
    sessionId: SESSION_ID,
    groupKeys: Object.fromEntries([0, 1, 2, 3, 4].map((i) => [i, sql.ref(`e.group_${i}`)])),
    timezone: project.timezone,
    now: cohortScope.now,
  }
  const needs = noNeeds()
  for (const action of actions.values()) for (const step of action.steps) addFilterNeeds(needs, step.properties)
  return {
    actionCondition(id, sources) {
      const action = actions.get(id)
      if (!action) throw new ValidationError([{ path: ['actions'], message: `Action ID ${id} does not exist!` }], { context: 'invalid query' })
      return compileActionCondition(action, sources)
    },
    cohortCondition(id, path) {
      if (!catalog.cohorts.has(id)) throw new ValidationError([{ path, message: `Cohort ${id} does not exist in this project` }], { context: 'invalid query' })
      return cohortMembership(id, catalog, cohortScope)
    },
    cohortName: (id) => catalog.cohorts.get(id)?.name ?? null,
    actionName: (id) => actions.get(id)?.name ?? null,
    cohorts: catalog,
    needs,
    filterSources: {
      cohort: cohortFilterSource(catalog, cohortScope),
      hogql: (expression, path) => compileHogqlCondition(expression, hogqlScope, path),
      dates: { timeZone: project.timezone, now: cohortScope.now, weekStartDay: project.weekStartDay },
      session: (condition, path) => sessionCondition(condition, { projectId, sessionId: SESSION_ID, hooks: ctx.adapter.sql }, path),
    },
  }
}
