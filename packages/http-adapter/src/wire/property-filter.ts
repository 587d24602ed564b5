import { Schema } from 'effect'
import { PropertyFilterType, PropertyOperator } from '@sightline/core'

/** One property condition: `{ key, value, operator, type }` (as test account filters store it); core's lists, on the wire. */
export const PropertyFilter = Schema.Struct({
  key: Schema.String,
  value: Schema.optionalKey(Schema.Unknown),
  operator: Schema.optionalKey(PropertyOperator),
  type: Schema.optionalKey(PropertyFilterType),
  group_type_index: Schema.optionalKey(Schema.NullOr(Schema.Int)),
}).annotate({ identifier: 'PropertyFilter' })
