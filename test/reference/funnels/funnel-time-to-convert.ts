import type { TargetResult } from './funnel-ordered.js'
import type { FunnelSpec } from './funnel-spec.js'
import { mean } from './funnel-stats.js'

/**
 * The time-to-convert histogram (funnels.md §11): one sample per target that
 * reached `toStep`, the sum of its step times from `fromStep` to `toStep`.
 * `bin_count` (clamped 1..90) or ceil(cbrt(samples)) clamped 1..60; bins of
 * width ceil((max - min) / count) (60 when that is 0) from floor(min), with
 * count + 1 starts; a sample goes to floor((t - min) / width). No sample:
 * min = max = 0, so empty bins of 60 s from 0, and a null average.
 */
export function timeToConvertResult(spec: FunnelSpec, results: ReadonlyArray<TargetResult>): unknown {
  const samples = results
    .filter((r) => r.reached >= spec.toStep)
    .map((r) => r.timings.slice(spec.fromStep, spec.toStep).reduce((a, b) => a + b, 0))
  const count = spec.binCount ?? Math.min(60, Math.max(1, Math.ceil(Math.cbrt(samples.length))))
  // The query runs on zero samples too: ClickHouse's arrayMin/arrayMax of [] are 0, so one width-60 bin from 0 (bin_count aside).
  const min = samples.length > 0 ? Math.floor(Math.min(...samples)) : 0
  const max = samples.length > 0 ? Math.ceil(Math.max(...samples)) : 0
  const width = Math.ceil((max - min) / count) || 60
  const bins = Array.from({ length: count + 1 }, (_, k) => [Math.round(min + k * width), 0] as [number, number])
  for (const t of samples) bins[Math.floor((t - min) / width)]![1] += 1
  return { bins, average_conversion_time: mean(samples) }
}
