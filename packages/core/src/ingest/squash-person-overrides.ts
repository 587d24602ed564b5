import { sql } from 'kysely'
import type { EngineContext } from '../context.js'
import { projectWrites, withWriteRetries } from '../db/write-retries.js'
import { chunk } from '../util/chunk.js'
import type { ChangedOverride } from '../db/person-row-changes.js'
import { tellPersonRows, tellsPersonRows } from './tell-person-rows.js'

/** Overrides folded into the events per call: bounds one write's work and how long it holds the project's write lock. */
export const SQUASH_BATCH = 5000

/** Rows per UPDATE: each one scans the project's events once where the database has no index for it (DuckDB). */
const ROWS_PER_UPDATE = 1000

/**
 * Folds person overrides into `events.person_id` (PostHog's squash of
 * `person_distinct_id_overrides`), then deletes them: at most `SQUASH_BATCH`
 * per call. Analyses answer the same before, during and after (they read
 * `coalesce(override, events.person_id)`); only the overrides they join get
 * fewer. One transaction under the project's write lock, so no capture of
 * this engine interleaves. An override changed meanwhile by another process
 * is not deleted (the delete matches the person read), so it still wins over
 * what was written. Resolves to the number of overrides folded.
 */
export async function squashPersonOverrides(ctx: EngineContext, projectId: number): Promise<number> {
  const record = tellsPersonRows(ctx)
  const { folded, deleted } = await withWriteRetries(ctx, projectWrites(projectId), 'squash person overrides', () =>
    ctx.db.transaction().execute(async (trx) => {
      const overrides = await trx
        .selectFrom('person_distinct_id_overrides')
        .select(['distinct_id', 'person_id'])
        .where('project_id', '=', projectId)
        .orderBy('distinct_id')
        .limit(SQUASH_BATCH)
        .execute()
      const deleted: ChangedOverride[] = []
      for (const part of chunk(overrides, ROWS_PER_UPDATE)) {
        const values = sql.join(part.map((o) => sql`(${o.distinct_id}, ${o.person_id})`))
        if (ctx.driver.foldPersonOverrides) await ctx.driver.foldPersonOverrides(trx, projectId, part)
        else
          await sql`update events set person_id = cast(v.person_id as uuid)
            from (values ${values}) as v(distinct_id, person_id)
            where events.project_id = ${projectId} and events.distinct_id = v.distinct_id`.execute(trx)
        const { rows } = await sql<{ distinct_id: string }>`delete from person_distinct_id_overrides as o
          using (values ${values}) as v(distinct_id, person_id)
          where o.project_id = ${projectId} and o.distinct_id = v.distinct_id and o.person_id = cast(v.person_id as uuid)${record ? sql` returning o.distinct_id` : sql``}`.execute(trx)
        if (rows.length > 0) deleted.push(...(await deletedOverrides(trx, projectId, part, rows.map((r) => r.distinct_id))))
      }
      return { folded: overrides.length, deleted }
    }),
  )
  await tellPersonRows(ctx, projectId, { persons: [], distinctIds: [], overrides: deleted, personless: [] })
  return folded
}

/**
 * The overrides of `ids` the squash deleted, at the version they were written
 * with: their distinct id's mapping version, which only a move (writing a new
 * override) bumps, so it still is that version (read after the delete, which
 * a concurrent move of these ids waits behind or makes match nothing).
 */
async function deletedOverrides(
  trx: EngineContext['db'],
  projectId: number,
  part: ReadonlyArray<{ distinct_id: string; person_id: string }>,
  ids: ReadonlyArray<string>,
): Promise<ChangedOverride[]> {
  const versions = new Map<string, number>()
  const rows = await trx.selectFrom('person_distinct_ids').select(['distinct_id', 'version']).where('project_id', '=', projectId).where('distinct_id', 'in', ids).execute()
  for (const r of rows) versions.set(r.distinct_id, Number(r.version))
  const personOf = new Map(part.map((o) => [o.distinct_id, o.person_id]))
  return ids.map((distinct_id) => ({ distinct_id, person_id: personOf.get(distinct_id)!, version: versions.get(distinct_id) ?? 0, deleted: true }))
}

/**
 * `squashPersonOverrides` until a pass folds less than a full batch: every
 * override of the project, one bounded write at a time (other writes of the
 * project may run between them). Stops with `ClosedError` when the engine closes.
 */
export async function squashAllPersonOverrides(ctx: EngineContext, projectId: number): Promise<number> {
  let total = 0
  for (;;) {
    ctx.assertOpen()
    const folded = await squashPersonOverrides(ctx, projectId)
    total += folded
    if (folded < SQUASH_BATCH) return total
  }
}
