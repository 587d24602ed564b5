/** The aggregates PostHog's funnel queries take from ClickHouse, with its rounding. */

export const mean = (xs: ReadonlyArray<number>): number | null => (xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length)

/** ClickHouse `median`: the 0.5 quantile, interpolated between the two middle values. */
export function median(xs: ReadonlyArray<number>): number | null {
  if (xs.length === 0) return null
  const s = [...xs].sort((a, b) => a - b)
  const mid = (s.length - 1) / 2
  return (s[Math.floor(mid)]! + s[Math.ceil(mid)]!) / 2
}

/** ClickHouse `round(x, 2)` on a float: half to even on x * 100. */
export function round2(x: number): number {
  const y = x * 100
  const floor = Math.floor(y)
  const diff = y - floor
  const r = diff > 0.5 ? floor + 1 : diff < 0.5 ? floor : floor % 2 === 0 ? floor : floor + 1
  return r / 100
}
