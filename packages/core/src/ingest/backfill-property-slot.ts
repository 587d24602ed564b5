import { sql } from 'kysely'
import type { EngineContext } from '../context.js'
import { ClosedError } from '../errors.js'
import type { PropertySlotType } from '../db/property-slots.js'
import { projectWrites, withWriteRetries } from '../db/write-retries.js'
import { formatTimestamp } from '../time/timestamp.js'
import { slotAssignments } from './property-slot-sql.js'

/** Events per backfill transaction: each holds the project's write lock, so captures wait at most one batch. */
export const BACKFILL_BATCH = 20_000

/** One promotion being backfilled: its slot, and the generation that identifies this promotion of it. */
export interface BackfillTarget {
  readonly projectId: number
  readonly type: PropertySlotType
  readonly slot: number
  readonly generation: string
}

const at = (micros: number) => sql.lit(formatTimestamp(micros))

/**
 * Fills the slot for the next `batchSize` or so of the project's events
 * stored before the promotion, in event time order (events of one time go in
 * one batch), in one transaction under the project's write lock. The batch
 * that reaches `backfill_to_us` marks the slot `ready` in the same
 * transaction, so queries switch to the column exactly when every event
 * holds its value. Captures in between fill the slot themselves
 * (`readSlotFills`). Resolves to true when the slot is ready, or no
 * longer this promotion's (demoted, or promoted again).
 */
export async function backfillPropertySlotBatch(ctx: EngineContext, target: BackfillTarget, batchSize = BACKFILL_BATCH): Promise<boolean> {
  if (!(Number.isSafeInteger(batchSize) && batchSize >= 1)) throw new RangeError(`a backfill batch is at least 1 event, got ${batchSize}`)
  return withWriteRetries(ctx, projectWrites(target.projectId), 'backfill a promoted property', () =>
    ctx.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('property_slots')
        .selectAll()
        .where('project_id', '=', target.projectId)
        .where('type', '=', target.type)
        .where('slot', '=', target.slot)
        .executeTakeFirst()
      if (!row || row.generation !== target.generation) return true
      if (row.state === 'ready') return true
      const to = row.backfill_to_us === null ? null : Number(row.backfill_to_us)
      const from = row.backfilled_through_us === null ? null : Number(row.backfilled_through_us)
      let through = to
      if (to !== null) {
        const after = from === null ? sql`true` : sql`timestamp > cast(${at(from)} as timestamptz)`
        const range = sql`project_id = ${target.projectId} and ${after} and timestamp <= cast(${at(to)} as timestamptz)`
        // The time of the batch's last event; its ties go in the same batch, so the next one starts after it.
        const bound = await sql<{ t: unknown }>`select ${ctx.adapter.sql.epochMicros(sql.ref('timestamp'))} as t from events where ${range} order by timestamp limit 1 offset ${sql.lit(batchSize - 1)}`.execute(trx)
        through = bound.rows[0] ? Number(bound.rows[0].t) : to
        const set = slotAssignments([{ key: row.key, type: target.type, slot: target.slot }], ctx.adapter.sql)
        await sql`update events set ${set} where ${range} and timestamp <= cast(${at(through)} as timestamptz)`.execute(trx)
      }
      const done = through === to
      await trx
        .updateTable('property_slots')
        .set({ backfilled_through_us: through, state: done ? 'ready' : 'backfilling' })
        .where('project_id', '=', target.projectId)
        .where('type', '=', target.type)
        .where('slot', '=', target.slot)
        .execute()
      return done
    }),
  )
}

/**
 * Runs `backfillPropertySlotBatch` until the slot is ready, one batch per
 * turn of the project's write lock, stopping early when the engine closes
 * (the slot stays `backfilling`: `sightline.properties.backfill` resumes it).
 */
export async function backfillPropertySlot(ctx: EngineContext, target: BackfillTarget, batchSize = BACKFILL_BATCH): Promise<void> {
  for (;;) {
    try {
      ctx.assertOpen()
    } catch (error) {
      if (error instanceof ClosedError) return
      throw error
    }
    if (await backfillPropertySlotBatch(ctx, target, batchSize)) return
  }
}
