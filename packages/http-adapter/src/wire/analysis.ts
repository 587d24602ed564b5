import { Schema } from 'effect'

/** The parameters of an analysis: PostHog's legacy filter JSON, checked by core. */
export const AnalysisParams = Schema.Record(Schema.String, Schema.Unknown).annotate({
  identifier: 'AnalysisParams',
  description: "PostHog's legacy insight filter (events, actions, properties, date_from, date_to, breakdown, ...).",
})
