/**
 * `smoothing_intervals` as PostHog's query computes it (reference for
 * Sightline's smoothing.ts, written from the SQL, not from that file): the
 * row as displayed is a list of buckets, empty ones 0; point i becomes
 * `floor(avg(...))` over the frame `ROWS BETWEEN n-1 PRECEDING AND CURRENT
 * ROW`, i.e. over the points i-n+1..i that exist in the list. Nothing before
 * the first bucket exists, so the first n-1 points average over fewer.
 */
export function smoothed(data: ReadonlyArray<number>, n: number): number[] {
  if (n <= 1) return [...data]
  return data.map((_, i) => {
    const frame = data.slice(Math.max(0, i - n + 1), i + 1)
    let sum = 0
    for (const v of frame) sum += v
    return Math.floor(sum / frame.length)
  })
}

/** Maths whose Other PostHog folds as the element-wise sum of the folded rows (arrayFold); others are recomputed over the folded events. */
export const FOLDS_BY_SUM = ['total', 'sum', 'first_time_for_user']

/** Element-wise sum of rows of one width. */
export function sumRows(rows: ReadonlyArray<ReadonlyArray<number>>, width: number): number[] {
  const out = new Array<number>(width).fill(0)
  for (const row of rows) row.forEach((v, i) => (out[i]! += v))
  return out
}
