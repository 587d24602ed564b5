import type { EngineContext } from '../../context.js'
import { prepareQueryExtensions } from '../analysis/query-extensions.js'
import { resolveDateRange, type ResolvedDateRange } from '../dates/resolve-date-range.js'
import { earliestEvent } from '../scope/earliest-event.js'
import { loadQueryProject } from '../scope/query-project.js'
import type { QueryEnv } from '../analysis/query-env.js'
import { checkCleaningRule, type PathCleaningRule, type PathsRequest } from './paths-request.js'
import { funnelPathBounds, type FunnelPathBounds } from './funnel-paths.js'

/** What one paths query reads besides its events: the project, its extensions, the range and the cleaning rules. */
export interface PathsEnv {
  readonly env: QueryEnv
  readonly range: ResolvedDateRange
  /** The project's rules (with `path_replacements`), then the request's own. */
  readonly rules: ReadonlyArray<PathCleaningRule>
  /** With `funnel_paths`: the funnel's persons and the times bounding their paths; null otherwise. */
  readonly funnel: FunnelPathBounds | null
}

/**
 * Loads the project (NotFoundError when unknown) and resolves the range as
 * PostHog's paths runner does: a day interval, so `date_from` (default
 * `-7d`) starts at its day's midnight and `date_to` (default now) runs to
 * the end of its day, in the project's zone (reference §3, §14.1).
 */
export async function pathsEnv(ctx: EngineContext, projectId: number, request: PathsRequest): Promise<PathsEnv> {
  const project = await loadQueryProject(ctx, projectId)
  const extensions = await prepareQueryExtensions(ctx, project, { actions: [] })
  const now = ctx.clock()
  const range = await resolveDateRange(
    { dateFrom: request.dateFrom, dateTo: request.dateTo, explicitDate: request.explicitDate, interval: 'day' },
    { timezone: project.timezone, weekStartDay: project.weekStartDay, now, earliestEvent: earliestEvent(ctx, projectId) },
  )
  // Stored rules were checked when written; checked again so a rule no database reads alike is a 400, not a 500.
  const projectRules = request.pathReplacements ? project.pathCleaningFilters.map((r, i) => checkCleaningRule(r, ['path_cleaning_filters', i])) : []
  const funnel = request.funnelPaths === null ? null : await funnelPathBounds(ctx, projectId, request.funnelPaths)
  return { env: { project, hooks: ctx.adapter.sql, extensions, now }, range, rules: [...projectRules, ...request.localCleaningRules], funnel }
}
