import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { PROPERTY_SLOT_POOL, SLOT_NUMBERS, type PropertySlotState, type PropertySlotType } from '../db/property-slots.js'
import { projectWrites, withWriteRetries } from '../db/write-retries.js'
import { ConflictError, NotFoundError, ValidationError } from '../errors.js'
import { backfillPropertySlot, backfillPropertySlotBatch, BACKFILL_BATCH } from '../ingest/backfill-property-slot.js'
import { dateToMicros, formatTimestamp } from '../time/timestamp.js'
import { requireProject } from './require-project.js'

/** A project's promoted property, as `sightline.properties.list` shows it. */
export interface PromotedProperty {
  readonly key: string
  /** `String`: queries read its text from the slot; `Numeric`: its numeric reading (sums, percentiles, numeric filters). */
  readonly type: PropertySlotType
  /** 1..`PROPERTY_SLOT_POOL` within the type. */
  readonly slot: number
  /** `backfilling`: queries still read the JSON; `ready`: they read the slot. */
  readonly state: PropertySlotState
}

/** Options of `sightline.properties.promote`. */
export interface PromoteOptions {
  /** Default: `Numeric` when the project's event property definition says so, else `String`. */
  readonly type?: PropertySlotType
  /**
   * Fill the events stored before the promotion in the background, in
   * batches under the project's write lock (default true). With false the
   * slot stays `backfilling` until `sightline.properties.backfill` runs.
   */
  readonly background?: boolean
}

/** Options of `sightline.properties.backfill`. */
export interface BackfillOptions {
  /** Events per transaction. Default `BACKFILL_BATCH` (20,000). */
  readonly batchSize?: number
  /** Batches per slot before returning; default: until every slot is ready. */
  readonly maxBatches?: number
}

const TYPES: ReadonlyArray<PropertySlotType> = ['String', 'Numeric']
/** Longer keys are refused: nothing real is this long, and the key is bound into every filling statement. */
const MAX_KEY_LENGTH = 400

/**
 * Per-project promotion of event properties into columns of `events`
 * (property-slots.ts): PostHog's materialized columns, chosen per project.
 * Answers are the same whether a property is promoted or not; promoted ones
 * are read faster. A library call for operators: PostHog has no HTTP route for it.
 */
export function propertiesService(ctx: EngineContext) {
  const read = (projectId: number) =>
    runStorage('list promoted properties', () =>
      ctx.db.selectFrom('property_slots').select(['key', 'type', 'slot', 'state', 'generation']).where('project_id', '=', projectId).orderBy('type').orderBy('slot').execute(),
    )
  const shown = (r: { key: string; type: string; slot: number; state: string }): PromotedProperty => ({
    key: r.key,
    type: r.type as PropertySlotType,
    slot: r.slot,
    state: r.state as PropertySlotState,
  })

  return {
    /**
     * Gives event property `key` a slot column of its type: captures fill it
     * from now on, and the events stored before are filled in the background;
     * queries read it once that is done (`state: 'ready'`). Safe to call
     * twice: a key already promoted as the type keeps its slot. Throws
     * `ConflictError` when the project's `PROPERTY_SLOT_POOL` slots of the
     * type are taken, and when the storage has no slots (`propertySlots`).
     */
    async promote(projectId: number, key: string, options: PromoteOptions = {}): Promise<PromotedProperty> {
      ctx.assertOpen()
      if (!ctx.adapter.capabilities.propertySlots) {
        throw new ConflictError(`the ${ctx.adapter.name} storage cannot promote properties (its events are not updated in place)`, 'key')
      }
      if (typeof key !== 'string' || key === '' || key.length > MAX_KEY_LENGTH) {
        throw new ValidationError([{ path: ['key'], message: `a property key is 1 to ${MAX_KEY_LENGTH} characters` }], { context: 'invalid promotion' })
      }
      if (options.type !== undefined && !TYPES.includes(options.type)) {
        throw new ValidationError([{ path: ['type'], message: `type is String or Numeric, got ${JSON.stringify(options.type)}` }], { context: 'invalid promotion' })
      }
      await requireProject(ctx, projectId)
      const promoted = await withWriteRetries(ctx, projectWrites(projectId), 'promote a property', () =>
        ctx.db.transaction().execute(async (trx) => {
          // Waits for other processes' captures of the project, and holds back theirs until this commits (readSlotFills).
          if (ctx.adapter.capabilities.rowLocks) await trx.selectFrom('projects').select('id').where('id', '=', projectId).forUpdate().execute()
          const type = options.type ?? (await definedType(trx, projectId, key))
          const taken = await trx.selectFrom('property_slots').select(['key', 'slot', 'state', 'generation']).where('project_id', '=', projectId).where('type', '=', type).execute()
          const same = taken.find((t) => t.key === key)
          if (same) return { key, type, slot: same.slot, state: same.state as PropertySlotState, generation: same.generation, fresh: false }
          const slot = SLOT_NUMBERS.find((n) => !taken.some((t) => t.slot === n))
          if (slot === undefined) {
            throw new ConflictError(
              `project ${projectId} has promoted ${PROPERTY_SLOT_POOL} ${type} properties, the most a project can; demote one first (${taken.map((t) => JSON.stringify(t.key)).join(', ')})`,
              'key',
            )
          }
          // The backfill covers the events stored now; later ones are filled by their capture.
          // In microseconds, as stored: a Date's milliseconds would leave the last events of the range out.
          const latest = await sql<{ t: unknown }>`select max(${ctx.adapter.sql.epochMicros(sql.ref('timestamp'))}) as t from events where project_id = ${projectId}`.execute(trx)
          const t = latest.rows[0]?.t
          const to = t === null || t === undefined ? null : Number(t)
          const generation = randomUUID()
          await trx
            .insertInto('property_slots')
            .values({
              project_id: projectId,
              type,
              slot,
              key,
              state: to === null ? 'ready' : 'backfilling',
              generation,
              backfill_to_us: to,
              backfilled_through_us: null,
              created_at: formatTimestamp(dateToMicros(ctx.clock())),
            })
            .execute()
          return { key, type, slot, state: (to === null ? 'ready' : 'backfilling') as PropertySlotState, generation, fresh: true }
        }),
      )
      if (promoted.fresh && promoted.state === 'backfilling' && options.background !== false) {
        // Not awaited: each batch queues behind the project's writes (so `close` waits for the one running); a failed
        // batch leaves the slot backfilling, which reads stay correct with, and `backfill` resumes it.
        backfillPropertySlot(ctx, { projectId, type: promoted.type, slot: promoted.slot, generation: promoted.generation }).catch(() => {})
      }
      return shown(promoted)
    },

    /** The project's promoted properties, by type then slot (after the automatic promotions under way). */
    async list(projectId: number): Promise<PromotedProperty[]> {
      ctx.assertOpen()
      await requireProject(ctx, projectId)
      await ctx.numberPromoter?.settled(projectId)
      return (await read(projectId)).map(shown)
    },

    /**
     * Takes property `key`'s slot of `type` back: queries read the JSON again
     * at once, and the slot is free for another property (its old values are
     * overwritten by the next promotion's backfill before anything reads them).
     * Throws `NotFoundError` when the key is not promoted as that type.
     */
    async demote(projectId: number, key: string, options: { readonly type: PropertySlotType }): Promise<void> {
      ctx.assertOpen()
      await requireProject(ctx, projectId)
      const deleted = await withWriteRetries(ctx, projectWrites(projectId), 'demote a property', () =>
        ctx.db.deleteFrom('property_slots').where('project_id', '=', projectId).where('type', '=', options.type).where('key', '=', key).executeTakeFirst(),
      )
      if (Number(deleted.numDeletedRows) === 0) throw new NotFoundError(`promoted ${options.type} property`, key)
    },

    /**
     * Runs the backfill of the project's `backfilling` slots now, in batches
     * (see `BackfillOptions`): to finish one the engine closed during, or one
     * promoted with `background: false`, or one the engine promoted by itself
     * (`properties.promoteNumbersAfter`: those under way are waited for
     * first). Resolves to the promoted properties after.
     */
    async backfill(projectId: number, options: BackfillOptions = {}): Promise<PromotedProperty[]> {
      ctx.assertOpen()
      await requireProject(ctx, projectId)
      await ctx.numberPromoter?.settled(projectId)
      const batchSize = options.batchSize ?? BACKFILL_BATCH
      for (const r of await read(projectId)) {
        if (r.state !== 'backfilling') continue
        const target = { projectId, type: r.type as PropertySlotType, slot: r.slot, generation: r.generation }
        for (let n = 0; options.maxBatches === undefined || n < options.maxBatches; n++) {
          if (await backfillPropertySlotBatch(ctx, target, batchSize)) break
        }
      }
      return (await read(projectId)).map(shown)
    },
  }
}

/**
 * The automatic promotion (`NumberPromoter`): event property `key` of project
 * `projectId` to a `Numeric` slot when its definition says `Numeric`; nothing
 * otherwise. Throws what `promote` throws (a `ConflictError` when no slot is free).
 */
export async function promoteIfNumeric(ctx: EngineContext, projectId: number, key: string): Promise<void> {
  if (!ctx.adapter.capabilities.propertySlots) return
  if ((await definedType(ctx.db, projectId, key)) !== 'Numeric') return
  await propertiesService(ctx).promote(projectId, key, { type: 'Numeric' })
}

/** The type a promotion takes by default: `Numeric` when the project's event property definition says so. */
async function definedType(db: EngineContext['db'], projectId: number, key: string): Promise<PropertySlotType> {
  const row = await db.selectFrom('property_definitions').select('property_type').where('project_id', '=', projectId).where('type', '=', 1).where('name', '=', key).executeTakeFirst()
  return row?.property_type === 'Numeric' ? 'Numeric' : 'String'
}
