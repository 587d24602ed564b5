import { Schema } from 'effect'
import { OrganizationId, UserId } from './ids.js'

const Email = Schema.String.pipe(
  Schema.check(Schema.isMaxLength(254), Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { message: 'expected an e-mail address' })),
)

export const User = Schema.Struct({
  id: UserId,
  uuid: Schema.String,
  distinctId: Schema.String,
  email: Schema.String,
  firstName: Schema.String,
  lastName: Schema.String,
  isEmailVerified: Schema.Boolean,
  createdAt: Schema.String,
})
export type User = typeof User.Type

export const CreateUserInput = Schema.Struct({
  email: Email,
  firstName: Schema.String.pipe(Schema.check(Schema.isMaxLength(150))),
  lastName: Schema.optional(Schema.String.pipe(Schema.check(Schema.isMaxLength(150)))),
  /** Organizations the user joins as a member. Default none. */
  organizationIds: Schema.optional(Schema.Array(OrganizationId)),
  /** Default false. */
  isEmailVerified: Schema.optional(Schema.Boolean),
})
export type CreateUserInput = typeof CreateUserInput.Type
