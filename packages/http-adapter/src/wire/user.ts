import { Schema } from 'effect'
import type { Organization as CoreOrganization, User as CoreUser } from '@sightline/core'
import { DateTime, Uuid } from './common.js'
import { OrganizationBasic } from './organization.js'

/** `GET /api/users/@me/`: the key's user and the organizations it belongs to. */
export const Me = Schema.Struct({
  id: Schema.Int,
  uuid: Uuid,
  distinct_id: Schema.String,
  first_name: Schema.String,
  last_name: Schema.String,
  email: Schema.String.annotate({ format: 'email' }),
  is_email_verified: Schema.Boolean,
  date_joined: DateTime,
  organizations: Schema.Array(OrganizationBasic),
}).annotate({ identifier: 'User' })

export const meToWire = (u: CoreUser, organizations: ReadonlyArray<CoreOrganization>): typeof Me.Type => ({
  id: u.id,
  uuid: u.uuid,
  distinct_id: u.distinctId,
  first_name: u.firstName,
  last_name: u.lastName,
  email: u.email,
  is_email_verified: u.isEmailVerified,
  date_joined: u.createdAt,
  organizations: organizations.map((o) => ({ id: o.id, name: o.name })),
})
