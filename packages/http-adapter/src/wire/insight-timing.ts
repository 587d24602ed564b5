import { Schema } from 'effect'
import { InsightWrite } from './insight.js'

const Ms = Schema.Finite.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0)))
const Text = Schema.String.pipe(Schema.check(Schema.isMaxLength(2000)))

/**
 * The body of `timing/`: what PostHog's app reports after showing an insight
 * or a dashboard (`captureTimeToSeeData`, frontend/src/lib/internalMetrics.ts),
 * or the interface's Insight writeable fields, which it lists as this
 * endpoint's body. Every field is optional; those of either kind that are sent
 * are validated, and unknown keys are kept for the host.
 */
export const InsightTiming = Schema.StructWithRest(
  Schema.Struct({
    ...InsightWrite.fields,
    time_to_see_data_ms: Schema.optional(Ms),
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

/**
 * The Insight fields (interface 2.3) that `cancel/` and `timing/` answer, so
 * that their answers are the Insight-shaped objects the interface lists: the
 * fields the analyses answer too, each with the type it has on an Insight. No
 * analysis result comes with these answers: `result` and `last_refresh` are
 * null, as on an Insight that computes nothing, and `is_cached` is false.
 */
export const NothingComputed = {
  result: Schema.Null.annotate({ description: 'Null: nothing is computed here.' }),
  last_refresh: Schema.Null,
  timezone: Schema.String.annotate({ description: "The project's time zone, as on its insights." }),
  is_cached: Schema.Literal(false),
}
export const nothingComputed = (timezone: string) => ({ result: null, last_refresh: null, timezone, is_cached: false as const })

/** `timing/`'s answer: Insight-shaped, and `success` (PostHog answers 201 with no body). */
export const InsightTimingResult = Schema.Struct({
  ...NothingComputed,
  success: Schema.Literal(true),
}).annotate({ identifier: 'InsightTimingResult' })
