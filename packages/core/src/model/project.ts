import { Schema } from 'effect'
import { OrganizationId, ProjectId } from './ids.js'
import { PropertyFilter } from './property-filter.js'
import { TimeZone } from './timezone.js'

/** 0 = weeks start on Sunday, 1 = on Monday (PostHog's `week_start_day`). */
export const WeekStartDay = Schema.Literals([0, 1])
export type WeekStartDay = typeof WeekStartDay.Type

export const Project = Schema.Struct({
  id: ProjectId,
  uuid: Schema.String,
  organizationId: OrganizationId,
  name: Schema.String,
  /** The public token clients put in capture payloads (`api_key`). Not a secret. */
  apiToken: Schema.String,
  timezone: Schema.String,
  weekStartDay: WeekStartDay,
  testAccountFilters: Schema.Array(PropertyFilter),
  createdAt: Schema.String,
  updatedAt: Schema.String,
})
export type Project = typeof Project.Type

const Name = Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(200)))

export const CreateProjectInput = Schema.Struct({
  organizationId: OrganizationId,
  name: Name,
  /** Default `UTC`. */
  timezone: Schema.optional(TimeZone),
  /** Default 0 (Sunday), as PostHog. */
  weekStartDay: Schema.optional(WeekStartDay),
  /** Default none. */
  testAccountFilters: Schema.optional(Schema.Array(PropertyFilter)),
})
export type CreateProjectInput = typeof CreateProjectInput.Type

export const UpdateProjectInput = Schema.Struct({
  name: Schema.optional(Name),
  timezone: Schema.optional(TimeZone),
  weekStartDay: Schema.optional(WeekStartDay),
  testAccountFilters: Schema.optional(Schema.Array(PropertyFilter)),
})
export type UpdateProjectInput = typeof UpdateProjectInput.Type
