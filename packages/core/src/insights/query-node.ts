import { ValidationError } from '../errors.js'

type Json = Record<string, unknown>
type Path = ReadonlyArray<string | number>

/** A query node as the legacy filters the analyses read, or why it cannot be computed. */
export type QueryTranslation = { readonly params: Json } | { readonly unsupported: string }

const INSIGHT_OF_KIND: Readonly<Record<string, string>> = {
  TrendsQuery: 'TRENDS',
  StickinessQuery: 'STICKINESS',
  LifecycleQuery: 'LIFECYCLE',
  FunnelsQuery: 'FUNNELS',
  RetentionQuery: 'RETENTION',
  PathsQuery: 'PATHS',
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const invalid = (path: Path, message: string) => new ValidationError([{ path: ['query', ...path], message }], { context: 'invalid insight query' })

/** Copies the keys of `from` that are set into `to`, renamed (`[nodeName, legacyName]`). */
function copy(from: unknown, to: Json, names: ReadonlyArray<readonly [string, string]>): void {
  if (!isObject(from)) return
  for (const [node, legacy] of names) if (from[node] !== undefined && from[node] !== null) to[legacy] = from[node]
}

const SERIES_FIELDS = [
  ['name', 'name'],
  ['custom_name', 'custom_name'],
  ['math', 'math'],
  ['math_property', 'math_property'],
  ['math_group_type_index', 'math_group_type_index'],
  ['math_hogql', 'math_hogql'],
  ['properties', 'properties'],
] as const

/** An `EventsNode` or `ActionsNode` as a legacy `events` or `actions` item; null for other nodes. */
function entityOf(node: unknown, order: number, path: Path): { list: 'events' | 'actions'; item: Json } | null {
  if (!isObject(node)) throw invalid(path, 'expected a series node (an object with a kind)')
  const item: Json = { order }
  copy(node, item, SERIES_FIELDS)
  if (node.kind === 'EventsNode') return { list: 'events', item: { id: node.event ?? null, type: 'events', ...item } }
  if (node.kind === 'ActionsNode') return { list: 'actions', item: { id: node.id, type: 'actions', ...item } }
  return null
}

/**
 * The legacy filters of a simple insight query node (PostHog's
 * `InsightVizNode` around a `TrendsQuery`, `StickinessQuery`,
 * `LifecycleQuery`, `FunnelsQuery`, `RetentionQuery` or `PathsQuery`, or
 * the bare source): series, date
 * range, interval, properties, test accounts, breakdowns, compare, display,
 * one formula, the funnel settings and exclusions; retention and paths
 * filters (funnel paths with their funnel). Anything whose meaning would be lost in the translation (data warehouse series, several formulas, cumulative or interval-count stickiness, HogQL
 * and other node kinds) comes back `unsupported` with the reason. Throws
 * ValidationError under `query` for a malformed node.
 */
export function legacyParamsOfQuery(query: Json): QueryTranslation {
  const viz = query.kind === 'InsightVizNode'
  const source = viz ? query.source : query
  const at: Path = viz ? ['source'] : []
  if (!isObject(source)) throw invalid(at, 'expected the insight query node (an object with a kind)')
  const kind = typeof source.kind === 'string' ? source.kind : String(source.kind)
  const insight = INSIGHT_OF_KIND[kind]
  if (insight === undefined) return { unsupported: `${kind} nodes are not computed by saved insights; only trends, stickiness, lifecycle, funnels, retention and paths queries are` }

  const params: Json = { insight }
  const series = source.series ?? []
  if (!Array.isArray(series)) throw invalid([...at, 'series'], `a ${kind}'s series is a list of EventsNode or ActionsNode`)
  for (const [i, node] of series.entries()) {
    const entity = entityOf(node, i, [...at, 'series', i])
    if (entity === null) return { unsupported: `series ${i} is a ${String((node as Json).kind)}; only EventsNode and ActionsNode series are computed` }
    ;((params[entity.list] ??= []) as Json[]).push(entity.item)
  }
  copy(source, params, [
    ['interval', 'interval'],
    ['properties', 'properties'],
    ['filterTestAccounts', 'filter_test_accounts'],
    ['aggregation_group_type_index', 'aggregation_group_type_index'],
    ['samplingFactor', 'sampling_factor'],
  ])
  copy(source.dateRange, params, [
    ['date_from', 'date_from'],
    ['date_to', 'date_to'],
    ['explicitDate', 'explicit_date'],
  ])
  copy(source.breakdownFilter, params, [
    ['breakdown', 'breakdown'],
    ['breakdown_type', 'breakdown_type'],
    ['breakdown_limit', 'breakdown_limit'],
    ['breakdown_group_type_index', 'breakdown_group_type_index'],
    ['breakdown_histogram_bin_count', 'breakdown_histogram_bin_count'],
    ['breakdown_normalize_url', 'breakdown_normalize_url'],
    ['breakdown_hide_other_aggregation', 'breakdown_hide_other_aggregation'],
    ['breakdowns', 'breakdowns'],
  ])
  copy(source.compareFilter, params, [
    ['compare', 'compare'],
    ['compare_to', 'compare_to'],
  ])

  if (kind === 'RetentionQuery') retentionFilter(source.retentionFilter, params)
  if (kind === 'PathsQuery') {
    const unsupported = pathsFilter(source, params)
    if (unsupported !== null) return { unsupported }
  }
  const reason = kind === 'TrendsQuery' ? trendsFilter(source.trendsFilter, params) : kind === 'StickinessQuery' ? stickinessFilter(source, params) : null
  if (reason !== null) return { unsupported: reason }
  if (kind === 'FunnelsQuery') {
    const unsupported = funnelsFilter(source.funnelsFilter, params, [...at, 'funnelsFilter'])
    if (unsupported !== null) return { unsupported }
  }
  return { params }
}

/** `retentionFilter` as `filter_to_query` reads it back: the legacy retention keys. */
function retentionFilter(filter: unknown, params: Json): void {
  copy(filter, params, [
    ['period', 'period'],
    ['totalIntervals', 'total_intervals'],
    ['retentionType', 'retention_type'],
    ['targetEntity', 'target_entity'],
    ['returningEntity', 'returning_entity'],
    ['cumulative', 'cumulative'],
    ['minimumOccurrences', 'minimum_occurrences'],
    ['retentionReference', 'retention_reference'],
  ])
}

/** `pathsFilter` as the legacy path keys; `funnelPathsFilter` as `funnel_paths` and `funnel_filter` (its funnel's legacy filters plus `funnel_step`). */
function pathsFilter(source: Json, params: Json): string | null {
  const funnelPaths = source.funnelPathsFilter
  if (isObject(funnelPaths)) {
    if (typeof funnelPaths.funnelPathType !== 'string') return 'funnel paths without a funnelPathType are not computed'
    if (!isObject(funnelPaths.funnelSource)) return 'funnel paths without their funnelSource are not computed'
    const funnel = legacyParamsOfQuery(funnelPaths.funnelSource)
    if ('unsupported' in funnel) return `the funnel of these funnel paths: ${funnel.unsupported}`
    params.funnel_paths = funnelPaths.funnelPathType
    params.funnel_filter = { ...funnel.params, funnel_step: funnelPaths.funnelStep ?? null }
  }
  copy(source.pathsFilter, params, [
    ['includeEventTypes', 'include_event_types'],
    ['startPoint', 'start_point'],
    ['endPoint', 'end_point'],
    ['stepLimit', 'step_limit'],
    ['excludeEvents', 'exclude_events'],
    ['pathGroupings', 'path_groupings'],
    ['pathReplacements', 'path_replacements'],
    ['localPathCleaningFilters', 'local_path_cleaning_filters'],
    ['edgeLimit', 'edge_limit'],
    ['minEdgeWeight', 'min_edge_weight'],
    ['maxEdgeWeight', 'max_edge_weight'],
    ['pathsHogQLExpression', 'paths_hogql_expression'],
  ])
  return null
}

function trendsFilter(filter: unknown, params: Json): string | null {
  if (!isObject(filter)) return null
  copy(filter, params, [
    ['display', 'display'],
    ['formula', 'formula'],
    ['smoothingIntervals', 'smoothing_intervals'],
  ])
  const formulas = [
    ...(Array.isArray(filter.formulas) ? filter.formulas : []),
    ...(Array.isArray(filter.formulaNodes) ? filter.formulaNodes.map((n) => (isObject(n) ? n.formula : n)) : []),
  ].filter((f) => typeof f === 'string' && f.trim() !== '')
  if (formulas.length > 1) return 'several formulas are not computed; the legacy trend takes one'
  if (formulas.length === 1) params.formula = formulas[0]
  return null
}

function stickinessFilter(source: Json, params: Json): string | null {
  if (source.intervalCount !== undefined && source.intervalCount !== null && source.intervalCount !== 1) return 'stickiness with intervalCount other than 1 is not computed'
  const filter = source.stickinessFilter
  if (!isObject(filter)) return null
  if (filter.computedAs === 'cumulative') return 'cumulative stickiness is not computed'
  if (filter.stickinessCriteria !== undefined && filter.stickinessCriteria !== null) return 'stickiness criteria are not computed'
  copy(filter, params, [['display', 'display']])
  return null
}

function funnelsFilter(filter: unknown, params: Json, path: Path): string | null {
  if (!isObject(filter)) return null
  copy(filter, params, [
    ['funnelVizType', 'funnel_viz_type'],
    ['funnelOrderType', 'funnel_order_type'],
    ['funnelWindowInterval', 'funnel_window_interval'],
    ['funnelWindowIntervalUnit', 'funnel_window_interval_unit'],
    ['funnelFromStep', 'funnel_from_step'],
    ['funnelToStep', 'funnel_to_step'],
    ['funnelAggregateByHogQL', 'funnel_aggregate_by_hogql'],
    ['breakdownAttributionType', 'breakdown_attribution_type'],
    ['breakdownAttributionValue', 'breakdown_attribution_value'],
    ['binCount', 'bin_count'],
  ])
  if (filter.exclusions === undefined || filter.exclusions === null) return null
  if (!Array.isArray(filter.exclusions)) throw invalid([...path, 'exclusions'], 'expected a list of exclusion nodes')
  const exclusions: Json[] = []
  for (const [i, node] of filter.exclusions.entries()) {
    const entity = entityOf(node, i, [...path, 'exclusions', i])
    if (entity === null) return `exclusion ${i} is not an EventsNode or ActionsNode`
    const n = node as Json
    exclusions.push({ ...entity.item, funnel_from_step: n.funnelFromStep, funnel_to_step: n.funnelToStep })
  }
  params.exclusions = exclusions
  return null
}
