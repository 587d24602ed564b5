/**
 * Compares a trend result with a worked example's `expected`: the same
 * number of series, in order; in each, every listed field exactly (numbers
 * to 1e-9 relative). `filter` and `action` are checked on their listed keys
 * only; a field listed as `undefined` must be absent.
 */
const SUBSET_FIELDS = new Set(['filter', 'action'])

const close = (a: number, e: number) => a === e || Math.abs(a - e) <= 1e-9 * Math.max(Math.abs(a), Math.abs(e))

function compare(actual: unknown, expected: unknown, path: string, subset: boolean, problems: string[]): void {
  if (typeof expected === 'number') {
    if (typeof actual !== 'number' || !close(actual, expected)) problems.push(`${path}: expected ${expected}, got ${JSON.stringify(actual)}`)
    return
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      problems.push(`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`)
      return
    }
    expected.forEach((e, i) => compare(actual[i], e, `${path}[${i}]`, false, problems))
    return
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) {
      problems.push(`${path}: expected an object, got ${JSON.stringify(actual)}`)
      return
    }
    const a = actual as Record<string, unknown>
    const e = expected as Record<string, unknown>
    for (const key of Object.keys(e)) {
      if (e[key] === undefined) {
        if (Object.hasOwn(a, key)) problems.push(`${path}.${key}: expected absent, got ${JSON.stringify(a[key])}`)
      } else if (!Object.hasOwn(a, key)) problems.push(`${path}.${key}: missing`)
      else compare(a[key], e[key], `${path}.${key}`, SUBSET_FIELDS.has(key), problems)
    }
    if (!subset) for (const key of Object.keys(a)) if (!Object.hasOwn(e, key)) problems.push(`${path}.${key}: unexpected`)
    return
  }
  if (actual !== expected) problems.push(`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`)
}

/** Every difference between a result and an example's `expected`, as readable lines; empty when they match. */
export function trendMismatches(actual: unknown, expected: ReadonlyArray<Record<string, unknown>>): string[] {
  const problems: string[] = []
  if (!Array.isArray(actual)) return [`result: expected an array, got ${JSON.stringify(actual)}`]
  if (actual.length !== expected.length) {
    const labels = actual.map((s: { label?: unknown; breakdown_value?: unknown }) => `${String(s?.label)}${s?.breakdown_value === undefined ? '' : ` [${JSON.stringify(s.breakdown_value)}]`}`)
    return [`result: expected ${expected.length} series, got ${actual.length}: ${labels.join(', ')}`]
  }
  // A series object lists only asserted fields; nested plain objects inside a field are compared whole.
  expected.forEach((e, i) => {
    const a = actual[i] as Record<string, unknown>
    for (const key of Object.keys(e)) {
      if (e[key] === undefined) {
        if (a && Object.hasOwn(a, key)) problems.push(`result[${i}].${key}: expected absent, got ${JSON.stringify(a[key])}`)
      } else if (!a || !Object.hasOwn(a, key)) problems.push(`result[${i}].${key}: missing`)
      else compare(a[key], e[key], `result[${i}].${key}`, SUBSET_FIELDS.has(key), problems)
    }
  })
  return problems
}

export const matchesTrendExpected = (actual: unknown, expected: ReadonlyArray<Record<string, unknown>>): boolean =>
  trendMismatches(actual, expected).length === 0
