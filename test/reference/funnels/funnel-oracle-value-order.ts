/**
 * A total order on breakdown values, for ranking ties and sorted output:
 * text by code point (the order of UTF-8 bytes, which DuckDB and a "C"
 * collation use), lists element by element then by length, numbers before
 * text. PostHog leaves these ties to ClickHouse; the reference pins them so
 * every database can be compared exactly.
 */
export function compareText(a: string, b: string): number {
  const x = [...a]
  const y = [...b]
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!
    if (d !== 0) return d
  }
  return x.length - y.length
}

export function compareValues(a: unknown, b: unknown): number {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const d = compareValues(a[i], b[i])
      if (d !== 0) return d
    }
    return a.length - b.length
  }
  if (typeof a === 'number' && typeof b === 'number') return a - b
  if (typeof a === 'number') return -1
  if (typeof b === 'number') return 1
  return compareText(String(a), String(b))
}
