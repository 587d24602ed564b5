/**
 * The steps view's response (funnels.md §7, §8, §9.3-9.6, §12): step
 * objects per breakdown value, ranked, the tail merged into "Other", and
 * single-property breakdowns unboxed for old clients.
 */
import type { RunValue } from './funnel-oracle-attribution.js'
import type { FunnelRefDataset } from './funnel-oracle-dataset.js'
import type { Outcome } from './funnel-oracle-ordered.js'
import type { EntitySpec, FunnelSpec } from './funnel-oracle-params.js'
import { mean, median } from './funnel-oracle-stats.js'
import { compareValues } from './funnel-oracle-value-order.js'

export interface ValueGroup {
  readonly value: RunValue
  readonly outcomes: ReadonlyArray<Outcome>
}

type StepObject = Record<string, unknown>

const reached = (outcomes: ReadonlyArray<Outcome>, step: number) => outcomes.filter((o) => o.depth >= step + 1)

function entityFields(spec: FunnelSpec, data: FunnelRefDataset, entity: EntitySpec, i: number): StepObject {
  if (spec.order === 'unordered') {
    return { action_id: null, name: `Completed ${i + 1} step${i === 0 ? '' : 's'}`, custom_name: null, type: entity.kind }
  }
  const isAction = entity.kind === 'actions'
  const actionName = isAction ? data.actions?.[Number(entity.id)]?.name ?? entity.name : null
  return {
    action_id: isAction ? Number(entity.id) : entity.id,
    name: isAction ? actionName : entity.id,
    custom_name: entity.customName,
    type: entity.kind,
  }
}

function stepObjects(spec: FunnelSpec, data: FunnelRefDataset, outcomes: ReadonlyArray<Outcome>, breakdown?: StepObject): StepObject[] {
  return spec.steps.map((entity, i) => {
    // Times between step i-1 and i of those who reached i; zero-second gaps are left out (`timings[i] > 0`).
    const times = i === 0 ? [] : reached(outcomes, i).map((o) => o.gaps[i - 1]! / 1e6).filter((t) => t > 0)
    return {
      ...entityFields(spec, data, entity, i),
      order: i,
      people: [],
      count: reached(outcomes, i).length,
      average_conversion_time: mean(times),
      median_conversion_time: median(times),
      ...breakdown,
    }
  })
}

const counts = (spec: FunnelSpec, g: ValueGroup) => spec.steps.map((_, i) => reached(g.outcomes, i).length)

/** Last step's count descending, then the step before, ...; ties by value. */
function rank(spec: FunnelSpec, groups: ReadonlyArray<ValueGroup>): ValueGroup[] {
  const keyed = groups.map((g) => ({ g, c: counts(spec, g) }))
  keyed.sort((a, b) => {
    for (let i = spec.steps.length - 1; i >= 0; i--) if (a.c[i] !== b.c[i]) return b.c[i]! - a.c[i]!
    return compareValues(a.g.value, b.g.value)
  })
  return keyed.map(({ g }) => g)
}

function display(data: FunnelRefDataset, spec: FunnelSpec, value: RunValue): StepObject {
  if (spec.breakdown?.type !== 'cohort') return { breakdown: value, breakdown_value: value }
  const name = value === 'all' ? 'all users' : data.cohortNames?.[value as number] ?? String(value)
  return { breakdown: name, breakdown_value: value }
}

/** The steps result before unboxing: a list of steps, or a list of lists with a breakdown. */
export function stepsResult(spec: FunnelSpec, data: FunnelRefDataset, groups: ReadonlyArray<ValueGroup>): unknown {
  const b = spec.breakdown
  // DECISIONS.md: an empty funnel still shows its steps, with count 0.
  if (!b) return stepObjects(spec, data, groups[0]?.outcomes ?? [])
  let ranked = rank(spec, groups)
  if (b.type !== 'cohort' && ranked.length > b.limit) {
    const other: RunValue = b.boxed ? ['Other'] : 'Other'
    const rest = ranked.slice(b.limit).flatMap((g) => g.outcomes)
    ranked = ranked.slice(0, b.limit)
    // A kept value spelled "Other" takes the merged rest, as SQL's GROUP BY on the final value does.
    const same = ranked.findIndex((g) => JSON.stringify(g.value) === JSON.stringify(other))
    if (same >= 0) ranked[same] = { value: other, outcomes: [...ranked[same]!.outcomes, ...rest] }
    else ranked.push({ value: other, outcomes: rest })
  }
  return ranked.map((g) => stepObjects(spec, data, g.outcomes, display(data, spec, g.value)))
}

/**
 * posthog/api/insight.py `protect_old_clients_from_multi_property_default`:
 * a FUNNELS request with an explicit event/person breakdown_type gets
 * single-property values unboxed, and multi (`breakdowns`) results the key
 * `breakdowns` instead of `breakdown`.
 */
export function unboxForOldClients(params: Record<string, unknown>, result: unknown): unknown {
  if (!Array.isArray(result) || result.length === 0 || !Array.isArray(result[0])) return result
  const request = params.insight === 'FUNNELS' && (params.breakdown_type === 'event' || params.breakdown_type === 'person')
  const single = request && typeof params.breakdown === 'string'
  const multi = request && 'breakdowns' in params
  if (!single && !multi) return result
  return (result as StepObject[][]).map((steps) =>
    steps.map((step) => {
      const out = { ...step }
      if (single) {
        if (Array.isArray(out.breakdown) && out.breakdown.length > 0) out.breakdown = out.breakdown[0]
        if (Array.isArray(out.breakdown_value) && out.breakdown_value.length > 0) out.breakdown_value = out.breakdown_value[0]
      }
      if (multi) {
        const { breakdown, ...rest } = out
        return { ...rest, breakdowns: breakdown ?? null }
      }
      return out
    }),
  )
}
