import { isFirstTimeMath } from './first-time-step.js'
import type { FunnelOrder, FunnelRequest } from './funnel-request.js'

/** How a target's events are split into runs of the per-target algorithm, each reported under one breakdown value. */
export type RunKind = 'none' | 'first_touch' | 'last_touch' | 'all_events' | 'step' | 'cohort'

/**
 * What the SQL compilers need to know about a funnel, as plain data: the
 * shape of the per-target computation, never SQL. Built by `planFunnel`.
 */
export interface FunnelPlan {
  /** Steps the per-target algorithm sees (trends cut the funnel at `funnel_to_step`). */
  readonly n: number
  readonly order: FunnelOrder
  readonly windowMicros: number
  /** Breakdown value columns (`p0..`, `b0..`): one per property, one for cohorts, one (always '') without a breakdown. */
  readonly dims: number
  readonly runs: RunKind
  /** Cohort breakdowns: the requested cohorts, in request order, without repeats. */
  readonly cohorts: ReadonlyArray<number | 'all'>
  /** `step` attribution: the 1-based level whose event must carry the run's value; null otherwise. */
  readonly attributionLevel: number | null
  /** gaps[j] (1 <= j < n): some exclusion covers the gap between 0-based steps j-1 and j. */
  readonly gaps: ReadonlyArray<boolean>
  /**
   * Unordered funnels: per 0-based step, the first step with the same entity
   * (event or action, properties and first-time math). Steps sharing one are filled in turn
   * by the events they match.
   */
  readonly stepClass: ReadonlyArray<number>
  /**
   * No event can match two of the steps: each names its own event (no
   * action, no "All events", no event name twice, whatever the filters).
   */
  readonly disjointSteps: boolean
  /**
   * Strict funnels: `fe` holds only the events from each target's first
   * step-0 event to its last step or exclusion event (its span), found from
   * the named events before the scope's events are read (funnel-events-sql.ts,
   * `strictSpans`). Where a run is its target's events (no breakdown), no
   * later CTE needs to cut them to the span again. Where a run is part of its
   * target's events (by all events' values, by cohort) its own span lies
   * within. Needs every step and exclusion to name an event.
   */
  readonly spansAtScan: boolean
  /**
   * Funnel trends: runs are split further by entry period (`per`, the bucket
   * index of the step-0 event that opened the attempt), and events sharing a
   * timestamp are taken one by one (trends.rs has no same-instant rule).
   */
  readonly trends: boolean
}

/** The plan of `request` over its first `n` steps. */
export function planFunnel(request: FunnelRequest, n: number): FunnelPlan {
  const b = request.breakdown
  const runs: RunKind = b === null ? 'none' : b.dims[0]!.type === 'cohort' ? 'cohort' : b.attribution
  const gaps = Array.from({ length: n }, (_, j) => j >= 1 && request.exclusions.some((x) => x.from < j && j <= x.to))
  const cohorts = runs === 'cohort' ? [...new Set(b!.dims[0]!.cohorts)] : []
  return Object.freeze({
    n,
    order: request.order,
    windowMicros: request.windowMicros,
    dims: b === null || runs === 'cohort' ? 1 : b.dims.length,
    runs,
    cohorts,
    attributionLevel: runs === 'step' ? b!.attributionStep + 1 : null,
    gaps: Object.freeze(gaps),
    stepClass: Object.freeze(stepClasses(request, n)),
    disjointSteps: disjoint(request, n),
    spansAtScan: spansAtScan(request, n, runs),
    trends: request.viz === 'trends',
  })
}

function stepClasses(request: FunnelRequest, n: number): number[] {
  // A first-time math narrows which events a step matches, so it is part of the entity.
  const keys = request.steps.slice(0, n).map((s) => JSON.stringify([s.kind, s.event, s.actionId, s.properties, isFirstTimeMath(s.math) ? s.math : null]))
  return keys.map((k) => keys.indexOf(k))
}

/**
 * See `FunnelPlan.spansAtScan`: not under first or last touch (a run's value comes from its target's earliest or
 * latest event with one, wherever it is) or step attribution (from step events before the first step-0 event too),
 * and not where a step or exclusion names no event (an action, "All events"), which leaves the scan nothing to narrow.
 */
function spansAtScan(request: FunnelRequest, n: number, runs: RunKind): boolean {
  if (request.order !== 'strict' || (runs !== 'none' && runs !== 'all_events' && runs !== 'cohort')) return false
  return [...request.steps.slice(0, n), ...request.exclusions.map((x) => x.entity)].every((e) => e.kind === 'events' && e.event !== null)
}

function disjoint(request: FunnelRequest, n: number): boolean {
  const steps = request.steps.slice(0, n)
  return steps.every((s) => s.kind === 'events' && s.event !== null) && new Set(steps.map((s) => s.event)).size === steps.length
}
