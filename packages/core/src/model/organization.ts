import { Schema } from 'effect'
import { OrganizationId } from './ids.js'

export const Organization = Schema.Struct({
  id: OrganizationId,
  name: Schema.String,
  createdAt: Schema.String,
})
export type Organization = typeof Organization.Type

export const CreateOrganizationInput = Schema.Struct({
  name: Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(64))),
})
export type CreateOrganizationInput = typeof CreateOrganizationInput.Type
