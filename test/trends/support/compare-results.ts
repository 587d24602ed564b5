/**
 * Compares a Sightline trend result with the reference evaluator's: the same
 * series in the same order, every field equal, numbers to 1e-9 relative
 * (databases sum and interpolate floats in their own order). Persons URLs
 * are Sightline's extension and are left out. With a formula and a
 * breakdown, rows are compared as a set: PostHog orders equal totals by
 * data and value descending, the reference by value ascending (a known
 * disagreement, test/trends/README.md).
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

const canonical = (rows: ReadonlyArray<Record<string, unknown>>) =>
  [...rows].sort((x, y) => (JSON.stringify([x.compare_label, x.breakdown_value]) < JSON.stringify([y.compare_label, y.breakdown_value]) ? -1 : 1))

export function resultMismatches(actual: unknown, expected: unknown, options: { unordered: boolean }): string[] {
  const out: string[] = []
  const a = options.unordered && Array.isArray(actual) ? canonical(actual) : actual
  const e = options.unordered && Array.isArray(expected) ? canonical(expected as Array<Record<string, unknown>>) : expected
  diff(a, e, 'result', out)
  return out
}
