import { sql, type Expression, type RawBuilder } from 'kysely'
import { slotColumn, type PropertySlotType } from '../db/property-slots.js'
import type { SqlHooks } from '../storage.js'

/** A promoted property's slot: which property, read how, into which column. */
export interface SlotAssignment {
  readonly key: string
  readonly type: PropertySlotType
  readonly slot: number
}

/**
 * `column = value` for each slot: the value its contract names
 * (property-slots.ts), computed by the database from the row's `properties`
 * with the very expressions queries would read instead.
 */
export function slotAssignments(slots: ReadonlyArray<SlotAssignment>, hooks: SqlHooks): RawBuilder<unknown> {
  return sql.join(
    slots.map((s) => sql`${sql.id(slotColumn(s.type, s.slot))} = ${slotValue(s, hooks)}`),
    sql`, `,
  )
}

function slotValue(s: SlotAssignment, hooks: SqlHooks): Expression<unknown> {
  const text = hooks.jsonText(sql.ref('properties'), s.key)
  return s.type === 'Numeric' ? hooks.textToDouble(text) : text
}
