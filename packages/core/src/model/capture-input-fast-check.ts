import { isNotBlank, type CaptureInput } from './capture-input.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const KNOWN_KEYS = new Set(['event', 'distinctId', 'timestamp', 'properties', 'uuid', 'sentAt', 'offset'])

const isName = (v: unknown): v is string => typeof v === 'string' && v.length >= 1 && v.length <= 200
const isTime = (v: unknown) => v === undefined || typeof v === 'string' || (v instanceof Date && !Number.isNaN(v.getTime()))
const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date)

/**
 * A hand-written test of the common case that accepts only what the
 * `CaptureInput` schema accepts (a property test holds the two together).
 * Capture decodes with the schema only when this says no, so a valid batch
 * does not pay for per-event schema decoding, and an invalid one still gets
 * the schema's full error report.
 */
export function isPlainCaptureInput(u: unknown): u is CaptureInput {
  if (!isObject(u)) return false
  const e = u as Record<string, unknown>
  for (const key in e) if (!KNOWN_KEYS.has(key)) return false
  return (
    isName(e.event) &&
    isName(e.distinctId) &&
    isNotBlank(e.distinctId) &&
    isTime(e.timestamp) &&
    isTime(e.sentAt) &&
    (e.properties === undefined || isObject(e.properties)) &&
    (e.uuid === undefined || (typeof e.uuid === 'string' && UUID.test(e.uuid))) &&
    (e.offset === undefined || (typeof e.offset === 'number' && Number.isFinite(e.offset)))
  )
}
