import { depthOf, MAX_JSON_DEPTH } from './body.js'
import { invalidInput } from '../errors.js'

/**
 * An analysis' parameters sent as a query string, as PostHog's GET endpoints
 * take them (`?events=[{"id":"$pageview"}]&date_from=-7d&compare=true`):
 * a value that is JSON text of an array, object, number, boolean or null is
 * that value; any other value is a string. A repeated key keeps its last
 * value. `format` and paging keys are not parameters of the analysis.
 */
export function analysisParamsOf(query: URLSearchParams, reserved: ReadonlySet<string> = RESERVED): Record<string, unknown> {
  const params: Record<string, unknown> = {}
  for (const [key, raw] of query) {
    if (reserved.has(key)) continue
    params[key] = TEXT_KEYS.has(key) ? raw : jsonOrText(key, raw)
  }
  return params
}

const RESERVED: ReadonlySet<string> = new Set(['format'])
// Always text, even when they look like numbers (`date_from=2024` is a year, `formula=2` a formula,
// `start_point=404` a path node, `breakdown_value=1.0` a value that is not `1`).
const TEXT_KEYS: ReadonlySet<string> = new Set([
  'date_from', 'date_to', 'formula', 'client_query_id',
  'start_point', 'end_point', 'path_start_key', 'path_end_key', 'path_dropoff_key', 'breakdown_value',
])

function jsonOrText(key: string, raw: string): unknown {
  const text = raw.trim()
  if (!/^[[{\-0-9tfn"]/.test(text)) return raw
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    // Relative dates (`-7d`), names and the like: plain text.
    return raw
  }
  if (typeof value === 'object' && value !== null && depthOf(value) > MAX_JSON_DEPTH) throw invalidInput('The value nests too deeply.', key)
  return value
}
