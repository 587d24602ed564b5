/**
 * The time-to-convert histogram (funnels.md §11; funnel_time_to_convert_udf.py):
 * for each target that reached `toStep`, the time from `fromStep` to
 * `toStep` of its reported attempt, binned.
 */
import type { Outcome } from './funnel-oracle-ordered.js'
import type { FunnelSpec } from './funnel-oracle-params.js'
import { mean } from './funnel-oracle-stats.js'

export interface TimeToConvert {
  readonly bins: Array<[number, number]>
  readonly average_conversion_time: number | null
}

export function timeToConvertResult(spec: FunnelSpec, outcomes: ReadonlyArray<Outcome>): TimeToConvert {
  const samples = outcomes
    .filter((o) => o.depth >= spec.toStep + 1)
    .map((o) => o.gaps.slice(spec.fromStep, spec.toStep).reduce((s, g) => s + g, 0) / 1e6)
  const binCount = spec.binCount ?? Math.min(60, Math.max(1, Math.ceil(Math.cbrt(samples.length))))
  // ClickHouse's arrayMin/arrayMax of an empty array are 0.
  const min = samples.length ? Math.floor(Math.min(...samples)) : 0
  const max = samples.length ? Math.ceil(Math.max(...samples)) : 0
  const raw = Math.ceil((max - min) / binCount)
  const width = raw > 0 ? raw : 60
  const bins: Array<[number, number]> = Array.from({ length: binCount + 1 }, (_, k) => [Math.round(min + k * width), 0])
  for (const t of samples) bins[Math.floor((t - min) / width)]![1]++
  return { bins, average_conversion_time: mean(samples) }
}
