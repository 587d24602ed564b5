import { Schema } from 'effect'
import { DistinctId } from './person.js'
import { Properties } from './json.js'

const Timestamp = Schema.Union([Schema.String, Schema.Date])

/** Not only whitespace (what `String.prototype.trim` removes): a blank id would be one person for every client that sends it. */
export const isNotBlank = (s: string): boolean => /\S/.test(s)

/**
 * One event as a host captures it. PostHog semantics: `$set`, `$set_once`,
 * `$unset`, `$groups` and the identity events live in `properties`.
 */
export const CaptureInput = Schema.Struct({
  event: Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(200))),
  /** 1 to 200 characters, not all whitespace. */
  distinctId: DistinctId.pipe(Schema.check(Schema.makeFilter((s: string) => isNotBlank(s) || 'expected a distinct id that is not blank (whitespace only)'))),
  /** ISO 8601 (microseconds kept) or a Date. Default: the clock's now. */
  timestamp: Schema.optional(Timestamp),
  properties: Schema.optional(Properties),
  /** Client-side id; an event whose uuid is already stored is skipped. Default: a new UUIDv7. */
  uuid: Schema.optional(Schema.String.pipe(Schema.check(Schema.isUUID()))),
  /** When the client sent the batch; corrects client clock skew as PostHog does. */
  sentAt: Schema.optional(Timestamp),
  /** Milliseconds before sending that the event happened (PostHog's `offset`). */
  offset: Schema.optional(Schema.Finite),
})
export type CaptureInput = typeof CaptureInput.Type

/** A batch is validated whole: one bad event rejects it and nothing is stored. */
export const CaptureBatch = Schema.Array(CaptureInput)

export interface CaptureResult {
  /** Events written. */
  readonly stored: number
  /** Events skipped because their uuid was already stored (or repeated in the batch). */
  readonly duplicates: number
  /** Events stored with a caveat, or dropped as PostHog drops them. */
  readonly warnings: ReadonlyArray<IngestionWarning>
}

/** Something PostHog would report as an ingestion warning; the batch was still stored. */
export interface IngestionWarning {
  /** Index of the event in the batch. */
  readonly index: number
  /** PostHog's warning type, e.g. `cannot_merge_already_identified`. */
  readonly type: string
  readonly detail: string
}
