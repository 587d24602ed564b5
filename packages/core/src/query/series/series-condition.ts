import { sql, type Expression, type SqlBool } from 'kysely'
import { compilePropertyFilters } from '../filters/compile-property-filters.js'
import type { PropertyFilters, PropertyGroup } from '../filters/property-filters.js'
import type { QuerySources } from '../scope/query-sources.js'
import type { SeriesEntity } from './series.js'

/** Compiles "the event matches action `id`" (the action was loaded before compiling). */
export type ActionConditionOf = (actionId: number) => Expression<SqlBool>

/**
 * Whether a scoped event matches an entity: its event name (any for "all
 * events") or its action, and the entity's own property filters.
 */
export function seriesCondition(entity: SeriesEntity, sources: QuerySources, actionCondition: ActionConditionOf): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = []
  if (entity.kind === 'actions') parts.push(actionCondition(entity.actionId!))
  else if (entity.event !== null) parts.push(sql<SqlBool>`${sources.eventName} = ${entity.event}`)
  if (isNonEmpty(entity.properties)) parts.push(compilePropertyFilters(entity.properties, sources))
  return parts.length === 0 ? sql<SqlBool>`true` : sql<SqlBool>`(${sql.join(parts, sql` and `)})`
}

const isNonEmpty = (f: PropertyFilters): boolean => (isGroup(f) ? f.values.length > 0 : f.length > 0)
const isGroup = (f: PropertyFilters): f is PropertyGroup => !Array.isArray(f)
