/**
 * The pool of `events` columns a project can promote its own properties into
 * (`sightline.properties.promote`): PostHog's materialized columns, per
 * project. PostHog adds a ClickHouse column per property for the whole
 * table; Sightline's tables serve many projects, so it keeps a fixed set of
 * slot columns and maps (project, key) to a slot in `property_slots`. Every
 * project has the whole pool: slot 3 of one project and slot 3 of another
 * hold different properties.
 *
 * The contract of a slot's column, for every event of its project while the
 * slot is `ready`: a `String` slot holds exactly `SqlHooks.jsonText(properties,
 * key)`, a `Numeric` slot `SqlHooks.textToDouble` of that; in other projects'
 * rows it holds anything. Queries read a slot only once it is `ready`.
 */
export const PROPERTY_SLOT_POOL = 8

/** What a slot holds: a property's text, or its numeric reading. */
export type PropertySlotType = 'String' | 'Numeric'

/**
 * `backfilling`: captures fill the slot, and the events stored before the
 * promotion are being filled in batches; queries still read the JSON.
 * `ready`: every event of the project holds its value; queries read the slot.
 */
export type PropertySlotState = 'backfilling' | 'ready'

const PREFIX: Record<PropertySlotType, string> = { String: 'ps_text_', Numeric: 'ps_num_' }

/** The slots' numbers, 1..PROPERTY_SLOT_POOL. */
export const SLOT_NUMBERS: ReadonlyArray<number> = Object.freeze(Array.from({ length: PROPERTY_SLOT_POOL }, (_, i) => i + 1))

/** The `events` column of slot `slot` (1..PROPERTY_SLOT_POOL) of `type`: a fixed identifier, never user text. */
export function slotColumn(type: PropertySlotType, slot: number): string {
  if (!(Number.isSafeInteger(slot) && slot >= 1 && slot <= PROPERTY_SLOT_POOL)) throw new RangeError(`no property slot ${slot}`)
  return `${PREFIX[type]}${slot}`
}

/** Every slot column of `type`, in slot order. */
export const slotColumns = (type: PropertySlotType): string[] => SLOT_NUMBERS.map((n) => slotColumn(type, n))
