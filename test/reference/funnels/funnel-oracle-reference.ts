/**
 * The reference funnel: a request and a dataset in, PostHog's `result` out,
 * written from /work/shared/reference/funnels.md and DECISIONS.md (and, where
 * funnels.md is terse, the funnel-udf Rust it was written from), never from
 * Sightline's SQL. Property filters: test/filters/reference-filter.ts; dates:
 * ref-dates.ts and ref-time.ts (PostHog's, not core's).
 *
 * Readings chosen where funnels.md is uncertain or silent:
 * 1. Async, as the date resolver (ref-dates.ts) is.
 * 2. Equal times: lowest step first, step-less events (exclusions, unrelated)
 *    last, then the uuid as the database holds it (load-dataset.ts). PostHog
 *    leaves this order open; only unordered funnels and trends depend on it.
 * 3. first/last_touch: the earliest/latest funnel event whose value has a
 *    non-empty part (group breakdowns too); none gives "" (or ["", ...]).
 *    all_events: every distinct value, the empty one included. step N: the
 *    values of events matching step N (unordered: of every event).
 * 4. Breakdown order (steps view): last-step count desc, then each earlier
 *    step desc, then value asc (code points; lists element-wise). The first
 *    `breakdown_limit` (10 by default, DECISIONS.md) stay, in that order;
 *    "Other" (["Other"] for lists) comes last and pools times.
 * 5. Nobody in the funnel: steps with count 0 (DECISIONS.md); with a
 *    breakdown [], as there is no value to label a group with.
 * 6. Cohort breakdowns: one run per requested cohort over its members'
 *    events; `breakdown` the cohort's name (its id as text when unnamed),
 *    "all" shows as "all users". Trends show the name as breakdown_value.
 * 7. Trends cut the funnel at funnel_to_step (funnel_trends_udf.py), use the
 *    steps view's attribution, keep the `breakdown_limit` values with the
 *    most entrants (ties: value desc, no Other) and list them by value.
 *    Unordered trends: entrant from funnel_from_step + 1 distinct steps,
 *    converted at funnel_to_step + 1.
 * 8. Time to convert ignores breakdowns; funnel_to_step 0 means the last
 *    step (the runner's `or`). With no sample: bins from min = max = 0 and
 *    width 60 (what the query computes: [[0,0],[60,0]] for one bin), average
 *    null. Unordered funnels use the UDF's first-completion times, not the
 *    older SQL fallback.
 * 9. Rates round like ClickHouse's round(x, 2) on floats (half to even);
 *    medians interpolate. funnel_window_interval 0 is allowed (same-instant
 *    conversions only).
 * 10. A breakdown without breakdown_type is an event breakdown (funnels.md
 *    §1.4 and the interface document's default), not the 400 issue 5 lists.
 * 11. Group aggregation reads the event's stored `groups[k]`.
 * 12. Old-client unboxing as insight.py does it: `insight: "FUNNELS"` and an
 *    explicit event/person breakdown_type are both required.
 *
 * Not modelled (a FunnelReferenceError or plain Error): hogql and session
 * breakdowns, hogql and session property filters, funnel_aggregate_by_hogql,
 * first_time_for_user math, sampling_factor, breakdown_normalize_url.
 * converted_people_url / dropped_people_url are the implementation's.
 */
import { bucketOfMs, bucketStarts } from '../shared/ref-time.js'
import { type RefDateRange as ResolvedDateRange, resolveDateRange } from '../shared/ref-dates.js'
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
 * as the date-range resolver (ref-dates.ts) is. Throws FunnelReferenceError (or
 * RefValidationError for dates) where PostHog answers 400.
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
