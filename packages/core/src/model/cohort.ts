import { Schema } from 'effect'
import { PropertyFilters } from '../query/filters/property-filters.js'
import { JsonObject, UserSummary } from './insight.js'

const Count = Schema.Union([Schema.Int, Schema.String])

/**
 * One criterion of a dynamic cohort, in PostHog's shape:
 * - `{type: 'person', key, value, operator}`: a person property filter;
 * - `{type: 'behavioral', value: 'performed_event' | 'performed_event_multiple',
 *   key, event_type: 'events' (key = event name, the default) | 'actions'
 *   (key = action id), time_value, time_interval, operator, operator_value,
 *   event_filters, negation}`: the person performed the event (at least once,
 *   or a number of times compared by `operator` gte/gt/lte/lt/eq to
 *   `operator_value`) in the `time_value` `time_interval`s before now;
 * - `{type: 'cohort', value: cohortId, negation}`: the person is (not) in that cohort.
 * Values are checked beyond their types when the cohort is saved or read.
 */
export const CohortCriterion = Schema.Struct({
  type: Schema.Literals(['person', 'behavioral', 'cohort']),
  key: Schema.optional(Schema.Union([Schema.String, Schema.Finite])),
  value: Schema.optional(Schema.Unknown),
  operator: Schema.optional(Schema.NullOr(Schema.String)),
  negation: Schema.optional(Schema.NullOr(Schema.Boolean)),
  event_type: Schema.optional(Schema.NullOr(Schema.Literals(['events', 'actions']))),
  time_value: Schema.optional(Schema.NullOr(Count)),
  time_interval: Schema.optional(Schema.NullOr(Schema.Literals(['minute', 'hour', 'day', 'week', 'month', 'year']))),
  operator_value: Schema.optional(Schema.NullOr(Count)),
  event_filters: Schema.optional(Schema.NullOr(PropertyFilters)),
  explicit_datetime: Schema.optional(Schema.NullOr(Schema.String)),
})
export type CohortCriterion = typeof CohortCriterion.Type

/** `{type: AND|OR, values}` of criteria and groups, nested to any depth. */
export interface CohortCriteriaGroup {
  readonly type: 'AND' | 'OR'
  readonly values: ReadonlyArray<CohortCriteriaGroup | CohortCriterion>
}
export const CohortCriteriaGroup: Schema.Codec<CohortCriteriaGroup> = Schema.Struct({
  type: Schema.Literals(['AND', 'OR']),
  values: Schema.Array(Schema.Union([Schema.suspend(() => CohortCriteriaGroup), CohortCriterion])),
})

/** A dynamic cohort's `filters`: `{properties: {type, values}}`. */
export const CohortFilters = Schema.Struct({ properties: CohortCriteriaGroup })
export type CohortFilters = typeof CohortFilters.Type

/** A set of persons (PostHog's Cohort): a stored list (static) or criteria evaluated when read (dynamic). */
export const Cohort = Schema.Struct({
  id: Schema.Int,
  projectId: Schema.Int,
  name: Schema.NullOr(Schema.String),
  description: Schema.String,
  /** PostHog's legacy `groups`: stored and echoed, never evaluated. */
  groups: Schema.Array(JsonObject),
  filters: CohortFilters,
  isStatic: Schema.Boolean,
  /** The number of persons in the cohort, computed when the cohort is read. */
  count: Schema.Int,
  createdAt: Schema.String,
  createdBy: Schema.NullOr(UserSummary),
  /** When `count` was computed: the time of the read. */
  lastCalculation: Schema.String,
  deleted: Schema.Boolean,
})
export type Cohort = typeof Cohort.Type

const PersonRefs = Schema.Array(Schema.String.pipe(Schema.check(Schema.isMaxLength(400)))).pipe(Schema.check(Schema.isMaxLength(100_000)))

const CohortFields = {
  /** Default null. At most 400 characters. */
  name: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.check(Schema.isMaxLength(400))))),
  /** Default ''. */
  description: Schema.optional(Schema.String.pipe(Schema.check(Schema.isMaxLength(1000)))),
  /** Legacy criteria, echoed only. Default none. */
  groups: Schema.optional(Schema.Array(JsonObject)),
  /** Default `{properties: {type: 'AND', values: []}}`, which every person of the project meets. */
  filters: Schema.optional(CohortFilters),
  /** Default false. */
  isStatic: Schema.optional(Schema.Boolean),
  /** Static cohorts: persons to add, by distinct id (PostHog's CSV upload); unknown ids are skipped. */
  distinctIds: Schema.optional(PersonRefs),
  /** Static cohorts: persons to add, by person uuid; unknown ones are skipped. */
  personIds: Schema.optional(PersonRefs),
}

export const CreateCohortInput = Schema.Struct(CohortFields)
export type CreateCohortInput = typeof CreateCohortInput.Type

/** Changes to a cohort; `deleted: true` soft-deletes it, `false` restores it. Listed persons are added. */
export const UpdateCohortInput = Schema.Struct({ ...CohortFields, deleted: Schema.optional(Schema.Boolean) })
export type UpdateCohortInput = typeof UpdateCohortInput.Type
