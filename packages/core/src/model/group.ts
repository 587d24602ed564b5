import { Schema } from 'effect'
import { Properties } from './json.js'

/** PostHog allows five group types per project, indexes 0 to 4. */
export const GroupTypeIndex = Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 4 })))

export const Group = Schema.Struct({
  groupTypeIndex: Schema.Int,
  groupType: Schema.String,
  groupKey: Schema.String,
  properties: Properties,
  createdAt: Schema.String,
})
export type Group = typeof Group.Type

export const GroupType = Schema.Struct({
  groupType: Schema.String,
  groupTypeIndex: Schema.Int,
  nameSingular: Schema.NullOr(Schema.String),
  namePlural: Schema.NullOr(Schema.String),
})
export type GroupType = typeof GroupType.Type

const Key = Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(400)))

export const UpsertGroupInput = Schema.Struct({
  /** Default: the index already mapped to `groupType`, or the next free one. */
  groupTypeIndex: Schema.optional(GroupTypeIndex),
  groupType: Key,
  groupKey: Key,
  /** `$set` on the group. */
  properties: Schema.optional(Properties),
})
export type UpsertGroupInput = typeof UpsertGroupInput.Type
