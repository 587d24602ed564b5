import { Schema } from 'effect'
import type { EngineContext } from '../../context.js'
import { runStorage } from '../../db/run.js'
import { ActionStep, type ActionDefinition } from '../../model/action.js'
import { decodeOrThrow } from '../../util/decode.js'

const MAX_ID = 2_147_483_647
const StoredSteps = Schema.Array(ActionStep)

/**
 * The project's actions with these ids that exist; soft-deleted ones too
 * when asked (a cohort keeps reading an action deleted after it was saved,
 * as PostHog's cohort queries do).
 */
export async function readActions(
  ctx: EngineContext,
  projectId: number,
  ids: ReadonlyArray<number>,
  options: { readonly includeDeleted: boolean },
): Promise<Map<number, ActionDefinition>> {
  const wanted = [...new Set(ids)].filter((id) => Number.isInteger(id) && id >= 1 && id <= MAX_ID)
  if (wanted.length === 0 || !Number.isSafeInteger(projectId)) return new Map()
  const rows = await runStorage('read actions', () => {
    let query = ctx.db.selectFrom('actions').select(['id', 'name', 'steps']).where('project_id', '=', projectId).where('id', 'in', wanted)
    if (!options.includeDeleted) query = query.where('deleted', '=', false)
    return query.execute()
  })
  return new Map(rows.map((r) => [r.id, { id: r.id, name: r.name, steps: decodeOrThrow(StoredSteps, r.steps, 'stored action steps') }]))
}
