import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { NotFoundError } from '../errors.js'

/** Throws `NotFoundError` unless the project exists. */
export async function requireProject(ctx: EngineContext, projectId: number): Promise<void> {
  if (ctx.knownProjects.has(projectId)) return
  if (!Number.isSafeInteger(projectId)) throw new NotFoundError('project', projectId)
  const row = await runStorage('find project', () =>
    ctx.db.selectFrom('projects').select('id').where('id', '=', projectId).executeTakeFirst(),
  )
  if (!row) throw new NotFoundError('project', projectId)
  ctx.knownProjects.add(projectId)
}
