/**
 * Compares a funnel result with an expected one. Structure, keys, strings,
 * booleans and nulls must be equal; numbers may differ by float noise only:
 * |a - b| <= 1e-6 + 1e-9 * |b|. Conversion times are float seconds (PostHog
 * subtracts float epoch seconds, about 2.4e-7 s apart at today's epoch), so
 * a database cannot be asked for the last bit; every other number is an
 * integer or has two decimals, where this tolerance still sees any change.
 */
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-6 + 1e-9 * Math.abs(b)

/** The path and values of the first difference, or null when `actual` matches `expected`. */
export function funnelMismatch(actual: unknown, expected: unknown, path = 'result'): string | null {
  if (typeof expected === 'number' && typeof actual === 'number') return close(actual, expected) ? null : `${path}: ${actual} != ${expected}`
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: not a list`
    if (actual.length !== expected.length) return `${path}: ${actual.length} items, expected ${expected.length}`
    for (let i = 0; i < expected.length; i++) {
      const m = funnelMismatch(actual[i], expected[i], `${path}[${i}]`)
      if (m) return m
    }
    return null
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return `${path}: not an object`
    const a = actual as Record<string, unknown>
    const e = expected as Record<string, unknown>
    const keys = new Set([...Object.keys(a), ...Object.keys(e)])
    for (const k of keys) {
      if (!(k in e)) return `${path}.${k}: unexpected`
      if (!(k in a)) return `${path}.${k}: missing`
      const m = funnelMismatch(a[k], e[k], `${path}.${k}`)
      if (m) return m
    }
    return null
  }
  return Object.is(actual, expected) ? null : `${path}: ${JSON.stringify(actual)} != ${JSON.stringify(expected)}`
}

export const matchesFunnelExpected = (actual: unknown, expected: unknown): boolean => funnelMismatch(actual, expected) === null
