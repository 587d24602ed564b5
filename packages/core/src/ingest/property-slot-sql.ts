import { sql, type Expression, type RawBuilder } from 'kysely'
import { slotColumn, type PropertySlotType } from '../db/property-slots.js'
import type { SlotFill, SqlHooks } from '../storage.js'

/** A promoted property's slot: which property, read how, into which column. */
export interface SlotAssignment {
  readonly key: string
  readonly type: PropertySlotType
  readonly slot: number
}

/**
 * Each slot's column and the value its contract names (property-slots.ts),
 * computed by the database from a row's `properties` with the very
 * expressions queries would read instead.
 */
export function slotFills(slots: ReadonlyArray<SlotAssignment>, hooks: SqlHooks): SlotFill[] {
  return slots.map((s) => ({
    column: slotColumn(s.type, s.slot),
    value: (properties: Expression<unknown>) => {
      const text = hooks.jsonText(properties, s.key)
      return s.type === 'Numeric' ? hooks.textToDouble(text) : text
    },
  }))
}

/** `column = value, ...` of `slotFills` for an UPDATE of `events` (the backfill). */
export function slotAssignments(slots: ReadonlyArray<SlotAssignment>, hooks: SqlHooks): RawBuilder<unknown> {
  return sql.join(
    slotFills(slots, hooks).map((f) => sql`${sql.id(f.column)} = ${f.value(sql.ref('properties'))}`),
    sql`, `,
  )
}
