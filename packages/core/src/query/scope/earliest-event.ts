import { sql } from 'kysely'
import type { EngineContext } from '../../context.js'
import { runStorage } from '../../db/run.js'
import { sqlCast } from '../../db/sql-cast.js'

// PostHog's EARLIEST_TIMESTAMP: earlier timestamps are clock errors, not the start of "all".
const EARLIEST_TIMESTAMP = '2015-01-01T00:00:00.000000Z'

/**
 * The project's earliest event after PostHog's EARLIEST_TIMESTAMP, or null
 * when it has none: where `date_from: "all"` starts (`resolveDateRange`'s
 * `earliestEvent`). Read only when called.
 */
export function earliestEvent(ctx: EngineContext, projectId: number): () => Promise<Date | null> {
  return async () => {
    const query = sql<{ t: string | null }>`select min(timestamp) as t from events where project_id = ${projectId} and timestamp > ${sqlCast(EARLIEST_TIMESTAMP, 'timestamptz')}`
    const [row] = (await runStorage('read earliest event', () => query.execute(ctx.db))).rows
    return row?.t ? new Date(row.t) : null
  }
}
