import type { CaptureInput } from '@sightline/core'
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

/** The events of a payload: `{ batch: [...] }`, an array, or one event (`/engage/` makes it an `$identify`). */
export function eventsOf(data: unknown, engage: boolean): unknown[] {
  if (isObject(data) && !falsy(data.batch)) {
    if (!Array.isArray(data.batch)) throw invalidPayload(`Invalid payload: batch must be a list, received ${pythonType(data.batch)}!`)
    return data.batch
  }
  if (Array.isArray(data)) return data
  if (engage && isObject(data)) return [{ ...data, event: '$identify' }]
  return [data]
}

/**
 * One event as PostHog's capture and plugin server read it, turned into
 * core's `CaptureInput`, or null when PostHog drops it (an empty event name).
 * Lenient where PostHog is: distinct ids are stringified and cut to 200,
 * unparseable timestamps are dropped (the server clock decides), top-level
 * `$set` and `$set_once` are merged into the properties (top level wins).
 */
export function toCaptureInput(raw: unknown, sentAt: string | undefined): CaptureInput | null {
  if (falsy(raw)) throw invalidPayload('Invalid payload: some events are null')
  if (!isObject(raw)) throw invalidPayload(`Invalid payload: All events must be dictionaries not '${pythonType(raw)}'!`)
  if (!('event' in raw)) throw invalidPayload('Invalid payload: All events must have the event name field "event"!')

  const rawProperties = raw.properties
  if (!falsy(rawProperties) && !isObject(rawProperties)) {
    throw invalidPayload(`Invalid payload: Properties must be a JSON object, received ${pythonType(rawProperties)}!`)
  }
  const properties: Json = isObject(rawProperties) ? { ...rawProperties } : {}

  const distinct = '$distinct_id' in raw ? raw.$distinct_id : 'distinct_id' in properties ? properties.distinct_id : raw.distinct_id
  if (!('$distinct_id' in raw) && !('distinct_id' in properties) && !('distinct_id' in raw)) {
    throw invalidPayload('Invalid payload: All events must have the event field "distinct_id"!')
  }
  if (falsy(distinct)) throw invalidPayload('Invalid payload: Event field "distinct_id" should not be blank!')

  let uuid: string | undefined
  if (!falsy(raw.uuid)) {
    const normalised = pythonUuid(raw.uuid)
    if (normalised === null) throw invalidPayload('Invalid payload: Event field "uuid" is not a valid UUID!')
    // Python accepts UUIDs of any version; core keeps RFC 9562 ones. Others get a fresh id rather than a rejected batch.
    uuid = STRICT_UUID.test(normalised) ? normalised : undefined
  }

  if (falsy(raw.event)) return null
  const event = truncate(typeof raw.event === 'string' ? raw.event : JSON.stringify(raw.event), 200)

  for (const key of ['$set', '$set_once'] as const) {
    const top = raw[key]
    if (isObject(top)) properties[key] = { ...(isObject(properties[key]) ? properties[key] : {}), ...top }
  }

  const input: { -readonly [K in keyof CaptureInput]: CaptureInput[K] } = {
    event,
    distinctId: truncate(pythonStr(distinct), 200),
    properties,
  }
  if (uuid !== undefined) input.uuid = uuid
  if (typeof raw.timestamp === 'string' && isCoreTimestamp(raw.timestamp)) input.timestamp = raw.timestamp
  if (typeof raw.offset === 'number' && Number.isFinite(raw.offset)) input.offset = raw.offset
  if (sentAt !== undefined) input.sentAt = sentAt
  return input
}
