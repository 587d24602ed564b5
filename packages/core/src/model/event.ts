import { Schema } from 'effect'
import { Properties } from './json.js'

/** An event as stored. */
export interface StoredEvent {
  readonly uuid: string
  readonly event: string
  readonly distinctId: string
  /** ISO 8601 UTC with microseconds. */
  readonly timestamp: string
  readonly properties: Properties
  /** Group keys by group type index (index 0..4); null where the event has none. */
  readonly groups: ReadonlyArray<string | null>
  readonly sessionId: string | null
  /** PostHog's autocapture elements chain; '' when the event has none. */
  readonly elementsChain: string
}

export const ListEventsInput = Schema.Struct({
  event: Schema.optional(Schema.String),
  distinctId: Schema.optional(Schema.String),
  /** ISO 8601, exclusive. */
  after: Schema.optional(Schema.String),
  /** ISO 8601, exclusive. */
  before: Schema.optional(Schema.String),
  /** Default 100, at most 10,000. */
  limit: Schema.optional(Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: 10_000 })))),
})
export type ListEventsInput = typeof ListEventsInput.Type
