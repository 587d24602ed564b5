import { Schema } from 'effect'
import { DateTime, Uuid } from './common.js'

/** The parameters of an analysis: PostHog's legacy filter JSON, checked by core. */
export const AnalysisParams = Schema.Record(Schema.String, Schema.Unknown).annotate({
  identifier: 'AnalysisParams',
  description: "PostHog's legacy insight filter (events, actions, properties, date_from, date_to, breakdown, ...).",
})

/** What every analysis answers (interface 4.3 and 4.4). */
export const AnalysisResponse = Schema.Struct({
  result: Schema.Unknown,
  timezone: Schema.String,
  last_refresh: DateTime,
  is_cached: Schema.Boolean,
  sampling_factor: Schema.optionalKey(Schema.Number.annotate({ description: 'The sampling_factor the request sent, when not 1.' })),
  sampling_factor_applied: Schema.optionalKey(Schema.Literal(false).annotate({ description: 'With sampling_factor: false, every event was read and the counts are exact.' })),
}).annotate({ identifier: 'AnalysisResponse' })

/** A person behind a point of an analysis (the people URLs). */
export const AnalysisPerson = Schema.Struct({
  id: Uuid,
  distinct_ids: Schema.Array(Schema.String),
  properties: Schema.Record(Schema.String, Schema.Unknown),
  created_at: DateTime,
}).annotate({ identifier: 'AnalysisPerson' })
