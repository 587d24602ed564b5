import { Schema } from 'effect'

/** A JSON object with string keys (event, person and group properties). */
export const Properties = Schema.Record(Schema.String, Schema.Unknown)
export type Properties = Record<string, unknown>
