import type { FunnelBreakdown } from '../funnel-request.js'

/** A breakdown value as PostHog shows it: a list for boxed breakdowns, text for group and session ones, an id for cohorts. */
export type FunnelBreakdownValue = string | number | ReadonlyArray<string>

/**
 * The value of a result row from its text columns `v0..`: "Other" is
 * `v0 = 'Other'` with the other parts null (or one part); a cohort's is its
 * id (`all` stays text).
 */
export function rowValue(b: FunnelBreakdown, row: Readonly<Record<string, unknown>>, prefix = 'v'): FunnelBreakdownValue {
  const parts = b.dims.map((_, i) => row[`${prefix}${i}`] as string | null)
  if (b.dims[0]!.type === 'cohort') return parts[0] === 'all' ? 'all' : Number(parts[0])
  const other = parts[0] === 'Other' && parts.slice(1).every((p) => p === null)
  if (other) return b.boxed ? ['Other'] : 'Other'
  const texts = parts.map((p) => p ?? '')
  return b.boxed ? texts : texts[0]!
}

/** Ascending order of values: element-wise text comparison, numbers numerically (`all` after them). */
export function compareValues(a: FunnelBreakdownValue, b: FunnelBreakdownValue): number {
  const as = Array.isArray(a) ? a : [a]
  const bs = Array.isArray(b) ? b : [b]
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const x = as[i] as string | number
    const y = bs[i] as string | number
    if (x !== y) return typeof x === 'number' && typeof y === 'number' ? x - y : String(x) < String(y) ? -1 : 1
  }
  return as.length - bs.length
}
