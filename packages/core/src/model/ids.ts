import { Schema } from 'effect'

/** Integer id of a project (PostHog's team id). */
export const ProjectId = Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0)), Schema.brand('ProjectId'))
export type ProjectId = typeof ProjectId.Type

/** UUID of an organization. */
export const OrganizationId = Schema.String.pipe(Schema.check(Schema.isUUID()), Schema.brand('OrganizationId'))
export type OrganizationId = typeof OrganizationId.Type

/** Integer id of a user. */
export const UserId = Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0)), Schema.brand('UserId'))
export type UserId = typeof UserId.Type
