import { ValidationError } from '../../../errors.js'

/** Keys whose value is JSON (a list or an object); a GET query string carries them as JSON text. */
const JSON_KEYS = ['events', 'actions', 'exclusions', 'properties', 'breakdowns', 'breakdown', 'funnel_step_breakdown', 'funnel_custom_steps']
const BOOLEAN_KEYS = ['filter_test_accounts', 'explicit_date', 'breakdown_normalize_url']
const INTEGER_KEYS = [
  'funnel_window_interval',
  'funnel_window_days',
  'funnel_from_step',
  'funnel_to_step',
  'breakdown_limit',
  'breakdown_group_type_index',
  'breakdown_attribution_value',
  'aggregation_group_type_index',
  'bin_count',
  'funnel_step',
]

export const invalid = (path: ReadonlyArray<string | number>, message: string): ValidationError =>
  new ValidationError([{ path, message }], { context: 'invalid funnel parameters' })

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u)

/**
 * A legacy funnel request as one object, whether it came as a JSON body or
 * as a GET query string (PostHog's `Filter` reads both): JSON text in the
 * list and object keys is parsed, `"true"`/`"false"` in boolean keys and
 * integer text in integer keys become values. Everything else is kept as
 * given, for the schema to judge. Throws ValidationError when `params` is not
 * an object or a JSON key holds text that is not JSON.
 */
export function readLegacyParams(params: unknown): Record<string, unknown> {
  if (params === undefined || params === null) return {}
  if (!isObject(params)) throw invalid([], 'funnel parameters are a JSON object')
  const out: Record<string, unknown> = { ...params }
  for (const key of JSON_KEYS) {
    const v = out[key]
    if (typeof v !== 'string' || !/^\s*[[{]/.test(v)) continue
    try {
      out[key] = JSON.parse(v)
    } catch {
      throw invalid([key], 'is not valid JSON')
    }
  }
  for (const key of BOOLEAN_KEYS) {
    const v = out[key]
    if (typeof v === 'string' && /^(true|false)$/i.test(v.trim())) out[key] = v.trim().toLowerCase() === 'true'
  }
  for (const key of INTEGER_KEYS) {
    const v = out[key]
    if (typeof v === 'string' && /^-?\d{1,15}$/.test(v.trim())) out[key] = Number(v.trim())
  }
  return out
}

/** Blank text (missing, null, or only spaces) is absent. */
export const blank = (s: string | null | undefined): string | null => (s === undefined || s === null || s.trim() === '' ? null : s)
