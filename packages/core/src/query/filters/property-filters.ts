import { Schema } from 'effect'
import { PropertyFilterType, PropertyOperator } from '../../model/property-filter.js'
import { decodeOrThrow } from '../../util/decode.js'

/** A filter value as PostHog sends it: one scalar, or a list meaning "any of" (numbers may come as strings). */
const Scalar = Schema.Union([Schema.String, Schema.Finite, Schema.Boolean])
export const PropertyFilterValue = Schema.Union([Scalar, Schema.Array(Scalar)])
export type PropertyFilterValue = typeof PropertyFilterValue.Type

/** One condition `{key, value, operator = exact, type = event}`, PostHog's shape. */
export const PropertyCondition = Schema.Struct({
  key: Schema.String,
  value: Schema.optional(Schema.NullOr(PropertyFilterValue)),
  operator: Schema.optional(Schema.NullOr(PropertyOperator)),
  type: Schema.optional(PropertyFilterType),
  group_type_index: Schema.optional(Schema.NullOr(Schema.Int)),
})
export type PropertyCondition = typeof PropertyCondition.Type

/** `{type: AND|OR, values}`, nested to any depth. */
export interface PropertyGroup {
  readonly type: 'AND' | 'OR'
  readonly values: ReadonlyArray<PropertyGroup | PropertyCondition>
}
export const PropertyGroup: Schema.Codec<PropertyGroup> = Schema.Struct({
  type: Schema.Literals(['AND', 'OR']),
  values: Schema.Array(Schema.Union([Schema.suspend(() => PropertyGroup), PropertyCondition])),
})

/** Both of PostHog's formats: a flat list (AND) or a group. */
export const PropertyFilters = Schema.Union([Schema.Array(PropertyCondition), PropertyGroup])
export type PropertyFilters = typeof PropertyFilters.Type

/** Decodes untrusted property filters, throwing a `ValidationError` naming each failing path. */
export const decodePropertyFilters = (input: unknown): PropertyFilters =>
  decodeOrThrow(PropertyFilters, input, 'invalid property filters', ['properties'])
