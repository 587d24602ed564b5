import { Schema } from 'effect'

/** PostHog's property operators. */
export const PropertyOperator = Schema.Literals([
  'exact', 'is_not', 'icontains', 'not_icontains', 'regex', 'not_regex', 'gt', 'gte', 'lt', 'lte',
  'is_set', 'is_not_set', 'is_date_exact', 'is_date_before', 'is_date_after', 'between', 'not_between',
  'min', 'max', 'in', 'not_in',
])
export type PropertyOperator = typeof PropertyOperator.Type

/** Where a filtered property lives. */
export const PropertyFilterType = Schema.Literals(['event', 'person', 'group', 'cohort', 'element', 'session', 'hogql'])
export type PropertyFilterType = typeof PropertyFilterType.Type

/**
 * One property condition, in PostHog's shape: `{key, value, operator, type}`.
 * `operator` defaults to `exact` and `type` to `event`, as in PostHog.
 */
export const PropertyFilter = Schema.Struct({
  key: Schema.String,
  value: Schema.optional(Schema.Unknown),
  operator: Schema.optional(PropertyOperator),
  type: Schema.optional(PropertyFilterType),
  group_type_index: Schema.optional(Schema.NullOr(Schema.Int)),
})
export type PropertyFilter = typeof PropertyFilter.Type
