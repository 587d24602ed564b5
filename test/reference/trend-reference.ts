/**
 * An independent reference evaluator of PostHog's trends, stickiness and
 * lifecycle, written from ../shared/reference/trends-retention-paths.md
 * §0-12 and §15 (never from Sightline's SQL): the legacy filter JSON in,
 * PostHog's `result` array out, without persons URLs.
 *
 * Readings chosen where the document is uncertain or silent:
 * - `interval: "minute"` is a minute interval (issue 6 lists it; core's date
 *   resolver supports it), not PostHog's legacy rewrite to `hour` (§1.3).
 * - weekly_active / monthly_active in a time series: the persons active in
 *   the 7 (30) calendar days ending where the bucket ends ([end - N days,
 *   end), wall clock), bounded above by date_to; plain dau for week and month
 *   (weekly) or month (monthly) intervals. Total value: the N days ending at
 *   date_to. The look-back rows also supply breakdown values.
 * - Cumulative: dau, weekly_active, monthly_active, unique_group and
 *   unique_session count each actor once where it first appears in range;
 *   every other math is a running sum. Breakdown values are ranked by the
 *   sum of the data as displayed (cumulative data when cumulative).
 * - first_time_for_user: each person's earliest event matching the series
 *   and all its filters, over all time (ties: smaller uuid); counted in its
 *   bucket when in range, with that event's breakdown value.
 * - Quantiles: exact linear interpolation at (n-1)q (§15.1). Non-numeric
 *   values: anything but a finite number or a decimal numeric string.
 * - Breakdown limit: the top values by (total desc, value asc, byte-wise)
 *   among all values, null included; the rest fold into Other, recomputed
 *   over the folded rows. Histogram bins are equal-width between min and max
 *   (§7.1), edges floored to 2 decimals, the last upper edge +0.01; values
 *   in no bin show as '["",""]'; labels print floats as Python does ("1.0").
 * - Cohort breakdowns: `breakdown_value` is the cohort id (or "all"), the
 *   label the id (PostHog shows the cohort's name, which the dataset lacks;
 *   "all users" for "all"); ranked like other values, never folded.
 * - WorldMap always breaks down by event property $geoip_country_code,
 *   limit 250 by default.
 * - BoldNumber uses the exact range (explicit_date), as §3.3 says.
 * - Formulas with a breakdown: rows are the union of values (A's order, then
 *   those other series add), stable-sorted by null/Other bucket then total,
 *   with total 0 for values A lacks (§8's quirk). The label stays
 *   "Formula (...)" next to `breakdown_value`.
 * - Labels: an action series is labelled with the request's `name` (the
 *   dataset holds no action names); `action.id` is the action's integer id.
 * - Compare: the -Nd kludge needs an explicit date_from (a missing one has no
 *   delta mapping); all current-period objects precede all previous ones,
 *   for stickiness too.
 * - Lifecycle: `created_at` is the person's earliest event (RefPerson has
 *   none); a personless distinct id is its own person.
 * - Left out: math `hogql`, session and hogql breakdowns, Boolean property
 *   definitions, smoothing_intervals, stickiness criteria and cumulative
 *   stickiness, aggregation_group_type_index for trends.
 */
import type { RefDataset } from './ref-dataset.js'
import { lifecycleResult } from './lifecycle-reference.js'
import { stickinessResult } from './stickiness-reference.js'
import { contextOf } from './trend-period.js'
import { readTrendQuery } from './trend-query.js'
import { earliestEvent, readRows } from './trend-rows.js'
import { trendsResult } from './trend-series.js'

/**
 * PostHog's `result` for a TRENDS, STICKINESS or LIFECYCLE request. Async
 * because core's resolveDateRange is; the value is the array itself.
 */
export async function referenceTrend(params: Record<string, unknown>, data: RefDataset): Promise<unknown> {
  const query = readTrendQuery(params)
  const rows = readRows(data)
  const ctx = contextOf(data, earliestEvent(rows))
  if (query.insight === 'STICKINESS') return stickinessResult(query, params, rows, data, ctx)
  if (query.insight === 'LIFECYCLE') return lifecycleResult(query, rows, data, ctx)
  return trendsResult(query, params, rows, data, ctx)
}
