import { Schema } from 'effect'
import { PathCleaningFilter as CorePathCleaningFilter, isTimeZone, type Project as CoreProject } from '@sightline/core'
import { DateTime, Uuid } from './common.js'
import { PropertyFilter } from './property-filter.js'

const Name = Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(200)))
const TimeZone = Schema.String.pipe(
  Schema.check(Schema.makeFilter((s: string) => isTimeZone(s) || `"${s}" is not a valid choice.`)),
).annotate({ description: 'An IANA time-zone name.' })
/** PostHog's path cleaning rule: path nodes matching `regex` become `alias` (core's schema). */
const PathCleaningFilter = CorePathCleaningFilter.annotate({ identifier: 'PathCleaningFilter' })
const WeekStartDay = Schema.Literals([0, 1]).annotate({ description: '0 = Sunday, 1 = Monday.' })

/** A project (PostHog's team): the fields Sightline keeps. */
export const Project = Schema.Struct({
  id: Schema.Int,
  uuid: Uuid,
  organization: Uuid,
  project_id: Schema.Int,
  api_token: Schema.String.annotate({ description: 'The public token clients put in capture payloads.' }),
  name: Schema.String,
  timezone: Schema.String,
  week_start_day: WeekStartDay,
  test_account_filters: Schema.Array(PropertyFilter),
  path_cleaning_filters: Schema.Array(PathCleaningFilter),
  created_at: DateTime,
  updated_at: DateTime,
}).annotate({ identifier: 'Project' })

/** POST body. `organization` defaults to the caller's first organization. */
export const ProjectCreate = Schema.Struct({
  name: Name,
  organization: Schema.optionalKey(Uuid),
  timezone: Schema.optionalKey(TimeZone),
  week_start_day: Schema.optionalKey(WeekStartDay),
  test_account_filters: Schema.optionalKey(Schema.Array(PropertyFilter)),
  path_cleaning_filters: Schema.optionalKey(Schema.Array(PathCleaningFilter)),
}).annotate({ identifier: 'ProjectCreateRequest' })

/** PATCH body: the writeable fields; read-only and unknown fields are ignored. */
export const PatchedProject = Schema.Struct({
  name: Schema.optionalKey(Name),
  timezone: Schema.optionalKey(TimeZone),
  week_start_day: Schema.optionalKey(WeekStartDay),
  test_account_filters: Schema.optionalKey(Schema.Array(PropertyFilter)),
  path_cleaning_filters: Schema.optionalKey(Schema.Array(PathCleaningFilter)),
}).annotate({ identifier: 'PatchedProjectRequest' })

export const projectToWire = (p: CoreProject): typeof Project.Type => ({
  id: p.id,
  uuid: p.uuid,
  organization: p.organizationId,
  project_id: p.id,
  api_token: p.apiToken,
  name: p.name,
  timezone: p.timezone,
  week_start_day: p.weekStartDay,
  test_account_filters: p.testAccountFilters,
  path_cleaning_filters: p.pathCleaningFilters,
  created_at: p.createdAt,
  updated_at: p.updatedAt,
})
