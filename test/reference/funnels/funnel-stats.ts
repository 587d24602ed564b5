/** Mean, or null without samples. */
export const mean = (xs: ReadonlyArray<number>): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length)

/** ClickHouse `median`: the 0.5 quantile with linear interpolation (the mean of the two middle values); null without samples. */
export function median(xs: ReadonlyArray<number>): number | null {
  if (xs.length === 0) return null
  const s = [...xs].sort((a, b) => a - b)
  const mid = (s.length - 1) / 2
  return (s[Math.floor(mid)]! + s[Math.ceil(mid)]!) / 2
}

/** ClickHouse `round(x, 2)` on a float: to nearest, exact ties to even (banker's rounding). */
export function round2(x: number): number {
  const scaled = x * 100
  const floor = Math.floor(scaled)
  const diff = scaled - floor
  const r = diff > 0.5 ? floor + 1 : diff < 0.5 ? floor : floor % 2 === 0 ? floor : floor + 1
  return r / 100
}
