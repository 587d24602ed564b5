import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import { PERSON_ID } from '../scope/event-scope.js'
import type { QueryEnv } from '../analysis/query-env.js'
import { breakdownValueSql } from '../breakdowns/breakdown-value.js'
import type { BreakdownSpec } from '../breakdowns/breakdown-spec.js'
import { analysisScope } from '../analysis/analysis-scope.js'
import { addFilterNeeds, noNeeds, type FilterNeeds } from '../scope/filter-needs.js'
import type { PropertyCondition, PropertyFilters, PropertyGroup } from '../filters/property-filters.js'
import { eventPropertyNumber } from '../filters/compile-property-filters.js'
import { formatTimestamp } from '../../time/timestamp.js'
import type { QuerySources } from '../scope/query-sources.js'
import { seriesCondition } from '../series/series-condition.js'
import { NULL_MARKER } from '../breakdowns/breakdown-markers.js'
import { binLabelSql, type HistogramBin } from './histogram-bins.js'
import { hogqlTextCompiler } from '../scope/hogql-scope.js'
import type { TrendRequest, TrendSeries } from './trend-request.js'
import { sqlCast } from '../../db/sql-cast.js'

/** The events of one series: FROM, WHERE (scope and series condition) and the columns to read. */
export interface SeriesScope {
  readonly from: RawBuilder<unknown>
  readonly where: Expression<SqlBool>
  readonly sources: QuerySources
}

/** An inclusive range of event timestamps, in epoch microseconds; null reads all time. */
export type MicrosRange = { readonly fromMicros: number; readonly toMicros: number } | null

/**
 * The events a series counts over `range`: the project, the global and
 * test-account filters (eventScope), the series' event or action and its own
 * filters, with the joins its breakdowns read; `person` joins the persons
 * table (alias `p`) for callers that read more than properties;
 * `withoutPersons` leaves the person join out when nothing in the scope
 * reads it (the caller's math must not read the person either).
 */
export function seriesScope(
  env: QueryEnv,
  request: TrendRequest,
  series: TrendSeries,
  range: MicrosRange,
  options: { readonly person?: boolean; readonly withoutPersons?: boolean } = {},
): SeriesScope {
  const needs = addFilterNeeds(noNeeds(), series.entity.properties)
  if (options.person) needs.person = true
  // HogQL may read person properties; which ones is known only once compiled.
  if (series.math === 'hogql') needs.person = true
  const scope = analysisScope(env, { range, properties: request.properties, filterTestAccounts: request.filterTestAccounts, needs, breakdowns: request.breakdowns })
  const condition = seriesCondition(series.entity, scope.sources, (id) => env.extensions.actionCondition(id, scope.sources))
  const parts = [scope.where, condition]
  // The same bounds again as literals: DuckDB skips row groups by their min/max timestamps
  // only for constants, not for bound parameters (14 ms against 4 ms at 1M events).
  if (range) parts.push(sql<SqlBool>`e.timestamp >= ${sqlCast(sql.lit(formatTimestamp(range.fromMicros)), 'timestamptz')} and e.timestamp <= ${sqlCast(sql.lit(formatTimestamp(range.toMicros)), 'timestamptz')}`)
  const from = options.withoutPersons && !readsPersons(env, request, series, needs) ? scope.fromWithoutPersons : scope.from
  return { from, where: sql<SqlBool>`(${sql.join(parts, sql` and `)})`, sources: scope.sources }
}

/**
 * Whether the scope's WHERE or columns can read the person (`PERSON_UUID` and its override join):
 * person filters and breakdowns, cohort and HogQL filters (they read the
 * person id), action steps (they may hold either), HogQL maths and breakdowns.
 * `needs` holds the series' person and HogQL filters and a HogQL math; an
 * action series keeps the join whatever its steps read (the loaded actions'
 * needs, `env.extensions.needs`, are those of every action the query names,
 * and no other series reads them).
 */
function readsPersons(env: QueryEnv, request: TrendRequest, series: TrendSeries, needs: FilterNeeds): boolean {
  if (needs.person || series.entity.kind === 'actions') return true
  if (request.breakdowns.some((b) => b.type !== 'event' && b.type !== 'group' && b.type !== 'session')) return true
  const filters = [request.properties, series.entity.properties, ...(request.filterTestAccounts ? [env.project.testAccountFilters] : [])]
  return filters.some(hasPersonScopedFilter)
}

const hasPersonScopedFilter = (f: PropertyFilters): boolean => {
  const visit = (node: PropertyGroup | PropertyCondition): boolean =>
    'values' in node && Array.isArray(node.values) && !('key' in node)
      ? (node as PropertyGroup).values.some(visit)
      : ['person', 'cohort', 'hogql'].includes((node as PropertyCondition).type ?? 'event')
  return Array.isArray(f) ? f.some(visit) : visit(f as PropertyGroup)
}

/** The row's person as text: its person's uuid, or for a personless event its distinct id (`PERSON_ID`). */
export const personText = (): Expression<string> => PERSON_ID

const breakdownPath = (request: TrendRequest, i: number): Array<string | number> => (request.multiBreakdown ? ['breakdowns', i] : ['breakdown'])

/**
 * A breakdown dimension's value as a number (histograms); null when it is not
 * one. An event property reads its numeric column where it has one (a
 * promoted Numeric property), which holds the same `textToDouble` reading.
 */
export function breakdownNumberSql(env: QueryEnv, request: TrendRequest, i: number, sources: QuerySources): Expression<number | null> {
  const spec = request.breakdowns[i]!
  if (spec.type === 'event' && !spec.normalizeUrl) return eventPropertyNumber(sources, spec.property)
  const hogql = hogqlTextCompiler(sources, env.project.timezone, env.now)
  return sources.hooks.textToDouble(breakdownValueSql(spec, sources, hogql, breakdownPath(request, i)))
}

/** Placeholder key of a cohort dimension (replaced per cohort by the caller). */
const COHORT_KEY = '$$_sightline_cohort_$$'

/**
 * PostHog's `breakdown_normalize_url` for trends: every trailing `/`, `?` and
 * `#` removed (`trim(TRAILING '/?#' ...)`), and a value left empty (`""`,
 * `"/"`, `"?#"`) shown as `"/"`. A missing value stays missing.
 */
function normalizeUrlSql(text: Expression<string | null>): Expression<string | null> {
  return sql<string | null>`(case when ${text} is null then null when rtrim(${text}, '/?#') = '' then '/' else rtrim(${text}, '/?#') end)`
}

/**
 * Each breakdown dimension's value as PostHog shows it (reference §7.1): the
 * property's text (URL-normalised on request), PostHog's null marker for a
 * missing, null or empty value, or with a histogram the bin label from `bins[i]`.
 */
export function breakdownKeysSql(env: QueryEnv, request: TrendRequest, sources: QuerySources, bins: ReadonlyArray<ReadonlyArray<HistogramBin> | null>): Expression<string>[] {
  return request.breakdowns.map((spec: BreakdownSpec, i) => {
    // A cohort dimension is not a value of the row: the caller selects rows per cohort and names the key.
    if (spec.type === 'cohort') return sql<string>`cast(${COHORT_KEY} as text)`
    const binList = bins[i]
    if (spec.histogramBinCount !== null && binList) return binLabelSql(breakdownNumberSql(env, request, i, sources), binList)
    const hogql = hogqlTextCompiler(sources, env.project.timezone, env.now)
    const raw = breakdownValueSql({ ...spec, normalizeUrl: false }, sources, hogql, breakdownPath(request, i))
    const text = spec.normalizeUrl ? normalizeUrlSql(raw) : raw
    return sql<string>`coalesce(nullif(${text}, ''), cast(${NULL_MARKER} as text))`
  })
}
