import { Schema } from 'effect'
import { Properties } from './json.js'

export const Person = Schema.Struct({
  id: Schema.Int,
  uuid: Schema.String,
  distinctIds: Schema.Array(Schema.String),
  properties: Properties,
  isIdentified: Schema.Boolean,
  createdAt: Schema.String,
})
export type Person = typeof Person.Type

export const DistinctId = Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(200)))

/**
 * Imports or updates a person. Every distinct id ends up on one person: ids
 * already on different persons are merged into the first id's person (a host
 * importing its users states the truth, so no identified-person guard applies).
 * `properties` are `$set` on the person.
 */
export const UpsertPersonInput = Schema.Struct({
  distinctIds: Schema.NonEmptyArray(DistinctId),
  properties: Schema.optional(Properties),
  /** ISO 8601; default: the clock's now for a new person, unchanged for an existing one. */
  createdAt: Schema.optional(Schema.String),
  /** Default true: a host's own users are identified. */
  isIdentified: Schema.optional(Schema.Boolean),
})
export type UpsertPersonInput = typeof UpsertPersonInput.Type
