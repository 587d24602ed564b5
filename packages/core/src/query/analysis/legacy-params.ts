import { ValidationError } from '../../errors.js'

/** Which keys of a legacy request a reader converts from their GET query-string text. */
export interface LegacyKeys {
  /** Keys whose value is JSON (a list or an object); a GET query string carries them as JSON text. */
  readonly json: ReadonlyArray<string>
  /** `"true"`/`"false"` (any case, spaces around ignored) become booleans. */
  readonly boolean: ReadonlyArray<string>
  /** Integer text of at most 15 digits becomes a number. */
  readonly integer: ReadonlyArray<string>
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u)

/**
 * A reader of legacy `analysis` requests (`'trend'`, `'funnel'`) as one object,
 * whether they came as a JSON body or as a GET query string (PostHog's
 * `Filter` reads both): JSON text in the `keys.json` keys is parsed, booleans
 * and integers in theirs become values. Everything else is kept as given, for
 * the schema to judge. The reader throws ValidationError when `params` is not
 * an object or a JSON key holds text that is not JSON; missing params read as `{}`.
 */
export function legacyParamsReader(keys: LegacyKeys, analysis: string): (params: unknown) => Record<string, unknown> {
  const invalid = (path: string[], message: string) => new ValidationError([{ path, message }], { context: `invalid ${analysis} parameters` })
  return (params) => {
    if (params === undefined || params === null) return {}
    if (!isObject(params)) throw invalid([], `${analysis} parameters are a JSON object`)
    const out: Record<string, unknown> = { ...params }
    for (const key of keys.json) {
      const v = out[key]
      if (typeof v !== 'string' || !/^\s*[[{]/.test(v)) continue
      try {
        out[key] = JSON.parse(v)
      } catch {
        throw invalid([key], 'is not valid JSON')
      }
    }
    for (const key of keys.boolean) {
      const v = out[key]
      if (typeof v === 'string' && /^(true|false)$/i.test(v.trim())) out[key] = v.trim().toLowerCase() === 'true'
    }
    for (const key of keys.integer) {
      const v = out[key]
      if (typeof v === 'string' && /^-?\d{1,15}$/.test(v.trim())) out[key] = Number(v.trim())
    }
    return out
  }
}

/** A legacy insight request (trends, stickiness, lifecycle, retention, and an insight's stored filters) as one object. */
export const readLegacyParams = legacyParamsReader(
  {
    json: ['events', 'actions', 'properties', 'breakdowns', 'breakdown'],
    boolean: ['filter_test_accounts', 'explicit_date', 'compare', 'breakdown_hide_other_aggregation', 'breakdown_normalize_url'],
    integer: ['breakdown_limit', 'breakdown_histogram_bin_count', 'breakdown_group_type_index', 'smoothing_intervals', 'entity_order', 'stickiness_days'],
  },
  'trend',
)
