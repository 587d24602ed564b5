import { RefValidationError as ValidationError } from '../shared/ref-dates.js'

/** Small readers for legacy filter values, which arrive as JSON or as query-string text. */

export const invalid = (field: string, message: string): ValidationError => new ValidationError(field, message)

/** Thrown for parameters the reference does not model (the implementation may still support them). */
export const notModelled = (what: string): Error => new Error(`funnel reference: ${what} is not modelled`)

/** A JSON list or object sent as text (GET query strings) is read as JSON. */
export function jsonish(value: unknown, field: string): unknown {
  if (typeof value !== 'string') return value
  const text = value.trim()
  if (!text.startsWith('[') && !text.startsWith('{')) return value
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw invalid(field, 'not valid JSON')
  }
}

/** An integer given as a number or as its decimal text; undefined when absent (undefined, null or ''). */
export function optionalInt(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : Number.NaN
  if (!Number.isSafeInteger(n)) throw invalid(field, `expected an integer, got ${JSON.stringify(value)}`)
  return n
}

/** PostHog reads booleans from JSON or from `"true"`/`"false"` query text. */
export const truthy = (value: unknown): boolean => value === true || value === 'true' || value === 'True' || value === 1

export const optionalString = (value: unknown, field: string): string | null => {
  if (value === undefined || value === null) return null
  if (typeof value !== 'string') throw invalid(field, 'expected a string')
  return value
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
