import { Schema } from 'effect'
import { DateTime, Uuid } from './common.js'

/** The parameters of an analysis: PostHog's legacy filter JSON, checked by core. */
export const AnalysisParams = Schema.Record(Schema.String, Schema.Unknown).annotate({
  identifier: 'AnalysisParams',
  description: "PostHog's legacy insight filter (events, actions, properties, date_from, date_to, breakdown, ...).",
})

/** A person behind a point of an analysis (the people URLs). */
export const AnalysisPerson = Schema.Struct({
  id: Uuid,
  distinct_ids: Schema.Array(Schema.String),
  properties: Schema.Record(Schema.String, Schema.Unknown),
  created_at: DateTime,
}).annotate({ identifier: 'AnalysisPerson' })
