import type { Expression, SqlBool } from 'kysely'
import type { EngineContext } from '../../context.js'
import { ValidationError } from '../../errors.js'
import type { PropertyFilterSources } from '../filters/compile-property-filters.js'
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
  /** Extra filter sources for `eventScope({ extensions })`: cohort and HogQL filters where available. */
  readonly filterSources: Partial<Omit<PropertyFilterSources, 'event' | 'hooks'>>
}

/**
 * Loads what `references` name for `projectId`. Throws ValidationError naming
 * the path of an unknown action.
 */
export async function prepareQueryExtensions(_ctx: EngineContext, _projectId: number, references: QueryReferences): Promise<QueryExtensions> {
  const first = references.actions[0]
  // Actions land with the actions resource (issue 4); until then a query that names one is refused clearly.
  if (first) throw new ValidationError([{ path: first.path, message: `action ${first.id} does not exist in this project` }], { context: 'invalid query' })
  return {
    actionCondition: (id) => {
      throw new ValidationError([{ path: ['actions'], message: `action ${id} was not loaded` }], { context: 'invalid query' })
    },
    filterSources: {},
  }
}
