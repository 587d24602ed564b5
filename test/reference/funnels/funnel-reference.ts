/**
 * An independent reference evaluator of PostHog funnels (legacy
 * `/insights/funnel/` filter JSON), written from
 * /work/shared/reference/funnels.md and DECISIONS.md (and, where funnels.md is
 * terse, PostHog's funnel-udf Rust sources it was written from), never from
 * Sightline's SQL. Property filters come from test/filters/reference-filter.ts,
 * dates and buckets from ref-dates.ts and ref-time.ts (PostHog's, not core's).
 *
 * Readings chosen where funnels.md is uncertain or silent:
 * 1. Events sharing a timestamp: PostHog leaves their order open (arraySort by
 *    time only). Here they go by lowest step number (events matching no step
 *    last), then uuid. It matters for the trends algorithm, which has no
 *    same-instant rule, and for ties in the steps view's split groups.
 * 2. Unordered trends: an entry counts from `funnel_from_step + 1` distinct
 *    steps and converts at all steps up to `funnel_to_step` (the same counts
 *    the ordered trends use; the Rust compares against the raw step numbers).
 * 3. Trends cut the funnel at `funnel_to_step` (as funnel_trends_udf.py
 *    does); events matching only later steps take no part (for strict
 *    funnels they are unrelated events and break the chain). Time to convert
 *    runs the whole funnel and reads the reported path's times.
 * 4. Breakdown values: missing = "" (one "" per property for lists; the UDF's
 *    argMinIf default would be []). first/last touch pick the earliest/latest
 *    event whose value has a non-empty part, for group breakdowns too.
 * 5. Step attribution candidates: the values of events matching the
 *    attribution step (any event for unordered funnels, where only step 0 is allowed).
 * 6. Breakdown order in the steps view: by count at the last step desc, then
 *    earlier steps, then value ascending; "Other" (limit 10 by default) last.
 *    Trends rank by total entrants, ties value descending, then list by value.
 * 7. Cohort breakdowns: one pass per requested cohort the target's persons are
 *    in; `breakdown` is the cohort name (data.cohortNames, else the id's text),
 *    `breakdown_value` the id; "all" is "all users" / "all". Trends show the name.
 * 8. Legacy unboxing (§9.6) follows the helper's unit test (unbox breakdown
 *    and breakdown_value) and needs `insight: "FUNNELS"` and an explicit
 *    event/person `breakdown_type` in the request.
 * 9. Nobody in the funnel: steps with count 0 (DECISIONS.md); with a
 *    breakdown, []. Trends: zeros without a breakdown, [] with one. Time to
 *    convert: what the query computes on no sample, empty bins of 60 s from 0
 *    (`[[0, 0], [60, 0]]` with the automatic count) and a null average.
 * 10. Time to convert of unordered funnels uses the UDF's unordered path (the
 *    first completion's times), not PostHog's older SQL fallback.
 * 11. Group aggregation reads the event's `groups[k]` (the stored group_k column).
 * 12. `funnel_window_interval` is an integer >= 0 (0: same-instant
 *    conversions only); a unit sent without an interval means 14 of that
 *    unit (FunnelQueryContext defaults the two apart). Conversion rates round
 *    like ClickHouse (exact ties to even).
 * 13. First-time step maths (funnel-events.ts `firstTimeEvents`): only the
 *    person's earliest event of the step up to date_to can fill the step.
 *
 * Not modelled (a plain Error, not a ValidationError): hogql and session
 * breakdowns, hogql property filters, funnel_aggregate_by_hogql, sampling,
 * breakdown_normalize_url. The people URLs are the
 * implementation's; the reference leaves them out.
 */
import { resolveDateRange } from '../shared/ref-dates.js'
import { bucketOfMs, parseTimestamp } from '../shared/ref-time.js'
import type { FunnelRefDataset } from './funnel-dataset.js'
import { targetEvents, type FunnelEvent } from './funnel-events.js'
import { unboxLegacyBreakdown } from './funnel-legacy-unbox.js'
import { orderedFunnel, type TargetResult } from './funnel-ordered.js'
import { readFunnelParams } from './funnel-params.js'
import { attributionRuns, type FunnelRun } from './funnel-runs.js'
import type { FunnelSpec } from './funnel-spec.js'
import { stepsResult } from './funnel-steps-result.js'
import { timeToConvertResult } from './funnel-time-to-convert.js'
import { orderedTrendOutcomes, unorderedTrendOutcomes } from './funnel-trend-runs.js'
import { trendsResult } from './funnel-trends-result.js'
import { unorderedFunnel } from './funnel-unordered.js'

// PostHog skips timestamps on or before this as clock errors when looking for the earliest event.
const EARLIEST_VALID = Date.UTC(2015, 0, 1)

/**
 * The `result` field PostHog's legacy funnel endpoint returns for `params`
 * over `data`: a list of step objects (a list of such lists with a
 * breakdown), a list of trend summaries, or a time-to-convert histogram.
 * Async as the date resolver (ref-dates.ts) is. Throws RefValidationError
 * naming the field for bad input.
 */
export async function referenceFunnel(params: Record<string, unknown>, data: FunnelRefDataset): Promise<unknown> {
  const spec = readFunnelParams(params, data)
  const range = await resolveDateRange(
    { dateFrom: spec.dateFrom, dateTo: spec.dateTo, explicitDate: spec.explicitDate, interval: spec.interval },
    {
      timezone: data.project.timezone,
      weekStartDay: data.project.weekStartDay,
      now: data.now,
      earliestEvent: async () => earliestEvent(data),
    },
  )
  const cut = spec.vizType === 'trends' ? spec.toStep + 1 : spec.steps.length
  const targets = [...targetEvents(spec, data, range, cut).values()]

  if (spec.vizType === 'trends') {
    const { timezone, weekStartDay } = data.project
    const periodOf = (e: FunnelEvent) => bucketOfMs(Math.floor(e.ts / 1000), spec.interval, timezone, weekStartDay)
    const outcomes = targets.flatMap((events) =>
      attributionRuns(spec, events).map((run) => ({
        value: run.value,
        periods:
          spec.orderType === 'unordered'
            ? unorderedTrendOutcomes(run, cut, spec.windowMicros, spec.fromStep, periodOf)
            : orderedTrendOutcomes(run, cut, spec.windowMicros, spec.orderType === 'strict', spec.fromStep, periodOf),
      })),
    )
    return trendsResult(spec, data, range, outcomes)
  }
  if (spec.vizType === 'time_to_convert') {
    const plain: FunnelSpec = { ...spec, breakdown: null }
    return timeToConvertResult(spec, targets.flatMap((events) => attributionRuns(plain, events).map((run) => runFunnel(spec, run, cut))))
  }
  const outcomes = targets.flatMap((events) => attributionRuns(spec, events).map((run) => ({ value: run.value, result: runFunnel(spec, run, cut) })))
  return unboxLegacyBreakdown(params, stepsResult(spec, data, outcomes))
}

/**
 * The steps view's runs before they are counted: each target (`person:<id>`,
 * `distinct:<id>` for a personless distinct id, `group:<key>`, `hogql:<text>`)
 * with its breakdown value and what its run reports (furthest step, step
 * times). For the people behind a step (funnel paths).
 */
export async function referenceFunnelRuns(params: Record<string, unknown>, data: FunnelRefDataset): Promise<Array<{ target: string; value: unknown; result: TargetResult }>> {
  const spec = readFunnelParams({ ...params, funnel_viz_type: 'steps' }, data)
  const range = await resolveDateRange(
    { dateFrom: spec.dateFrom, dateTo: spec.dateTo, explicitDate: spec.explicitDate, interval: spec.interval },
    { timezone: data.project.timezone, weekStartDay: data.project.weekStartDay, now: data.now, earliestEvent: async () => earliestEvent(data) },
  )
  const n = spec.steps.length
  return [...targetEvents(spec, data, range, n).entries()].flatMap(([target, events]) =>
    attributionRuns(spec, events).map((run) => ({ target, value: run.value, result: runFunnel(spec, run, n) })),
  )
}

const runFunnel = (spec: FunnelSpec, run: FunnelRun, n: number): TargetResult =>
  spec.orderType === 'unordered' ? unorderedFunnel(run, n, spec.windowMicros) : orderedFunnel(run, n, spec.windowMicros, spec.orderType === 'strict')

function earliestEvent(data: FunnelRefDataset): Date | null {
  let min = Number.POSITIVE_INFINITY
  for (const e of data.events) {
    const ms = Math.floor((parseTimestamp(e.timestamp) ?? Number.NaN) / 1000)
    if (ms > EARLIEST_VALID && ms < min) min = ms
  }
  return Number.isFinite(min) ? new Date(min) : null
}
