/**
 * The reference funnel: a request and a dataset in, PostHog's `result` out.
 * Reads the request, resolves the date range with core's resolver, runs
 * every target's events through the per-target algorithm, and shapes the
 * answer for the requested visualisation.
 */
import { bucketOfMs, bucketStarts } from '../../packages/core/src/query/dates/buckets.js'
import { resolveDateRange, type ResolvedDateRange } from '../../packages/core/src/query/dates/resolve-date-range.js'
import { funnelRuns, type FunnelRun, type RunValue } from './funnel-oracle-attribution.js'
import type { FunnelRefDataset } from './funnel-oracle-dataset.js'
import { epochMicros, funnelEvents, type FunnelEvent } from './funnel-oracle-events.js'
import { orderedOutcome, type Outcome } from './funnel-oracle-ordered.js'
import { readFunnelParams, type FunnelSpec } from './funnel-oracle-params.js'
import { stepsResult, unboxForOldClients, type ValueGroup } from './funnel-oracle-steps.js'
import { timeToConvertResult } from './funnel-oracle-time-to-convert.js'
import { orderedTrendOutcomes, unorderedTrendOutcomes, type PeriodOutcomes } from './funnel-oracle-trend-attempts.js'
import { trendsResult, type TrendGroup } from './funnel-oracle-trends.js'
import { unorderedOutcome } from './funnel-oracle-unordered.js'

// PostHog skips timestamps on or before this as clock errors (EARLIEST_TIMESTAMP).
const EARLIEST_VALID = Date.UTC(2015, 0, 1)

function earliestEvent(data: FunnelRefDataset): Date | null {
  let min = Infinity
  for (const e of data.events) {
    const ms = epochMicros(e.timestamp) / 1000
    if (ms > EARLIEST_VALID && ms < min) min = ms
  }
  return min === Infinity ? null : new Date(Math.floor(min))
}

/** Every run of every target, grouped by breakdown value (in first-seen order). */
function runsByValue<T>(spec: FunnelSpec, data: FunnelRefDataset, range: ResolvedDateRange, stepCount: number, outcome: (run: FunnelRun) => T | null) {
  const groups = new Map<string, { value: RunValue; outcomes: T[] }>()
  if (!spec.breakdown) groups.set('null', { value: null, outcomes: [] })
  for (const events of funnelEvents(spec, data, range, stepCount).values()) {
    for (const run of funnelRuns(spec, events, data)) {
      const o = outcome(run)
      if (o === null) continue
      const key = JSON.stringify(run.value)
      const group = groups.get(key) ?? { value: run.value, outcomes: [] }
      group.outcomes.push(o)
      groups.set(key, group)
    }
  }
  return [...groups.values()]
}

function stepOutcome(spec: FunnelSpec, run: FunnelRun): Outcome | null {
  const n = spec.steps.length
  const o = spec.order === 'unordered' ? unorderedOutcome(run, n, spec.windowMicros) : orderedOutcome(run, n, spec.windowMicros, spec.order === 'strict')
  return o === 'excluded' ? null : o
}

/**
 * PostHog's `result` for a legacy funnel request (funnels.md). Async only
 * because core's date-range resolver is. Throws FunnelReferenceError (or
 * core's ValidationError for dates) where PostHog answers 400.
 */
export async function referenceFunnel(params: Record<string, unknown>, data: FunnelRefDataset): Promise<unknown> {
  const spec = readFunnelParams(params, data)
  const { timezone, weekStartDay } = data.project
  const range = await resolveDateRange(
    { dateFrom: spec.dateFrom, dateTo: spec.dateTo, explicitDate: spec.explicitDate, interval: spec.interval },
    { timezone, weekStartDay, now: data.now, earliestEvent: async () => earliestEvent(data) },
  )
  if (spec.viz === 'steps') {
    const groups: ValueGroup[] = runsByValue(spec, data, range, spec.steps.length, (run) => stepOutcome(spec, run))
    return unboxForOldClients(params, stepsResult(spec, data, groups))
  }
  if (spec.viz === 'time_to_convert') {
    // Breakdowns are ignored here (§11).
    const plain = { ...spec, breakdown: null }
    const [group] = runsByValue(plain, data, range, spec.steps.length, (run) => stepOutcome(plain, run))
    return timeToConvertResult(spec, group?.outcomes ?? [])
  }
  // Trends: the funnel is cut at funnel_to_step; a person's entry belongs to its step-0 event's period.
  const stepCount = spec.toStep + 1
  const periodOf = (e: FunnelEvent) => bucketOfMs(Math.floor(e.micros / 1000), spec.interval, timezone, weekStartDay)
  const groups: TrendGroup[] = runsByValue<PeriodOutcomes>(spec, data, range, stepCount, (run) =>
    spec.order === 'unordered'
      ? unorderedTrendOutcomes(run, stepCount, spec.fromStep, spec.windowMicros, periodOf)
      : orderedTrendOutcomes(run, stepCount, spec.fromStep, spec.windowMicros, spec.order === 'strict', periodOf),
  )
  return trendsResult(spec, data, groups, bucketStarts(range, spec.interval, timezone, weekStartDay), range)
}
