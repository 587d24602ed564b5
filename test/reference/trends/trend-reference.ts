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
 * - Cumulative: dau and unique_group count each actor once where it first
 *   appears in range; every other math (unique_session, and weekly_active
 *   and monthly_active over their windows) is a running sum of its
 *   per-bucket values, as PostHog's trends_query_builder.py checks exactly
 *   those two maths. weekly_active and monthly_active that the runner turns
 *   into dau (week and month intervals; month for monthly) count as dau.
 *   Breakdown values are ranked by the sum of the data as displayed
 *   (cumulative data when cumulative).
 * - unique_group: events without the group are dropped before anything else
 *   (`$group_N != ''` in the builder's events filter), so they make no
 *   breakdown value.
 * - first_time_for_user: each person's earliest event matching the series
 *   and all its filters, over all time (ties: smaller uuid); counted in its
 *   bucket when in range, with that event's breakdown value.
 * - Quantiles: exact linear interpolation at (n-1)q (§15.1). Non-numeric
 *   values: anything but a finite number or a decimal numeric string.
 * - Breakdown limit: time series keep the first `breakdown_limit` values
 *   ranked (real before null, total desc, value asc, byte-wise), so null
 *   never takes a real value's slot; total-value displays keep the top values
 *   by total alone, null competing (PostHog's two ranking queries; ties,
 *   which PostHog leaves unordered there, by value asc). The rest fold into
 *   Other, recomputed over the folded rows.
 * - Histogram bins are equal-width between min and max (§7.1), edges floored
 *   to 2 decimals, the last upper edge +0.01; values in no bin show as
 *   '["",""]'; labels print floats as Python does ("1.0").
 * - Cohort breakdowns: `breakdown_value` is the cohort id (or "all"), the
 *   label the id (PostHog shows the cohort's name, which the dataset lacks;
 *   "all users" for "all"); ranked like other values, never folded.
 * - WorldMap always breaks down by event property $geoip_country_code,
 *   limit 250 by default.
 * - BoldNumber uses the exact range (explicit_date), as §3.3 says.
 * - An unknown `display` is the line graph: filter_to_query's clean_display
 *   turns a value that is no ChartDisplayType into None, and TrendsDisplay(None)
 *   is ActionsLineGraph.
 * - Formulas with a breakdown: rows are the union of values in natural
 *   order, sorted as `apply_formula` sorts them (trend-formula-rows.ts): by
 *   count alone with compare; otherwise by null/Other bucket, total (0 for a
 *   time-series value A lacks, §8's quirk), count, data and repr(value), all
 *   descending. The label stays "Formula (...)" next to `breakdown_value`.
 * - Labels: an action series is labelled with the request's `name` (the
 *   dataset holds no action names), and `action.id` is that name too:
 *   build_series_response writes `series_event()`, the action's name (§4).
 * - Compare: the -Nd kludge needs an explicit date_from (a missing one has no
 *   delta mapping); all current-period objects precede all previous ones,
 *   for stickiness too.
 * - Lifecycle: `created_at` is the person's earliest event (RefPerson has
 *   none); a personless distinct id is its own person.
 * - smoothing_intervals (trend-smoothing.ts): the newest query's arrays,
 *   each row smoothed as shown (cumulative too), breakdown values ranked by
 *   the smoothed rows, Other of a summable math the sum of the folded rows.
 * - Left out: math `hogql`, session and hogql breakdowns, Boolean property
 *   definitions, stickiness criteria and cumulative stickiness,
 *   aggregation_group_type_index for trends.
 */
import type { RefDataset } from '../shared/ref-dataset.js'
import { lifecycleResult } from '../lifecycle/lifecycle-reference.js'
import { stickinessResult } from '../stickiness/stickiness-reference.js'
import { contextOf } from './trend-period.js'
import { readTrendQuery } from './trend-query.js'
import { earliestEvent, readRows } from './trend-rows.js'
import { trendsResult } from './trend-series.js'

/**
 * PostHog's `result` for a TRENDS, STICKINESS or LIFECYCLE request. Async
 * as the date resolver (ref-dates.ts) is; the value is the array itself.
 */
export async function referenceTrend(params: Record<string, unknown>, data: RefDataset): Promise<unknown> {
  const query = readTrendQuery(params)
  const rows = readRows(data)
  const ctx = contextOf(data, earliestEvent(rows))
  if (query.insight === 'STICKINESS') return stickinessResult(query, params, rows, data, ctx)
  if (query.insight === 'LIFECYCLE') return lifecycleResult(query, rows, data, ctx)
  return trendsResult(query, params, rows, data, ctx)
}
