import { sql, type Kysely } from 'kysely'
import type { SightlineDatabase } from '../db/tables.js'
import type { PropertySlotType } from '../db/property-slots.js'
import type { SqlHooks } from '../storage.js'
import { chunk } from '../util/chunk.js'
import { slotAssignments } from './property-slot-sql.js'

/**
 * Fills the project's promoted-property slots of the events a capture just
 * stored (`uuids`, all stored at `insertedAt`), in the capture's transaction:
 * every slot, backfilling or ready, so that no event stored after a
 * promotion needs the backfill. Costs one read of `property_slots` per
 * batch; the UPDATE runs only for projects that promoted something.
 *
 * `inserted_at` lets DuckDB skip row groups by their min/max; the uuids let
 * Postgres use its `(project_id, uuid)` index. Rows of the same
 * `inserted_at` outside the batch would only be recomputed to the value they
 * hold.
 */
export async function fillPropertySlots(
  db: Kysely<SightlineDatabase>,
  hooks: SqlHooks,
  projectId: number,
  insertedAt: string,
  uuids: ReadonlyArray<string>,
): Promise<void> {
  if (uuids.length === 0) return
  const slots = await db.selectFrom('property_slots').select(['key', 'type', 'slot']).where('project_id', '=', projectId).execute()
  if (slots.length === 0) return
  const set = slotAssignments(
    slots.map((s) => ({ key: s.key, type: s.type as PropertySlotType, slot: s.slot })),
    hooks,
  )
  for (const part of chunk([...uuids], 1000)) {
    await sql`update events set ${set} where project_id = ${projectId} and inserted_at = cast(${insertedAt} as timestamptz) and uuid in (${sql.join(part)})`.execute(db)
  }
}
