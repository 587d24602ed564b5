/**
 * PostHog's `smoothing_intervals` (hogql_queries/insights/trends/
 * trends_query_builder.py `_outer_select_query`: `arrayMap(i ->
 * floor(arrayAvg(arraySlice(total_array, greatest(i - n + 1, 1), least(i,
 * n)))), ...)`; the legacy engine's `AVG(SUM(total)) OVER (ORDER BY day_start
 * ROWS BETWEEN n-1 PRECEDING AND CURRENT ROW)` with `floor(count)`): each
 * point of a row, as displayed, becomes the floor of the mean of itself and
 * the n-1 points before it. The row holds the range's buckets, empty ones as
 * 0, so the first n-1 points average over the fewer points there are and
 * nothing before the range's first bucket is read.
 */
export function smoothValues(values: ReadonlyArray<number>, intervals: number): number[] {
  if (intervals <= 1) return [...values]
  // A running sum is exact for whole numbers (counts); fractions are summed
  // afresh per window, in bucket order, so rounding never drifts along the row.
  if (values.every(Number.isSafeInteger)) {
    let sum = 0
    return values.map((v, i) => {
      sum += v
      if (i >= intervals) sum -= values[i - intervals]!
      return Math.floor(sum / Math.min(i + 1, intervals))
    })
  }
  return values.map((_, i) => windowMean(values, Math.max(0, i - intervals + 1), i))
}

function windowMean(values: ReadonlyArray<number>, first: number, last: number): number {
  let sum = 0
  for (let j = first; j <= last; j++) sum += values[j]!
  return Math.floor(sum / (last - first + 1))
}

/** A point of a sparse row: bucket index and value. */
export interface Point {
  readonly b: number
  readonly v: number
}

/**
 * `smoothValues` of a row of `width` buckets given by its non-zero points,
 * as its non-zero points: only buckets within n-1 after a point can be
 * non-zero, so the work follows the points, not the width. Points must be
 * inside `0..width-1`; several at one bucket add up. Zeros are left out of
 * each window's sum, which changes no sum.
 */
export function smoothPoints(points: ReadonlyArray<Point>, width: number, intervals: number): Point[] {
  const byBucket = new Map<number, number>()
  for (const p of points) byBucket.set(p.b, (byBucket.get(p.b) ?? 0) + p.v)
  const sorted = [...byBucket].sort((a, b) => a[0] - b[0])
  const out: Point[] = []
  let next = 0
  let lo = 0
  for (const [start] of sorted) {
    for (let i = Math.max(start, next); i < Math.min(width, start + intervals); i++) {
      const first = Math.max(0, i - intervals + 1)
      while (sorted[lo]![0] < first) lo++
      let sum = 0
      for (let j = lo; j < sorted.length && sorted[j]![0] <= i; j++) sum += sorted[j]![1]
      const v = Math.floor(sum / Math.min(i + 1, intervals))
      if (v !== 0) out.push({ b: i, v })
      next = i + 1
    }
  }
  return out
}
