import { ValidationError, type ValidationIssue } from '../errors.js'
import type { CaptureInput } from '../model/capture-input.js'
import type { Properties } from '../model/json.js'
import { dateToMicros, parseTimestamp, type EpochMicros } from '../time/timestamp.js'
import { sanitizeJson, sanitizeText } from '../util/sanitize-text.js'
import { uuidv7 } from '../util/uuid.js'
import { resolveEventTimestamp } from './resolve-timestamp.js'

/** A decoded event with its final uuid and time. */
export interface PreparedEvent {
  readonly index: number
  readonly uuid: string
  readonly clientUuid: boolean
  readonly event: string
  readonly distinctId: string
  readonly micros: EpochMicros
  readonly timestampInFuture: boolean
  properties: Properties
}

const toMicros = (value: string | Date): EpochMicros | null =>
  typeof value === 'string' ? parseTimestamp(value) : Number.isNaN(value.getTime()) ? null : dateToMicros(value)

/**
 * Second validation pass, for what a schema cannot say: timestamps that parse
 * and properties that are JSON. Throws one `ValidationError` for the batch.
 */
export function prepareEvents(batch: ReadonlyArray<CaptureInput>, now: EpochMicros): PreparedEvent[] {
  const issues: ValidationIssue[] = []
  const prepared: PreparedEvent[] = []
  batch.forEach((input, index) => {
    const timestamp = input.timestamp === undefined ? undefined : toMicros(input.timestamp)
    const sentAt = input.sentAt === undefined ? undefined : toMicros(input.sentAt)
    if (timestamp === null) issues.push({ path: [index, 'timestamp'], message: `not an ISO 8601 date-time: ${JSON.stringify(input.timestamp)}` })
    if (sentAt === null) issues.push({ path: [index, 'sentAt'], message: `not an ISO 8601 date-time: ${JSON.stringify(input.sentAt)}` })
    const properties = input.properties ?? {}
    const jsonProblem = findNonJson(properties)
    if (jsonProblem) issues.push({ path: [index, 'properties', ...jsonProblem.path], message: jsonProblem.message })
    if (timestamp === null || sentAt === null || jsonProblem) return
    const resolved = resolveEventTimestamp(
      { timestamp, sentAt, offset: input.offset, ignoreSentAt: Boolean(properties.$ignore_sent_at) },
      now,
    )
    prepared.push({
      index,
      uuid: input.uuid?.toLowerCase() ?? uuidv7(Math.floor(resolved.micros / 1000)),
      clientUuid: input.uuid !== undefined,
      event: sanitizeText(input.event),
      distinctId: sanitizeText(input.distinctId),
      micros: resolved.micros,
      timestampInFuture: resolved.inFuture,
      properties: { ...sanitizeJson(properties) },
    })
  })
  if (issues.length > 0) throw new ValidationError(issues, { context: 'invalid capture batch' })
  return prepared
}

/**
 * The first value that JSON cannot hold (functions, bigint, NaN, cycles), with
 * its path. The path is built only on failure: this runs on every property of
 * every event.
 */
function findNonJson(value: unknown, seen = new Set<object>()): { path: Array<string | number>; message: string } | null {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'undefined': // dropped by JSON.stringify, as every PostHog SDK does
      return null
    case 'number':
      return Number.isFinite(value) ? null : { path: [], message: `${value} is not a JSON number` }
    case 'object': {
      if (value === null || value instanceof Date) return null // a Date is serialised as its ISO string
      if (seen.has(value)) return { path: [], message: 'circular reference' }
      seen.add(value)
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const problem = findNonJson(value[i], seen)
          if (problem) return (problem.path.unshift(i), problem)
        }
      } else {
        for (const key in value) {
          const problem = findNonJson((value as Record<string, unknown>)[key], seen)
          if (problem) return (problem.path.unshift(key), problem)
        }
      }
      seen.delete(value)
      return null
    }
    default:
      return { path: [], message: `a ${typeof value} is not a JSON value` }
  }
}
