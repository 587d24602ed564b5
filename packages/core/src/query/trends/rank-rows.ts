import { NULL_MARKER, OTHER_MARKER } from '../breakdowns/breakdown-markers.js'

interface Rankable {
  readonly parts: ReadonlyArray<string>
  readonly values: ReadonlyArray<number>
}

/** 0 for real values, 1 when any part is null, 2 for Other (reference §7.4). */
export const nullBucket = (parts: ReadonlyArray<string>): 0 | 1 | 2 => (parts.includes(OTHER_MARKER) ? 2 : parts.includes(NULL_MARKER) ? 1 : 0)

const utf8 = new TextEncoder()

/** Byte-wise (UTF-8, as ClickHouse compares strings), element by element. */
export function compareParts(a: ReadonlyArray<string>, b: ReadonlyArray<string>): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareBytes(utf8.encode(a[i]!), utf8.encode(b[i]!))
    if (c !== 0) return c
  }
  return a.length - b.length
}

function compareBytes(x: Uint8Array, y: Uint8Array): number {
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!
  return x.length - y.length
}

const total = (r: Rankable) => r.values.reduce((x, y) => x + y, 0)

/**
 * Breakdown rows in PostHog's order (reference §7.4): real values, then
 * values with a null part, then Other; within each, the value's total
 * descending (the sum of a time series' buckets, or a total-value display's
 * one value); then the value ascending, byte-wise. The first
 * `breakdown_limit` rows in this order are the ones kept; with
 * `nullCompetes` (total-value displays) null ranks as a real value for that cut.
 */
export function rankRows<R extends Rankable>(rows: ReadonlyArray<R>, options: { readonly nullCompetes?: boolean } = {}): R[] {
  // PostHog's total-value query cuts by `row_number() OVER (ORDER BY total DESC)` alone, so
  // there null competes for a slot (trends_query_builder.py, _total_value_by_breakdown_query).
  const bucketOf = (parts: ReadonlyArray<string>) => (options.nullCompetes && nullBucket(parts) === 1 ? 0 : nullBucket(parts))
  return rows
    .map((r) => ({ r, total: total(r), bucket: bucketOf(r.parts) }))
    .sort((a, b) => a.bucket - b.bucket || b.total - a.total || compareParts(a.r.parts, b.r.parts))
    .map(({ r }) => r)
}
