import type { EngineContext } from '../../context.js'
import { prepareQueryExtensions } from '../analysis/query-extensions.js'
import { earliestEvent } from '../scope/earliest-event.js'
import { loadQueryProject } from '../scope/query-project.js'
import type { QueryEnv } from '../analysis/query-env.js'
import type { RetentionRequest } from './retention-request.js'
import { retentionWindow, type RetentionWindow } from './retention-window.js'

/**
 * The project, dialect, actions and cohorts of one retention request, and its
 * window. NotFoundError for an unknown project; ValidationError (at
 * `target_entity.id` / `returning_entity.id`) for an unknown action.
 */
export async function retentionEnv(ctx: EngineContext, projectId: number, request: RetentionRequest): Promise<{ env: QueryEnv; window: RetentionWindow }> {
  const project = await loadQueryProject(ctx, projectId)
  const actions = (
    [
      [request.target, 'target_entity'],
      [request.returning, 'returning_entity'],
    ] as const
  )
    .filter(([e]) => e.kind === 'actions')
    .map(([e, field]) => ({ id: e.actionId!, path: [field, 'id'] }))
  const extensions = await prepareQueryExtensions(ctx, project, { actions })
  const env: QueryEnv = { project, hooks: ctx.adapter.sql, extensions, now: ctx.clock() }
  const window = await retentionWindow(request, {
    timeZone: project.timezone,
    weekStartDay: project.weekStartDay,
    now: env.now,
    earliestEvent: earliestEvent(ctx, projectId),
  })
  return { env, window }
}
