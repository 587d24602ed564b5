import { compareValues, valueKey, type BreakdownValue } from './funnel-breakdown-value.js'
import type { FunnelRefDataset } from './funnel-dataset.js'
import type { TargetResult } from './funnel-ordered.js'
import type { FunnelSpec } from './funnel-spec.js'
import { mean, median } from './funnel-stats.js'

interface Group {
  readonly value: BreakdownValue | null
  readonly results: TargetResult[]
}

/**
 * The steps view's `result` (funnels.md §7-9, §12) from every run's
 * outcome: one list of step objects, or with a breakdown one list per value.
 * Counts are targets that reached at least step i; times pool the reported
 * paths' step times that are > 0. Event, person and group breakdowns keep the
 * `limit` values ranked by count at the last step, then the one before, ...
 * (ties: value ascending) and merge the rest into "Other", listed last.
 * Nobody in the funnel: steps with count 0 (DECISIONS.md), or [] with a breakdown.
 */
export function stepsResult(
  spec: FunnelSpec,
  data: FunnelRefDataset,
  outcomes: ReadonlyArray<{ value: BreakdownValue | null; result: TargetResult }>,
): unknown[] {
  const n = spec.steps.length
  const byValue = new Map<string, Group>()
  for (const { value, result } of outcomes) {
    if (result.reached < 0) continue
    const key = valueKey(value)
    const g = byValue.get(key) ?? { value, results: [] }
    g.results.push(result)
    byValue.set(key, g)
  }
  const b = spec.breakdown
  if (b === null) return serialize(spec, data, byValue.get(valueKey(null)) ?? { value: null, results: [] }, n)

  const ranked = [...byValue.values()].sort((x, y) => {
    const cx = counts(x, n)
    const cy = counts(y, n)
    for (let i = n - 1; i >= 0; i--) if (cx[i] !== cy[i]) return cy[i]! - cx[i]!
    return compareValues(x.value!, y.value!)
  })
  let groups = ranked
  if (b.type !== 'cohort' && ranked.length > b.limit) {
    const other: BreakdownValue = b.boxed ? ['Other'] : 'Other'
    const kept = ranked.slice(0, b.limit)
    const rest = ranked.slice(b.limit).flatMap((g) => g.results)
    // A kept value that is itself "Other" is merged with the rest, as PostHog groups by the final value.
    const same = kept.find((g) => valueKey(g.value) === valueKey(other))
    groups = same
      ? kept.map((g) => (g === same ? { value: other, results: [...g.results, ...rest] } : g))
      : [...kept, { value: other, results: rest }]
  }
  return groups.map((g) => serialize(spec, data, g, n))
}

const counts = (g: Group, n: number): number[] => Array.from({ length: n }, (_, i) => g.results.filter((r) => r.reached >= i).length)

function serialize(spec: FunnelSpec, data: FunnelRefDataset, g: Group, n: number): object[] {
  const c = counts(g, n)
  const b = spec.breakdown
  return spec.steps.map((step, i) => {
    const times = i === 0 ? [] : g.results.filter((r) => r.reached >= i).map((r) => r.timings[i - 1]!).filter((t) => t > 0)
    const unordered = spec.orderType === 'unordered'
    const actionId = unordered ? null : step.id
    const name = unordered
      ? `Completed ${i + 1} step${i === 0 ? '' : 's'}`
      : step.type === 'actions'
        ? (data.actionNames?.[step.id as number] ?? null)
        : step.id
    const out: Record<string, unknown> = {
      action_id: actionId,
      name,
      custom_name: unordered ? null : step.customName,
      order: i,
      people: [],
      count: c[i],
      type: step.type,
      average_conversion_time: mean(times),
      median_conversion_time: median(times),
    }
    if (b !== null) {
      const v = g.value!
      out.breakdown = b.type === 'cohort' ? cohortName(v, data) : v
      out.breakdown_value = v
    }
    return out
  })
}

const cohortName = (value: BreakdownValue, data: FunnelRefDataset): string =>
  value === 'all' ? 'all users' : (data.cohortNames?.[value as number] ?? String(value))
