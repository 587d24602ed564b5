import { sql } from 'kysely'
import type { EngineContext } from '../../context.js'
import { ValidationError } from '../../errors.js'
import type { CohortFilters } from '../../model/cohort.js'
import type { JsonObject } from '../../model/insight.js'
import { readActions } from '../actions/load-actions.js'
import { parseCohortCriteria, type CohortNode } from './cohort-criteria.js'
import { cohortIdsIn } from './cohort-ids.js'
import { cohortMembership } from './cohort-membership.js'
import { definitionCriteria } from './legacy-groups.js'
import { buildCatalog } from './load-cohorts.js'

const fail = (path: ReadonlyArray<string | number>, message: string): never => {
  throw new ValidationError([{ path, message }], { context: 'invalid cohort filters' })
}

/**
 * Checks a cohort's definition before it is saved as cohort `id` (0 for a new
 * one), throwing `ValidationError` at the failing path under `filters` (or
 * `groups`, when those are the criteria): what `definitionCriteria` refuses;
 * cohorts that are not the project's; actions that are not the project's or
 * are deleted; references that make a loop
 * (PostHog's "Cohorts cannot reference other cohorts in a loop."); and what
 * the SQL compiler refuses (bad property filters).
 */
export async function checkCohortDefinition(
  ctx: EngineContext,
  projectId: number,
  id: number,
  isStatic: boolean,
  filters: CohortFilters,
  groups: ReadonlyArray<JsonObject>,
): Promise<void> {
  if (isStatic) {
    // A static cohort's persons are stored: its groups are never read, as PostHog's.
    parseCohortCriteria(filters)
    return
  }
  const criteria = definitionCriteria(filters, groups)
  const definition = { id, name: null, isStatic, criteria }
  const catalog = await buildCatalog(ctx, projectId, [], new Map([[id, definition]]), ['filters'])
  const actionIds = collect(criteria).flatMap((n) => (n.kind === 'behavioral' ? [n.entity, ...(n.behavior.type === 'sequence' ? [n.behavior.then] : [])] : []))
  const liveActions = await readActions(ctx, projectId, actionIds.flatMap((e) => (e.type === 'actions' ? [e.actionId] : [])), { includeDeleted: false })
  for (const node of collect(criteria)) {
    if (node.kind === 'cohort' && !catalog.cohorts.has(node.cohortId)) {
      fail([...node.path, 'value'], `Cohort ${node.cohortId} does not exist in this project`)
    }
    if (node.kind !== 'behavioral') continue
    if (node.entity.type === 'actions' && !liveActions.has(node.entity.actionId)) fail([...node.path, 'key'], `Action ID ${node.entity.actionId} does not exist!`)
    const then = node.behavior.type === 'sequence' ? node.behavior.then : null
    if (then?.type === 'actions' && !liveActions.has(then.actionId)) fail([...node.path, 'seq_event'], `Action ID ${then.actionId} does not exist!`)
    const missing = node.eventFilters ? cohortIdsIn(node.eventFilters).find((c) => !catalog.cohorts.has(c)) : undefined
    if (missing !== undefined) fail([...node.path, 'event_filters'], `Cohort ${missing} does not exist in this project`)
  }
  cohortMembership(id, catalog, { personId: sql<string>`''`, projectId, now: ctx.clock(), hooks: ctx.adapter.sql })
}

/** Every node of a criteria tree, depth first. */
function collect(node: CohortNode): CohortNode[] {
  return node.kind === 'group' ? [node, ...node.values.flatMap(collect)] : [node]
}
