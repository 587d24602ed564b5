import { Schema } from 'effect'
import { JsonObject, UserSummary } from './insight.js'

/**
 * One criterion of a dynamic cohort, in PostHog's shape:
 * - `{type: 'person', key, value, operator, negation}`: a person property filter;
 * - `{type: 'behavioral', value, key, event_type: 'events' (key = event name,
 *   the default) | 'actions' (key = action id), negation, ...}` where `value`
 *   is one of PostHog's behaviors: `performed_event` (time_value,
 *   time_interval, or explicit_datetime and optionally explicit_datetime_to;
 *   event_filters), `performed_event_multiple`
 *   (the same with operator gte/gt/lte/lt/eq and operator_value),
 *   `performed_event_first_time` (time_value, time_interval),
 *   `stopped_performing_event` and `restarted_performing_event` (time_value,
 *   time_interval and the more recent seq_time_value, seq_time_interval),
 *   `performed_event_regularly` (operator, operator_value per time_value
 *   time_interval period, in min_periods of the last total_periods) and
 *   `performed_event_sequence` (then seq_event of seq_event_type within
 *   seq_time_value seq_time_interval, both in time_value time_interval);
 * - `{type: 'cohort', value: cohortId, negation}`: the person is (not) in that cohort.
 * Only the structure is decoded here: each field is checked, with its path,
 * when the cohort is saved or read (see `parseCohortCriteria`).
 */
export const CohortCriterion = Schema.Struct({
  type: Schema.String,
  key: Schema.optional(Schema.Unknown),
  value: Schema.optional(Schema.Unknown),
  operator: Schema.optional(Schema.Unknown),
  negation: Schema.optional(Schema.Unknown),
  event_type: Schema.optional(Schema.Unknown),
  time_value: Schema.optional(Schema.Unknown),
  time_interval: Schema.optional(Schema.Unknown),
  operator_value: Schema.optional(Schema.Unknown),
  event_filters: Schema.optional(Schema.Unknown),
  explicit_datetime: Schema.optional(Schema.Unknown),
  explicit_datetime_to: Schema.optional(Schema.Unknown),
  seq_event: Schema.optional(Schema.Unknown),
  seq_event_type: Schema.optional(Schema.Unknown),
  seq_time_value: Schema.optional(Schema.Unknown),
  seq_time_interval: Schema.optional(Schema.Unknown),
  min_periods: Schema.optional(Schema.Unknown),
  total_periods: Schema.optional(Schema.Unknown),
})
export type CohortCriterion = typeof CohortCriterion.Type

/** `{type: AND|OR, values}` of criteria and groups, nested to any depth (`type` is checked with the criteria). */
export interface CohortCriteriaGroup {
  readonly type: string
  readonly values: ReadonlyArray<CohortCriteriaGroup | CohortCriterion>
}
export const CohortCriteriaGroup: Schema.Codec<CohortCriteriaGroup> = Schema.Struct({
  type: Schema.String,
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
  /** PostHog's legacy `groups`: the criteria when `filters` has none (see `legacyGroupsCriteria`). */
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
  /** Legacy criteria, evaluated when `filters` has none, as PostHog's `Cohort.properties`. Default none. */
  groups: Schema.optional(Schema.Array(JsonObject)),
  /** Default `{properties: {type: 'AND', values: []}}`, which every person of the project meets. */
  filters: Schema.optional(CohortFilters),
  /** Default false. */
  isStatic: Schema.optional(Schema.Boolean),
  /** Static cohorts: persons to add, by distinct id (PostHog's CSV upload); unknown ids are skipped. */
  distinctIds: Schema.optional(PersonRefs),
  /** Static cohorts: persons to add, by person uuid; unknown ones are skipped. */
  personIds: Schema.optional(PersonRefs),
  /**
   * Static cohorts, on create: PostHog's ActorsQuery of persons (`{kind:
   * 'ActorsQuery', properties?, fixedProperties?, search?}`), run once; the
   * persons it lists are added. Not kept. Default none. See `parseActorsQuery`.
   */
  query: Schema.optional(Schema.NullOr(Schema.Unknown)),
}

export const CreateCohortInput = Schema.Struct(CohortFields)
export type CreateCohortInput = typeof CreateCohortInput.Type

/** Changes to a cohort; `deleted: true` soft-deletes it, `false` restores it. Listed persons are added. */
export const UpdateCohortInput = Schema.Struct({ ...CohortFields, deleted: Schema.optional(Schema.Boolean) })
export type UpdateCohortInput = typeof UpdateCohortInput.Type
