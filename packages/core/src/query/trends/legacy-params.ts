import { ValidationError } from '../../errors.js'

/** Keys whose value is JSON (a list or an object); a GET query string carries them as JSON text. */
const JSON_KEYS = ['events', 'actions', 'properties', 'breakdowns', 'breakdown']
const BOOLEAN_KEYS = ['filter_test_accounts', 'explicit_date', 'compare', 'breakdown_hide_other_aggregation', 'breakdown_normalize_url']
const INTEGER_KEYS = ['breakdown_limit', 'breakdown_histogram_bin_count', 'breakdown_group_type_index', 'smoothing_intervals', 'entity_order', 'stickiness_days']

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u)

/**
 * A legacy insight request as one object, whether it came as a JSON body or as
 * a GET query string (PostHog's `Filter` reads both): JSON text in the list
 * and object keys is parsed, `"true"`/`"false"` in boolean keys and integer
 * text in integer keys become values. Everything else is kept as given, for
 * the schema to judge. Throws ValidationError when `params` is not an object
 * or a JSON key holds text that is not JSON.
 */
export function readLegacyParams(params: unknown): Record<string, unknown> {
  if (params === undefined || params === null) return {}
  if (!isObject(params)) throw new ValidationError([{ path: [], message: 'trend parameters are a JSON object' }], { context: 'invalid trend parameters' })
  const out: Record<string, unknown> = { ...params }
  for (const key of JSON_KEYS) {
    const v = out[key]
    if (typeof v !== 'string' || !/^\s*[[{]/.test(v)) continue
    try {
      out[key] = JSON.parse(v)
    } catch {
      throw new ValidationError([{ path: [key], message: 'is not valid JSON' }], { context: 'invalid trend parameters' })
    }
  }
  for (const key of BOOLEAN_KEYS) {
    const v = out[key]
    if (typeof v === 'string' && /^(true|false)$/i.test(v)) out[key] = v.toLowerCase() === 'true'
  }
  for (const key of INTEGER_KEYS) {
    const v = out[key]
    if (typeof v === 'string' && /^-?\d{1,15}$/.test(v.trim())) out[key] = Number(v.trim())
  }
  return out
}
