import { Schema } from 'effect'

/** The answer to an accepted capture. */
export const CaptureResponse = Schema.Struct({ status: Schema.Literal(1) }).annotate({ identifier: 'CaptureResponse' })

const CaptureEvent = Schema.Struct({
  event: Schema.String,
  distinct_id: Schema.optionalKey(Schema.Unknown),
  properties: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown)),
  timestamp: Schema.optionalKey(Schema.String),
  uuid: Schema.optionalKey(Schema.String),
  $set: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown)),
  $set_once: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown)),
}).annotate({
  identifier: 'CaptureEvent',
  description: 'One event. The distinct id is `$distinct_id`, `properties.distinct_id` or `distinct_id`; the project token `api_key`, `token`, `$token` or `properties.token`.',
})

/**
 * What capture accepts, for documentation: one event, an array of events, or
 * `{ api_key, batch, sent_at }`, as JSON, gzip or base64 form data. Payloads
 * are read leniently by hand, as PostHog reads them, not decoded with this schema.
 */
export const CapturePayload = Schema.Union([
  CaptureEvent,
  Schema.Array(CaptureEvent),
  Schema.Struct({ api_key: Schema.String, batch: Schema.Array(CaptureEvent), sent_at: Schema.optionalKey(Schema.String) }),
]).annotate({ identifier: 'CapturePayload' })
