import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import type { SqlHooks } from '../../storage.js'
import type { QueryExtensions } from '../analysis/query-extensions.js'
import { breakdownValueSql } from '../breakdowns/breakdown-value.js'
import type { BreakdownSpec } from '../breakdowns/breakdown-spec.js'
import { eventScope } from '../scope/event-scope.js'
import { addFilterNeeds, noNeeds } from '../scope/filter-needs.js'
import type { QueryProject } from '../scope/query-project.js'
import type { QuerySources } from '../scope/query-sources.js'
import { seriesCondition } from '../series/series-condition.js'
import { NULL_MARKER } from './breakdown-markers.js'
import { binLabelSql, type HistogramBin } from './histogram-bins.js'
import type { TrendRequest, TrendSeries } from './trend-request.js'

/** What every query of one analysis shares: the project, the dialect, actions and cohorts. */
export interface QueryEnv {
  readonly project: QueryProject
  readonly hooks: SqlHooks
  readonly extensions: QueryExtensions
}

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
 * table (alias `p`) for callers that read more than properties.
 */
export function seriesScope(env: QueryEnv, request: TrendRequest, series: TrendSeries, range: MicrosRange, options: { readonly person?: boolean } = {}): SeriesScope {
  const needs = addFilterNeeds(noNeeds(), series.entity.properties)
  if (options.person) needs.person = true
  for (const b of request.breakdowns) {
    if (b.type === 'person') needs.person = true
    if (b.type === 'group' && b.groupTypeIndex !== null) needs.groups.add(b.groupTypeIndex)
  }
  const scope = eventScope({
    project: env.project,
    hooks: env.hooks,
    range,
    properties: request.properties,
    filterTestAccounts: request.filterTestAccounts,
    needs,
    extensions: env.extensions.filterSources,
  })
  const condition = seriesCondition(series.entity, scope.sources, (id) => env.extensions.actionCondition(id, scope.sources))
  return { from: scope.from, where: sql<SqlBool>`(${scope.where} and ${condition})`, sources: scope.sources }
}

/**
 * The row's person as text: its person's uuid, or for a personless event its
 * distinct id. `QuerySources.personId` spells this as `coalesce(pdi.person_uuid,
 * e.distinct_id)`, which neither database accepts (uuid and text do not mix
 * in COALESCE); this reads the same aliases with the cast inside.
 */
export const personText = (): Expression<string> => sql<string>`coalesce(cast(pdi.person_uuid as text), e.distinct_id)`

const breakdownPath = (request: TrendRequest, i: number): Array<string | number> => (request.multiBreakdown ? ['breakdowns', i] : ['breakdown'])

/** A breakdown dimension's value as a number (histograms); null when it is not one. */
export function breakdownNumberSql(request: TrendRequest, i: number, sources: QuerySources): Expression<number | null> {
  return sources.hooks.textToDouble(breakdownValueSql(request.breakdowns[i]!, sources, undefined, breakdownPath(request, i)))
}

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
export function breakdownKeysSql(request: TrendRequest, sources: QuerySources, bins: ReadonlyArray<ReadonlyArray<HistogramBin> | null>): Expression<string>[] {
  return request.breakdowns.map((spec: BreakdownSpec, i) => {
    const binList = bins[i]
    if (spec.histogramBinCount !== null && binList) return binLabelSql(breakdownNumberSql(request, i, sources), binList)
    const raw = breakdownValueSql({ ...spec, normalizeUrl: false }, sources, undefined, breakdownPath(request, i))
    const text = spec.normalizeUrl ? normalizeUrlSql(raw) : raw
    return sql<string>`coalesce(nullif(${text}, ''), cast(${NULL_MARKER} as text))`
  })
}
