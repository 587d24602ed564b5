import type { CaptureInput } from '@sightline/core'
import type { HttpError } from '../errors.js'
import { invalidPayload } from './payload.js'
import { isCoreTimestamp } from './timestamp.js'

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
/** Python truthiness, which PostHog's capture tests with `not value`. */
const falsy = (v: unknown) =>
  v === undefined || v === null || v === false || v === 0 || v === '' || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0)
const pythonType = (v: unknown) =>
  Array.isArray(v) ? 'list' : v === null ? 'NoneType' : typeof v === 'string' ? 'str' : typeof v === 'boolean' ? 'bool' : typeof v === 'number' ? (Number.isInteger(v) ? 'int' : 'float') : 'dict'

/** Cuts to `max` UTF-16 units without splitting a surrogate pair (core counts units). */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text
  const cut = text.slice(0, max)
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut
}

/** Python's `str()` of a JSON value, as PostHog stringifies distinct ids. */
function pythonStr(v: unknown): string {
  if (typeof v === 'string') return v
  if (v === true) return 'True'
  if (v === false) return 'False'
  if (typeof v === 'number') return String(v)
  return JSON.stringify(v)
}

const STRICT_UUID = /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|[fF]{8}-[fF]{4}-[fF]{4}-[fF]{4}-[fF]{12})$/

/**
 * Python's `uuid.UUID(text)` forms (dashes optional, braces, `urn:uuid:`),
 * normalised to the dashed form; null when Python would refuse it.
 */
function pythonUuid(v: unknown): string | null {
  if (typeof v !== 'string') return null
  const hex = v.trim().replace(/^urn:uuid:/i, '').replace(/^\{(.*)\}$/, '$1').replaceAll('-', '')
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) return null
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`.toLowerCase()
}

/**
 * The events of a payload: `{ batch: [...] }`, an array, or one event
 * (`/engage/` makes it an `$identify`), with where each sits in the payload.
 */
export function eventsOf(data: unknown, engage: boolean): PayloadEvents {
  if (isObject(data) && !falsy(data.batch)) {
    if (!Array.isArray(data.batch)) throw invalidPayload(`Invalid payload: batch must be a list, received ${pythonType(data.batch)}!`, 'invalid_payload', 'batch')
    return { events: data.batch, list: 'batch' }
  }
  if (Array.isArray(data)) return { events: data, list: 'array' }
  if (engage && isObject(data)) return { events: [{ ...data, event: '$identify' }], list: null }
  return { events: [data], list: null }
}

export interface PayloadEvents {
  readonly events: ReadonlyArray<unknown>
  /** `batch` for `{ batch: [...] }`, `array` for a bare array, null for one event. */
  readonly list: 'batch' | 'array' | null
}

/**
 * A refusal of one event, in PostHog's words (`Invalid payload: ...`, code
 * `invalid_payload`). PostHog's `attr` is always null and its detail never
 * says which event; here `attr` is the path of the field in the payload
 * (`batch__3__event`, `3__distinct_id` for a bare array, `event` for a lone
 * event) and, in a list, the detail ends with the event's index.
 */
function refuse(detail: string, list: PayloadEvents['list'], index: number, field: ReadonlyArray<string> = []): HttpError {
  const path = [...(list === 'batch' ? ['batch', String(index)] : list === 'array' ? [String(index)] : []), ...field]
  const where = list === null ? '' : ` (the event at index ${index} of the batch)`
  return invalidPayload(`Invalid payload: ${detail}${where}`, 'invalid_payload', path.length > 0 ? path.join('__') : null)
}

/**
 * One event as PostHog's capture and plugin server read it, turned into
 * core's `CaptureInput`. Lenient where PostHog is: distinct ids are
 * stringified and cut to 200, unparseable timestamps are dropped (the server
 * clock decides), top-level `$set` and `$set_once` are merged into the
 * properties (top level wins). Strict where PostHog's capture is: an event
 * without a name (missing, null, "", false, 0) refuses the whole payload, as
 * the Rust capture does (`MissingEventName`; the older Python capture dropped
 * such events silently and answered `{"status": 1}`); so does a blank
 * distinct id, whitespace only included (PostHog stores "  ").
 */
export function toCaptureInput(raw: unknown, sentAt: string | undefined, list: PayloadEvents['list'] = null, index = 0): CaptureInput {
  if (falsy(raw)) throw refuse('some events are null', list, index)
  if (!isObject(raw)) throw refuse(`All events must be dictionaries not '${pythonType(raw)}'!`, list, index)
  if (!('event' in raw)) throw refuse('All events must have the event name field "event"!', list, index, ['event'])

  const rawProperties = raw.properties
  if (!falsy(rawProperties) && !isObject(rawProperties)) {
    throw refuse(`Properties must be a JSON object, received ${pythonType(rawProperties)}!`, list, index, ['properties'])
  }
  const properties: Json = isObject(rawProperties) ? { ...rawProperties } : {}

  const distinctField = '$distinct_id' in raw ? ['$distinct_id'] : 'distinct_id' in properties ? ['properties', 'distinct_id'] : ['distinct_id']
  if (!('$distinct_id' in raw) && !('distinct_id' in properties) && !('distinct_id' in raw)) {
    throw refuse('All events must have the event field "distinct_id"!', list, index, ['distinct_id'])
  }
  const distinct = '$distinct_id' in raw ? raw.$distinct_id : 'distinct_id' in properties ? properties.distinct_id : raw.distinct_id
  const distinctId = falsy(distinct) ? '' : truncate(pythonStr(distinct), 200)
  // Blank once cut to 200, as stored: "   ", or 200 spaces before the first other character.
  if (!/\S/.test(distinctId)) throw refuse('Event field "distinct_id" should not be blank!', list, index, distinctField)

  let uuid: string | undefined
  if (!falsy(raw.uuid)) {
    const normalised = pythonUuid(raw.uuid)
    if (normalised === null) throw refuse('Event field "uuid" is not a valid UUID!', list, index, ['uuid'])
    // Python accepts UUIDs of any version; core keeps RFC 9562 ones. Others get a fresh id rather than a rejected batch.
    uuid = STRICT_UUID.test(normalised) ? normalised : undefined
  }

  if (falsy(raw.event)) throw refuse('All events must have the event name field "event"!', list, index, ['event'])
  const event = truncate(typeof raw.event === 'string' ? raw.event : JSON.stringify(raw.event), 200)

  for (const key of ['$set', '$set_once'] as const) {
    const top = raw[key]
    if (isObject(top)) properties[key] = { ...(isObject(properties[key]) ? properties[key] : {}), ...top }
  }

  const input: { -readonly [K in keyof CaptureInput]: CaptureInput[K] } = { event, distinctId, properties }
  if (uuid !== undefined) input.uuid = uuid
  if (typeof raw.timestamp === 'string' && isCoreTimestamp(raw.timestamp)) input.timestamp = raw.timestamp
  if (typeof raw.offset === 'number' && Number.isFinite(raw.offset)) input.offset = raw.offset
  if (sentAt !== undefined) input.sentAt = sentAt
  return input
}
