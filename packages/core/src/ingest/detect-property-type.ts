import type { PropertyType } from '../model/definitions.js'
import { parseTimestamp } from '../time/timestamp.js'

const DATE_LIKE = /^(\d{4}[/-][0-2]\d[/-][0-3]\d|[0-2]\d[/-][0-3]\d[/-]\d{4})([ T][0-2]\d:[0-6]\d:[0-6]\d.*)?$/
const RFC_2822 = /^(?:[A-Za-z]{3},\s*)?\d{1,2}\s+[A-Za-z]{3}\s+\d{4}\s+\d{2}:\d{2}(?::\d{2})?\s+(?:[+-]\d{4}|[A-Z]{2,4})$/
/** About six months, in seconds: PostHog's window for "this integer is a recent unix time". */
const SIX_MONTHS_SECONDS = 15_768_000

const looksLikeDate = (s: string): boolean => DATE_LIKE.test(s) || RFC_2822.test(s) || (s.includes('T') && parseTimestamp(s) !== null)

/**
 * PostHog's property type inference (rust/property-defs-rs `detect_property_type`).
 * Null, arrays and objects have no type (null). `nowSeconds` is the ingestion clock.
 */
export function detectPropertyType(key: string, value: unknown, nowSeconds: number): PropertyType | null {
  const k = key.toLowerCase()
  if (k.startsWith('utm_') || k.startsWith('$initial_utm_') || k.startsWith('$feature/') || k === '$feature_flag_response' || k.startsWith('$survey_response')) {
    return 'String'
  }
  const dateKey = ['time', 'date', '_at', '-at', 'createdat', 'updatedat'].some((part) => k.includes(part))
  if (dateKey) {
    if (typeof value === 'string' && looksLikeDate(value.trim())) return 'DateTime'
    if (typeof value === 'number' && Number.isInteger(value) && value >= nowSeconds - SIX_MONTHS_SECONDS) return 'DateTime'
  }
  switch (typeof value) {
    case 'string': {
      const s = value.trim()
      if (s === 'true' || s === 'false' || s === 'TRUE' || s === 'FALSE') return 'Boolean'
      return looksLikeDate(s) ? 'DateTime' : 'String'
    }
    case 'number':
      return Number.isFinite(value) ? 'Numeric' : null
    case 'boolean':
      return 'Boolean'
    default:
      return null
  }
}
