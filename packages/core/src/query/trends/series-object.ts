import { bucketDay, bucketLabel, isoInZone } from '../dates/bucket-labels.js'
import { documentedFilterFields } from './filter-echo.js'
import type { Period } from '../dates/periods.js'
import { personsUrl, type PersonsLink } from './persons-url.js'
import type { SeriesOutcome, ValueRow } from './series-values.js'
import type { MathName } from './maths.js'
import type { TrendRequest, TrendSeries } from './trend-request.js'

/** One element of a trend's `result`, in PostHog's shape (reference §4, §6). */
export interface TrendSeriesObject {
  data: number[] | null
  labels?: string[]
  days: string[]
  count: number
  aggregated_value?: number
  label: string
  filter?: Record<string, unknown>
  /** The series' entity and math; null for a formula's rows. */
  action: TrendAction | null
  breakdown_value?: string | number | string[]
  compare?: boolean
  compare_label?: 'current' | 'previous' | null
  persons_urls?: PersonsLink[]
  persons?: PersonsLink
}

/** The `action` compatibility object PostHog's runner writes (`build_series_response`). */
export interface TrendAction {
  /** The bucket starts, ISO date-times in the project's zone. */
  days: string[]
  /** The series' label; null for "All events". */
  id: string | null
  type: 'events'
  order: number
  name: string
  custom_name: string | null
  math: MathName
  math_property: string | null
  math_hogql: string | null
  math_group_type_index: number | null
  /** Always empty, as PostHog's is. */
  properties: Record<string, never>
}

/** The `action` object of a series over a period. */
export function actionObject(series: TrendSeries, period: Period): TrendAction {
  const e = series.entity
  return {
    days: period.starts.map((ms) => isoInZone(period.timeZone, ms * 1000)),
    id: e.kind === 'events' && e.event === null ? null : series.label,
    type: 'events',
    order: e.index,
    name: series.label,
    custom_name: e.customName,
    math: series.math,
    math_property: series.mathProperty,
    math_hogql: e.mathHogql,
    math_group_type_index: series.groupTypeIndex ?? e.mathGroupTypeIndex,
    properties: {},
  }
}

/**
 * The request echoed (reference §4: "the request echoed in legacy form"): the
 * parameters as read, with the insight, interval and display as used and this
 * period's resolved bounds, as PostHog's `_query_to_filter` puts them; the
 * entities and properties as `filter-echo.ts` writes them.
 */
export function filterObject(request: TrendRequest, period: Period): Record<string, unknown> {
  return {
    ...request.params,
    insight: request.insight,
    interval: request.interval,
    display: request.display,
    date_from: isoInZone(period.timeZone, period.fromMicros),
    date_to: isoInZone(period.timeZone, period.toMicros),
    filter_test_accounts: request.filterTestAccounts,
    ...documentedFilterFields(request),
    entity_type: 'events',
  }
}

/** Names shown for breakdown values that are ids (cohorts). */
export interface BreakdownNames {
  cohortName(cohortId: number): string | null
  /** The stored name of an action; PostHog labels an action series by it (`series_event`). */
  actionName?(actionId: number): string | null
}

const isCohort = (request: TrendRequest) => request.breakdowns[0]?.type === 'cohort'

/**
 * The label of a breakdown row: the value (parts joined by `::`; a cohort's
 * name, "all users" for `all`), prefixed by the series label when there are
 * several series.
 */
function rowLabel(request: TrendRequest, series: TrendSeries, row: ValueRow, names: BreakdownNames): string {
  if (request.breakdowns.length === 0) return series.label
  const part = row.parts[0]!
  const value = isCohort(request) ? (part === 'all' ? 'all users' : (names.cohortName(Number(part)) ?? part)) : row.parts.join('::')
  return request.series.length > 1 ? `${series.label} - ${value}` : value
}

/** `breakdown_value`: the text, a list for a multi-breakdown, a cohort's id (a number) or `all`. */
function breakdownValue(request: TrendRequest, row: ValueRow): string | number | string[] {
  if (request.multiBreakdown) return [...row.parts]
  const part = row.parts[0]!
  return isCohort(request) && part !== 'all' ? Number(part) : part
}

/** The objects of one series over one period, one per row. */
export function seriesObjects(request: TrendRequest, outcome: SeriesOutcome, projectId: number, names: BreakdownNames): TrendSeriesObject[] {
  const { period } = outcome
  const stored = outcome.series.entity.kind === 'actions' ? names.actionName?.(outcome.series.entity.actionId!) : null
  const series = stored ? { ...outcome.series, label: stored } : outcome.series
  const filter = filterObject(request, period)
  const action = actionObject(series, period)
  // The same for every row: computed once, copied per row.
  const labels = request.totalValue ? [] : period.starts.map((ms) => bucketLabel(period, ms))
  const days = request.totalValue ? [] : period.starts.map((ms) => bucketDay(period, ms))
  return outcome.rows.map((row) => {
    const base: TrendSeriesObject = request.totalValue
      ? { data: [], days: [], count: 0, aggregated_value: row.values[0] ?? 0, label: rowLabel(request, series, row, names), filter, action }
      : {
          data: [...row.values],
          labels: [...labels],
          days: [...days],
          count: request.display === 'ActionsLineGraphCumulative' ? (row.values[row.values.length - 1] ?? 0) : row.values.reduce((a, b) => a + b, 0),
          label: rowLabel(request, series, row, names),
          filter,
          action,
        }
    if (period.compareLabel !== null) {
      base.compare = true
      base.compare_label = period.compareLabel
    }
    if (request.breakdowns.length > 0) base.breakdown_value = breakdownValue(request, row)
    if (request.formula === null) {
      if (request.totalValue) base.persons = personsUrl(projectId, request, series, period, row, null)
      else base.persons_urls = period.starts.map((_, i) => personsUrl(projectId, request, series, period, row, i))
    }
    return base
  })
}
