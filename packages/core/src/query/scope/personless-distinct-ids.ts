import { sql } from 'kysely'
import type { EngineContext } from '../../context.js'
import { runStorage } from '../../db/run.js'
import { PERSON_OVERRIDE_JOIN, PERSON_UUID, personlessKey } from './event-scope.js'

/** A personless distinct id behind a `PERSON_KEY`, and the time of its first event (as the driver reads it). */
export interface PersonlessDistinctId {
  readonly distinctId: string
  readonly firstSeen: string
}

/**
 * The distinct ids that `keys` (`PERSON_KEY`s no person has) stand for: the
 * personless distinct ids of the project whose `personlessKey` is one of
 * them. Actor lists show such a person as its distinct id. One pass over the
 * project's personless events, made only when a page holds keys no person
 * row answered.
 */
export async function personlessDistinctIds(ctx: EngineContext, projectId: number, keys: ReadonlyArray<string>): Promise<Map<string, PersonlessDistinctId>> {
  const found = new Map<string, PersonlessDistinctId>()
  if (keys.length === 0) return found
  const key = sql<string>`cast(${personlessKey(sql.ref('e.distinct_id'))} as varchar)`
  const rows = await runStorage('read personless distinct ids', () =>
    sql<{ d: string; k: string; t: string }>`select e.distinct_id as d, ${key} as k, min(e.timestamp) as t
      from events as e ${PERSON_OVERRIDE_JOIN}
      where e.project_id = ${projectId} and ${PERSON_UUID} is null and ${ctx.adapter.sql.textInList(key, keys)}
      group by e.distinct_id`.execute(ctx.db),
  )
  for (const r of rows.rows) found.set(r.k, { distinctId: r.d, firstSeen: r.t })
  return found
}
