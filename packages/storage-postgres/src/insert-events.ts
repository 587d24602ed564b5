import { sql, type Kysely } from 'kysely'
import type { EventRow, SightlineDatabase } from '@sightline/core/storage'
import { chunk } from './chunk.js'

/** Rows per statement: each column travels as one array parameter, so this bounds message size, not parameter count. */
const ROWS_PER_STATEMENT = 5000

/**
 * Bulk insert with one array parameter per column (`unnest`), so a statement
 * of thousands of rows has thirteen bound parameters. `ON CONFLICT DO NOTHING`
 * skips uuids another process stored meanwhile.
 */
export async function insertEvents(db: Kysely<SightlineDatabase>, rows: ReadonlyArray<EventRow>): Promise<number> {
  let inserted = 0
  for (const part of chunk(rows, ROWS_PER_STATEMENT)) {
    const col = <K extends keyof EventRow>(key: K) => part.map((r) => r[key])
    const result = await sql`
      insert into events (uuid, project_id, event, distinct_id, timestamp, properties, group_0, group_1, group_2, group_3, group_4, session_id, inserted_at)
      select * from unnest(
        ${col('uuid')}::uuid[], ${col('project_id')}::integer[], ${col('event')}::text[], ${col('distinct_id')}::text[],
        ${col('timestamp')}::timestamptz[], ${col('properties')}::jsonb[],
        ${col('group_0')}::text[], ${col('group_1')}::text[], ${col('group_2')}::text[], ${col('group_3')}::text[], ${col('group_4')}::text[],
        ${col('session_id')}::text[], ${col('inserted_at')}::timestamptz[]
      )
      on conflict (project_id, uuid) do nothing`.execute(db)
    inserted += Number(result.numAffectedRows ?? 0n)
  }
  return inserted
}
