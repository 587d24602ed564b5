/**
 * Compares a Sightline trend result with the reference evaluator's: the same
 * series in the same order, every field equal, numbers to 1e-9 relative
 * (databases sum and interpolate floats in their own order). Persons URLs
 * are Sightline's extension and are left out.
 */
const close = (a: number, b: number) => a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b), 1)

function diff(actual: unknown, expected: unknown, path: string, out: string[]): void {
  if (out.length > 20) return
  if (typeof expected === 'number' && typeof actual === 'number') {
    if (!close(actual, expected)) out.push(`${path}: expected ${expected}, got ${actual}`)
    return
  }
  if (Array.isArray(expected) || Array.isArray(actual)) {
    if (!Array.isArray(expected) || !Array.isArray(actual) || expected.length !== actual.length) {
      out.push(`${path}: expected ${JSON.stringify(expected)?.slice(0, 300)}, got ${JSON.stringify(actual)?.slice(0, 300)}`)
      return
    }
    expected.forEach((e, i) => diff(actual[i], e, `${path}[${i}]`, out))
    return
  }
  if (typeof expected === 'object' && expected !== null && typeof actual === 'object' && actual !== null) {
    const a = actual as Record<string, unknown>
    const e = expected as Record<string, unknown>
    for (const key of new Set([...Object.keys(a), ...Object.keys(e)])) {
      if (key === 'persons_urls' || key === 'persons') continue
      if (!Object.hasOwn(e, key)) out.push(`${path}.${key}: unexpected ${JSON.stringify(a[key])?.slice(0, 200)}`)
      else if (!Object.hasOwn(a, key)) out.push(`${path}.${key}: missing (expected ${JSON.stringify(e[key])?.slice(0, 200)})`)
      else diff(a[key], e[key], `${path}.${key}`, out)
    }
    return
  }
  if (actual !== expected) out.push(`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`)
}

export function resultMismatches(actual: unknown, expected: unknown): string[] {
  const out: string[] = []
  diff(actual, echoedFilters(expected), 'result', out)
  return out
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** An entity's or the request's properties as a list of conditions: the old `{key: value}` form is exact event matches. */
const conditions = (p: unknown): unknown =>
  p === undefined || p === null ? [] : isRecord(p) && !('type' in p && 'values' in p) ? Object.entries(p).map(([key, value]) => ({ key, value, operator: 'exact', type: 'event' })) : p

/**
 * The reference echoes the request as sent in each series' `filter` (§4);
 * the http-adapter README ("a trend result's `filter`") decides how its
 * entities and properties are written, as interface 4.4 types them: both
 * lists, each element with its `type`, `math` (`total` when none) and
 * properties as a list; the top-level properties as PostHog's
 * `PropertyGroup.to_dict()` (a list as its AND group, none as `{}`). Applied
 * to the reference's filters here; a filter already so written is unchanged.
 */
function echoedFilters(expected: unknown): unknown {
  if (!Array.isArray(expected)) return expected
  return expected.map((series) => {
    if (!isRecord(series) || !isRecord(series.filter)) return series
    const f = series.filter
    const entities = (list: unknown, type: string) =>
      (Array.isArray(list) ? list : []).map((e: Record<string, unknown>) => ({ ...e, type, math: e.math ?? 'total', properties: conditions(e.properties) }))
    const properties = conditions(f.properties)
    const group = Array.isArray(properties) ? (properties.length === 0 ? {} : { type: 'AND', values: properties }) : properties
    return { ...series, filter: { ...f, events: entities(f.events, 'events'), actions: entities(f.actions, 'actions'), properties: group } }
  })
}
