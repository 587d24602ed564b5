import type { BreakdownSpec } from '../breakdowns/breakdown-spec.js'
import type { PropertyFilters } from '../filters/property-filters.js'
import { eventScope, type EventScope } from '../scope/event-scope.js'
import type { FilterNeeds } from '../scope/filter-needs.js'
import type { QueryEnv } from './query-env.js'

export interface AnalysisScopeOptions {
  /** Inclusive, epoch microseconds; null reads every event of the project. */
  readonly range: { readonly fromMicros: number; readonly toMicros: number } | null
  readonly properties: PropertyFilters
  readonly filterTestAccounts: boolean
  /** What the analysis itself reads (entity filters, maths); added to, never replaced. */
  readonly needs: FilterNeeds
  /** The analysis' breakdowns: person and HogQL ones join persons, group ones their group. */
  readonly breakdowns?: ReadonlyArray<BreakdownSpec>
}

/**
 * `eventScope` for one analysis of `env`: its range, global and
 * test-account filters and extensions (cohorts, HogQL, sessions, dates),
 * with the joins its own needs, the loaded actions' step filters and its
 * breakdowns read. `options.needs` is updated in place.
 */
export function analysisScope(env: QueryEnv, options: AnalysisScopeOptions): EventScope {
  const needs = options.needs
  // Action steps with person or group filters need those joins too.
  if (env.extensions.needs.person) needs.person = true
  for (const g of env.extensions.needs.groups) needs.groups.add(g)
  for (const b of options.breakdowns ?? []) {
    if (b.type === 'person' || b.type === 'hogql') needs.person = true
    if (b.type === 'group' && b.groupTypeIndex !== null) needs.groups.add(b.groupTypeIndex)
  }
  return eventScope({
    project: env.project,
    hooks: env.hooks,
    range: options.range,
    properties: options.properties,
    filterTestAccounts: options.filterTestAccounts,
    needs,
    extensions: env.extensions.filterSources,
  })
}
