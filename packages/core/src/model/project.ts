import { Schema } from 'effect'
import { OrganizationId, ProjectId } from './ids.js'
import { PropertyFilter } from './property-filter.js'
import { TimeZone } from './timezone.js'

/**
 * A path cleaning rule (PostHog's `path_cleaning_filters`): path nodes that
 * match `regex` are replaced by `alias`, so `/users/123` and `/users/456`
 * become one node `/users/:id`. Applied by paths with `path_replacements`.
 */
export const PathCleaningFilter = Schema.Struct({
  alias: Schema.String.pipe(Schema.check(Schema.isMaxLength(1000))),
  regex: Schema.String.pipe(
    Schema.check(Schema.isMinLength(1), Schema.isMaxLength(1000)),
    // Checked as an ECMAScript pattern: the common subset of RE2 (DuckDB) and POSIX (Postgres) is what works on both.
    Schema.check(Schema.makeFilter((s: string) => isRegex(s) || `"${s}" is not a valid regular expression.`)),
  ),
})
export type PathCleaningFilter = typeof PathCleaningFilter.Type

function isRegex(source: string): boolean {
  try {
    new RegExp(source)
    return true
  } catch {
    return false
  }
}

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
  /** The project's path cleaning rules, in order; none by default. */
  pathCleaningFilters: Schema.Array(PathCleaningFilter),
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
  /** Default none. */
  pathCleaningFilters: Schema.optional(Schema.Array(PathCleaningFilter)),
})
export type CreateProjectInput = typeof CreateProjectInput.Type

export const UpdateProjectInput = Schema.Struct({
  name: Schema.optional(Name),
  timezone: Schema.optional(TimeZone),
  weekStartDay: Schema.optional(WeekStartDay),
  testAccountFilters: Schema.optional(Schema.Array(PropertyFilter)),
  pathCleaningFilters: Schema.optional(Schema.Array(PathCleaningFilter)),
})
export type UpdateProjectInput = typeof UpdateProjectInput.Type
