import type { Kysely } from 'kysely'
import type { SightlineDatabase } from '../db/tables.js'
import type { PropertySlotType } from '../db/property-slots.js'
import type { SlotFill, SqlHooks } from '../storage.js'
import { slotFills } from './property-slot-sql.js'

/**
 * The promoted-property slots a capture of `projectId` fills as it inserts
 * (`StorageDriver.insertEvents`): every slot of the project, backfilling or
 * ready, so that no event stored after a promotion needs the backfill. One
 * read of `property_slots` per batch, in the capture's transaction.
 *
 * With `rowLocks` (Postgres, where other processes capture too) the read
 * first takes the project's row in share mode, which a promotion takes for
 * update: a capture that read no slot commits before a promotion reads the
 * latest stored event, and one that starts after a promotion waits for its
 * commit and then sees the slot (each statement of READ COMMITTED sees the
 * latest commits). Without it, another process's capture could read the
 * slots before a promotion commits and store its events after, leaving them
 * unfilled and past the backfill's range.
 */
export async function readSlotFills(db: Kysely<SightlineDatabase>, hooks: SqlHooks, projectId: number, rowLocks: boolean): Promise<ReadonlyArray<SlotFill>> {
  if (rowLocks) await db.selectFrom('projects').select('id').where('id', '=', projectId).forShare().execute()
  const slots = await db.selectFrom('property_slots').select(['key', 'type', 'slot']).where('project_id', '=', projectId).execute()
  return slots.length === 0 ? [] : slotFills(slots.map((s) => ({ key: s.key, type: s.type as PropertySlotType, slot: s.slot })), hooks)
}
