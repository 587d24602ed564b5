import { Schema } from 'effect'

const Text = Schema.optional(Schema.NullOr(Schema.String))
const Flag = Schema.optional(Schema.NullOr(Schema.Boolean))
const Int = Schema.optional(Schema.NullOr(Schema.Int))

/** The scalar keys of a legacy funnel request (steps, exclusions, breakdown and properties have their own readers). */
export const FunnelFields = Schema.Struct({
  funnel_order_type: Text,
  funnel_viz_type: Text,
  display: Text,
  funnel_window_interval: Int,
  funnel_window_interval_type: Text,
  funnel_window_interval_unit: Text,
  funnel_window_days: Int,
  funnel_from_step: Int,
  funnel_to_step: Int,
  aggregation_group_type_index: Int,
  funnel_aggregate_by_hogql: Text,
  filter_test_accounts: Flag,
  bin_count: Int,
  interval: Text,
  date_from: Text,
  date_to: Text,
  explicit_date: Flag,
})
export type FunnelFieldsInput = typeof FunnelFields.Encoded
