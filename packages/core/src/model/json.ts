import { Schema } from 'effect'

const isPlainObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === 'object' && u !== null && !Array.isArray(u) && !(u instanceof Date)

/**
 * A JSON object with string keys (event, person and group properties). Checked
 * as an object only: its values are checked once, by the JSON walk of capture,
 * because per-key schema decoding dominated ingestion time.
 */
export const Properties = Schema.declare(isPlainObject, { expected: 'an object of properties' })
export type Properties = Record<string, unknown>
