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
 */
export async function readSlotFills(db: Kysely<SightlineDatabase>, hooks: SqlHooks, projectId: number): Promise<ReadonlyArray<SlotFill>> {
  const slots = await db.selectFrom('property_slots').select(['key', 'type', 'slot']).where('project_id', '=', projectId).execute()
  return slots.length === 0 ? [] : slotFills(slots.map((s) => ({ key: s.key, type: s.type as PropertySlotType, slot: s.slot })), hooks)
}
