import { Schema } from 'effect'

/** PostHog's property operators (core's list, on the wire). */
export const PropertyOperator = Schema.Literals([
  'exact', 'is_not', 'icontains', 'not_icontains', 'regex', 'not_regex', 'gt', 'gte', 'lt', 'lte',
  'is_set', 'is_not_set', 'is_date_exact', 'is_date_before', 'is_date_after', 'between', 'not_between',
  'min', 'max', 'in', 'not_in',
])

/** One property condition: `{ key, value, operator, type }` (as test account filters store it). */
export const PropertyFilter = Schema.Struct({
  key: Schema.String,
  value: Schema.optionalKey(Schema.Unknown),
  operator: Schema.optionalKey(PropertyOperator),
  type: Schema.optionalKey(Schema.Literals(['event', 'person', 'group', 'cohort', 'element', 'session', 'hogql'])),
  group_type_index: Schema.optionalKey(Schema.NullOr(Schema.Int)),
}).annotate({ identifier: 'PropertyFilter' })
