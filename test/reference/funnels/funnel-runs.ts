import { emptyValue, isNonEmpty, valueKey, type BreakdownValue } from './funnel-breakdown-value.js'
import type { FunnelEvent } from './funnel-events.js'
import type { FunnelSpec } from './funnel-spec.js'

/** One pass of the per-target algorithm: the events it sees and the breakdown value it reports under. */
export interface FunnelRun {
  /** null without a breakdown. */
  readonly value: BreakdownValue | null
  readonly events: ReadonlyArray<FunnelEvent>
  /** `step` attribution: filling this 0-based step needs an event whose value has this key. */
  readonly stepValue: { readonly step: number; readonly key: string } | null
}

/**
 * The runs of one target (funnels.md §9.2). first_touch / last_touch: one
 * run, under the value of the earliest / latest event with a non-empty value
 * ("" when none). all_events: one run per distinct value, over the events
 * carrying it. step N: one run per value seen on an event matching step N
 * (any event for unordered funnels), which step N must carry. Cohorts: one run
 * per requested cohort the target's persons are in, over those persons' events.
 */
export function attributionRuns(spec: FunnelSpec, events: ReadonlyArray<FunnelEvent>): FunnelRun[] {
  const b = spec.breakdown
  if (b === null) return [{ value: null, events, stepValue: null }]
  if (b.type === 'cohort') {
    return [...new Set(b.cohorts)]
      .map((c) => ({ value: c, events: events.filter((e) => e.cohorts.has(c)), stepValue: null }))
      .filter((run) => run.events.length > 0)
  }
  const valued = events.filter((e) => isNonEmpty(e.value!))
  switch (b.attribution) {
    case 'first_touch':
      return [{ value: valued[0]?.value ?? emptyValue(b), events, stepValue: null }]
    case 'last_touch':
      return [{ value: valued.at(-1)?.value ?? emptyValue(b), events, stepValue: null }]
    case 'all_events':
      return distinct(events).map((value) => ({ value, events: events.filter((e) => valueKey(e.value) === valueKey(value)), stepValue: null }))
    case 'step': {
      const step = b.attributionStep
      const candidates = spec.orderType === 'unordered' ? events : events.filter((e) => e.flags.includes(step + 1))
      return distinct(candidates).map((value) => ({ value, events, stepValue: { step, key: valueKey(value) } }))
    }
  }
}

function distinct(events: ReadonlyArray<FunnelEvent>): BreakdownValue[] {
  const seen = new Map<string, BreakdownValue>()
  for (const e of events) if (!seen.has(valueKey(e.value))) seen.set(valueKey(e.value), e.value!)
  return [...seen.values()]
}
