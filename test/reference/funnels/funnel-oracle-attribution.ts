/**
 * Breakdown attribution (funnels.md §9.2): which breakdown values a target
 * is counted under, and which of its events each run of the funnel sees.
 */
import type { FunnelRefDataset } from './funnel-oracle-dataset.js'
import { valueKey, type BreakdownValue, type FunnelEvent } from './funnel-oracle-events.js'
import type { FunnelSpec } from './funnel-oracle-params.js'

/** A cohort breakdown's value: the cohort id, or 'all'. */
export type RunValue = BreakdownValue | number | 'all'

export interface FunnelRun {
  readonly value: RunValue
  readonly events: ReadonlyArray<FunnelEvent>
  /** Step attribution: the step whose event must carry `valueKey`. */
  readonly attribution: { readonly step: number; readonly valueKey: string } | null
}

const nonEmpty = (v: BreakdownValue): boolean => (Array.isArray(v) ? v.some((x) => x !== '') : v !== '' && v !== null)

function distinct(events: ReadonlyArray<FunnelEvent>): BreakdownValue[] {
  const seen = new Map<string, BreakdownValue>()
  for (const e of events) if (!seen.has(e.valueKey)) seen.set(e.valueKey, e.value)
  return [...seen.values()]
}

/** The runs of the funnel for one target's events (sorted by time). */
export function funnelRuns(spec: FunnelSpec, events: ReadonlyArray<FunnelEvent>, data: FunnelRefDataset): FunnelRun[] {
  const b = spec.breakdown
  if (!b) return [{ value: null, events, attribution: null }]
  if (b.type === 'cohort') {
    // One run per cohort, over the events of its members (aggregate_funnel_cohort groups by target and cohort).
    return b.cohorts.flatMap((c) => {
      const members = c === 'all' ? null : data.cohortMembers?.[c]
      const own = members === null ? events : events.filter((e) => members?.has(e.personId) ?? false)
      return own.length > 0 ? [{ value: c, events: own, attribution: null }] : []
    })
  }
  const empty: BreakdownValue = b.boxed ? b.keys.map(() => '') : ''
  switch (b.attribution) {
    case 'first_touch':
    case 'last_touch': {
      // The earliest (latest) event with a non-empty value, ties by uuid as the events are sorted.
      const ordered = b.attribution === 'first_touch' ? events : [...events].reverse()
      const value = ordered.find((e) => nonEmpty(e.value))?.value ?? empty
      return [{ value, events, attribution: null }]
    }
    case 'all_events':
      return distinct(events).map((value) => ({ value, events: events.filter((e) => e.valueKey === valueKey(value)), attribution: null }))
    case 'step': {
      const step = b.attributionStep!
      // Unordered funnels take candidates from every event (funnel_udf.py `prop_basic`); the others from the step's events.
      const candidates = spec.order === 'unordered' ? events : events.filter((e) => e.flags.includes(step + 1))
      return distinct(candidates).map((value) => ({ value, events, attribution: { step, valueKey: valueKey(value) } }))
    }
  }
}
