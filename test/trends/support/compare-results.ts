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
  diff(actual, expected, 'result', out)
  return out
}
