import { Schema } from 'effect'

const Ms = Schema.Finite.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0)))
const Text = Schema.String.pipe(Schema.check(Schema.isMaxLength(2000)))

/**
 * What PostHog's app reports after showing an insight or a dashboard
 * (`captureTimeToSeeData`, frontend/src/lib/internalMetrics.ts). Only the
 * time is required; unknown keys are kept for the host.
 */
export const InsightTiming = Schema.StructWithRest(
  Schema.Struct({
    time_to_see_data_ms: Ms,
    type: Schema.optional(Schema.Literals(['insight_load', 'dashboard_load'])),
    context: Schema.optional(Schema.Literals(['insight', 'dashboard'])),
    status: Schema.optional(Schema.Literals(['success', 'failure', 'cancelled'])),
    query_id: Schema.optional(Text),
    dashboard_query_id: Schema.optional(Text),
    insight: Schema.optional(Text),
    action: Schema.optional(Text),
    api_url: Schema.optional(Text),
    api_response_bytes: Schema.optional(Ms),
    insights_fetched: Schema.optional(Ms),
    insights_fetched_cached: Schema.optional(Ms),
    min_last_refresh: Schema.optional(Schema.NullOr(Text)),
    max_last_refresh: Schema.optional(Schema.NullOr(Text)),
    is_primary_interaction: Schema.optional(Schema.Boolean),
    session_id: Schema.optional(Text),
    current_url: Schema.optional(Text),
  }),
  [Schema.Record(Schema.String, Schema.Unknown)],
).annotate({ identifier: 'InsightTiming' })
export type InsightTiming = typeof InsightTiming.Type
