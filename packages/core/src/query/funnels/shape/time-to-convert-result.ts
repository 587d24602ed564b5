/** A funnel's time-to-convert view, PostHog's shape. */
export interface FunnelTimeToConvert {
  /** `[start in seconds, actors]` per bin, the last one empty: it closes the range. Empty when nobody converted. */
  bins: Array<[number, number]>
  /** Seconds from `funnel_from_step` to `funnel_to_step`, over those who converted; null for nobody. */
  average_conversion_time: number | null
}

type Row = Readonly<Record<string, unknown>>

/**
 * The time-to-convert `result` (funnels.md §11): `{bins: [[start seconds,
 * persons], ...], average_conversion_time}`, `bins + 1` starts
 * `round(lo + k * width)` with empty bins kept, from `timeToConvertSql`'s rows.
 */
export function timeToConvertResult(rows: ReadonlyArray<Row>): FunnelTimeToConvert {
  const first = rows[0]
  if (!first) return { bins: [], average_conversion_time: null }
  const count = Number(first.bins)
  const lo = Number(first.lo)
  const width = Number(first.width)
  const bins = Array.from({ length: count + 1 }, (_, k) => [Math.round(lo + k * width), 0] as [number, number])
  for (const r of rows) {
    if (r.bin === null || r.bin === undefined) continue
    const slot = bins[Number(r.bin)]
    if (slot) slot[1] += Number(r.persons)
  }
  return { bins, average_conversion_time: first.average === null || first.average === undefined ? null : Number(first.average) }
}
