/**
 * PostHog's legacy filter keys, as its code names them: posthog/constants.py,
 * the filter mixins (posthog/models/filters/mixins/common.py, funnel.py,
 * paths.py, retention.py, stickiness.py, groups.py, property.py) and what
 * posthog/hogql_queries/legacy_compatibility/filter_to_query.py reads into
 * the query PostHog runs (display keys of TrendsFilter, FunnelsFilter,
 * RetentionFilter, LifecycleFilter). Each with Sightline's rule per analysis:
 * read, refused with a 400 naming it, or inert with the reason PostHog's
 * answer does not depend on it either.
 */
export type Analysis = 'trends' | 'stickiness' | 'lifecycle' | 'funnels' | 'correlation' | 'funnel-persons' | 'retention' | 'paths'
export const ANALYSES: ReadonlyArray<Analysis> = ['trends', 'stickiness', 'lifecycle', 'funnels', 'correlation', 'funnel-persons', 'retention', 'paths']

/** `read`: a value of the wrong type is a 400 naming the key (so it is decoded); `refused`: a value asking for something is a 400 naming it. */
export type Rule = 'read' | 'refused' | { readonly inert: string } | { readonly readElsewhere: string }

export interface KeySpec {
  readonly key: string
  /** Where PostHog names it. */
  readonly source: string
  /** A value that asks PostHog for something (for refused and inert keys). */
  readonly sample: unknown
  /** The sample where an analysis needs another one. */
  readonly samples?: Partial<Record<Analysis, unknown>>
  /** Parameters the key needs beside it to be read at all (a breakdown for the attribution keys). */
  readonly with?: Readonly<Record<string, unknown>>
  readonly rules: Readonly<Record<Analysis, Rule>>
}

const C = 'constants.py'
const F2Q = 'filter_to_query.py'

// Why PostHog's answer does not depend on a key.
const PEOPLE = { inert: "a people-URL key: PostHog's analysis endpoints do not read it either" }
const DISPLAY = { inert: "presentation only: PostHog's result is the same and its app draws it" }
const UNTRANSLATED = { inert: 'filter_to_query does not read it, so the query PostHog runs does not have it' }
const NO_SERIES = { inert: 'filter_to_query takes no series for RETENTION and PATHS' }
const NO_INTERVAL = { inert: 'filter_to_query takes no interval for RETENTION and PATHS' }
const NO_BREAKDOWN = { inert: 'filter_to_query reads breakdowns for TRENDS and FUNNELS only (retention takes breakdown, breakdown_type and breakdown_limit as an extension, reference §13.6)' }
const TRENDS_ONLY = { inert: 'filter_to_query reads it into TrendsFilter (or StickinessFilter) only' }
const FUNNELS_ONLY = { inert: 'filter_to_query reads it into FunnelsFilter only' }
const RETENTION_ONLY = { inert: 'filter_to_query reads it into RetentionFilter only' }
const PATHS_ONLY = { inert: 'filter_to_query reads it into PathsFilter only' }
const CORRELATION_ONLY = { inert: 'read by the correlation endpoint only' }
const NO_GROUPS = { inert: 'filter_to_query drops aggregation_group_type_index for STICKINESS and LIFECYCLE' }
const TRENDS_PEOPLE = { readElsewhere: "read for the trends view's people (funnel_viz_type trends: funnel-actors.ts trendsListing, decodeActorSteps); the steps view's people do not read it, as PostHog's steps actors do not" }

/** The same rule for every analysis, with some overridden. */
function rules(all: Rule, by: Partial<Record<Analysis, Rule>> = {}): Record<Analysis, Rule> {
  return Object.fromEntries(ANALYSES.map((a) => [a, by[a] ?? all])) as Record<Analysis, Rule>
}
/** Rules for a funnel key: read by funnels, correlation and the funnel people, `other` elsewhere. */
const funnelKey = (other: Rule, by: Partial<Record<Analysis, Rule>> = {}) => rules(other, { funnels: 'read', correlation: 'read', 'funnel-persons': 'read', ...by })
const seriesKey = (by: Partial<Record<Analysis, Rule>> = {}) => rules('read', { retention: NO_SERIES, paths: NO_SERIES, ...by })
const breakdownKey = (by: Partial<Record<Analysis, Rule>> = {}) =>
  rules('read', { stickiness: NO_BREAKDOWN, lifecycle: NO_BREAKDOWN, paths: NO_BREAKDOWN, ...by })
const trendsKey = (by: Partial<Record<Analysis, Rule>> = {}) => rules(TRENDS_ONLY, { trends: 'read', stickiness: 'read', lifecycle: 'read', ...by })
const peopleKey = (by: Partial<Record<Analysis, Rule>> = {}) => rules(PEOPLE, by)
const displayKey = () => rules(DISPLAY)
const BREAKDOWN = { breakdown: '$browser' }
const OTHER_SWITCH = { inert: "BreakdownFilter's switch hides Other in trends only (funnels fold values past breakdown_limit into Other regardless)" }
const HIDE_OTHER_FUNNELS = { funnels: OTHER_SWITCH, correlation: OTHER_SWITCH, 'funnel-persons': OTHER_SWITCH }

export const POSTHOG_KEYS: ReadonlyArray<KeySpec> = [
  { key: 'insight', source: C, sample: 'TRENDS', samples: { paths: 'PATHS', stickiness: 'STICKINESS', lifecycle: 'LIFECYCLE' }, rules: rules({ inert: 'the endpoint decides the analysis' }, { trends: 'read', stickiness: 'read', lifecycle: 'read', paths: 'read' }) },
  { key: 'date_from', source: C, sample: '-14d', rules: rules('read') },
  { key: 'date_to', source: C, sample: '-1d', rules: rules('read') },
  { key: 'explicit_date', source: C, sample: true, rules: rules('read', { retention: 'refused' }) },
  { key: 'events', source: C, sample: [{ id: 'x' }, { id: 'y' }], rules: seriesKey() },
  { key: 'actions', source: C, sample: [{ id: 1 }], rules: seriesKey() },
  { key: 'entities', source: C, sample: [{ id: 'x', type: 'events' }], rules: rules(UNTRANSLATED) },
  { key: 'data_warehouse', source: `${C} TREND_FILTER_TYPE_DATA_WAREHOUSE`, sample: [{ id: 'table', type: 'data_warehouse' }], rules: seriesKey({ funnels: 'refused', correlation: 'refused', 'funnel-persons': 'refused', trends: 'refused', stickiness: 'refused', lifecycle: 'refused' }) },
  { key: 'data_warehouse_entities', source: C, sample: [{ id: 'table', type: 'data_warehouse' }], rules: seriesKey({ funnels: 'refused', correlation: 'refused', 'funnel-persons': 'refused', trends: 'refused', stickiness: 'refused', lifecycle: 'refused' }) },
  { key: 'exclusions', source: C, sample: [{ id: 'x', funnel_from_step: 0, funnel_to_step: 1 }], rules: funnelKey(FUNNELS_ONLY) },
  { key: 'properties', source: C, sample: [{ key: '$browser', value: 'Chrome', type: 'event' }], rules: rules('read') },
  { key: 'property_groups', source: C, sample: { type: 'AND', values: [] }, rules: rules(UNTRANSLATED) },
  { key: 'interval', source: C, sample: 'week', rules: rules('read', { retention: NO_INTERVAL, paths: NO_INTERVAL }) },
  { key: 'display', source: C, sample: 'ActionsBar', rules: rules('read', { retention: DISPLAY, paths: DISPLAY }) },
  { key: 'shown_as', source: C, sample: 'Stickiness', rules: trendsKey() },
  { key: 'client_query_id', source: C, sample: 'abc', rules: rules({ readElsewhere: 'the query executor (services/query.ts) reads it to cancel an analysis' }) },
  { key: 'filter_test_accounts', source: C, sample: true, rules: rules('read') },
  { key: 'breakdown_type', source: C, sample: 'person', with: BREAKDOWN, rules: breakdownKey() },
  { key: 'breakdown_group_type_index', source: C, sample: 1, with: { breakdown: 'name', breakdown_type: 'group' }, rules: breakdownKey() },
  { key: 'compare', source: C, sample: true, rules: trendsKey() },
  { key: 'compare_to', source: C, sample: '-1w', rules: trendsKey() },
  { key: 'session', source: C, sample: 'avg', rules: rules({ inert: 'the SESSIONS insight it served is gone; filter_to_query does not read it' }) },
  { key: 'breakdown', source: C, sample: '$browser', rules: breakdownKey() },
  { key: 'breakdowns', source: C, sample: [{ property: '$browser', type: 'event' }], rules: breakdownKey() },
  { key: 'breakdown_attribution_type', source: C, sample: 'last_touch', with: BREAKDOWN, rules: funnelKey(FUNNELS_ONLY) },
  { key: 'breakdown_attribution_value', source: C, sample: 1, with: { ...BREAKDOWN, breakdown_attribution_type: 'step' }, rules: funnelKey(FUNNELS_ONLY) },
  { key: 'breakdown_limit', source: C, sample: 3, with: BREAKDOWN, rules: breakdownKey() },
  { key: 'from_dashboard', source: C, sample: 1, rules: rules({ inert: 'names the dashboard whose filters were applied (caching); the filters themselves come as keys' }) },
  { key: 'path_type', source: C, sample: '$screen', rules: rules(PATHS_ONLY, { paths: 'read' }) },
  { key: 'retention_type', source: C, sample: 'retention_first_time', rules: rules(RETENTION_ONLY, { retention: 'read' }) },
  { key: 'total_intervals', source: C, sample: 5, rules: rules(RETENTION_ONLY, { retention: 'read' }) },
  { key: 'selected_interval', source: C, sample: 1, rules: peopleKey() },
  { key: 'start_point', source: C, sample: '/a', rules: rules(PATHS_ONLY, { paths: 'read' }) },
  { key: 'end_point', source: C, sample: '/b', rules: rules(PATHS_ONLY, { paths: 'read' }) },
  { key: 'step_limit', source: C, sample: 3, rules: rules(PATHS_ONLY, { paths: 'read' }) },
  { key: 'target_entity', source: C, sample: { id: 'x', type: 'events' }, rules: rules(RETENTION_ONLY, { retention: 'read' }) },
  { key: 'returning_entity', source: C, sample: { id: 'x', type: 'events' }, rules: rules(RETENTION_ONLY, { retention: 'read' }) },
  { key: 'offset', source: C, sample: 10, rules: peopleKey() },
  { key: 'limit', source: C, sample: 10, rules: peopleKey() },
  { key: 'period', source: C, sample: 'Week', rules: rules(RETENTION_ONLY, { retention: 'read' }) },
  { key: 'stickiness_days', source: C, sample: 2, rules: peopleKey() },
  { key: 'entity_id', source: C, sample: 'a', rules: peopleKey() },
  { key: 'entity_type', source: C, sample: 'events', rules: peopleKey() },
  { key: 'entity_math', source: C, sample: 'dau', rules: peopleKey() },
  { key: 'funnel_window_interval_unit', source: C, sample: 'hour', rules: funnelKey(FUNNELS_ONLY) },
  { key: 'funnel_window_interval', source: C, sample: 3, rules: funnelKey(FUNNELS_ONLY) },
  { key: 'funnel_window_days', source: 'mixins/funnel.py', sample: 3, rules: funnelKey(FUNNELS_ONLY) },
  { key: 'funnel_from_step', source: C, sample: 0, rules: funnelKey(FUNNELS_ONLY) },
  { key: 'funnel_to_step', source: C, sample: 1, rules: funnelKey(FUNNELS_ONLY) },
  { key: 'funnel_step', source: C, sample: 1, rules: peopleKey({ 'funnel-persons': 'read' }) },
  { key: 'funnel_custom_steps', source: C, sample: [1, 2], rules: peopleKey({ 'funnel-persons': 'read' }) },
  { key: 'funnel_step_breakdown', source: 'mixins/funnel.py', sample: 'Chrome', rules: peopleKey({ 'funnel-persons': { readElsewhere: 'kept as given and matched against the breakdown values when the people are listed (funnel-actors.ts)' } }) },
  { key: 'funnel_order_type', source: 'mixins/funnel.py', sample: 'strict', rules: funnelKey(FUNNELS_ONLY) },
  { key: 'funnel_viz_type', source: 'mixins/funnel.py', sample: 'trends', rules: funnelKey(FUNNELS_ONLY) },
  { key: 'bin_count', source: 'mixins/funnel.py', sample: 5, rules: funnelKey(FUNNELS_ONLY) },
  { key: 'layout', source: 'mixins/funnel.py', sample: 'vertical', rules: displayKey() },
  { key: 'entrance_period_start', source: 'mixins/funnel.py', sample: '2024-03-01', rules: peopleKey({ 'funnel-persons': TRENDS_PEOPLE }) },
  { key: 'drop_off', source: 'mixins/funnel.py', sample: true, rules: peopleKey({ 'funnel-persons': TRENDS_PEOPLE }) },
  { key: 'funnel_aggregate_by_hogql', source: F2Q, sample: 'properties.$session_id', rules: funnelKey(FUNNELS_ONLY) },
  { key: 'funnel_step_reference', source: F2Q, sample: 'previous', rules: displayKey() },
  { key: 'funnel_correlation_type', source: C, sample: 'properties', rules: rules(CORRELATION_ONLY, { correlation: 'read' }) },
  { key: 'funnel_correlation_names', source: C, sample: ['plan'], rules: rules(CORRELATION_ONLY, { correlation: 'read' }) },
  { key: 'funnel_correlation_exclude_names', source: C, sample: ['plan'], rules: rules(CORRELATION_ONLY, { correlation: 'read' }) },
  { key: 'funnel_correlation_event_names', source: C, sample: ['x'], rules: rules(CORRELATION_ONLY, { correlation: 'read' }) },
  { key: 'funnel_correlation_exclude_event_names', source: C, sample: ['x'], rules: rules(CORRELATION_ONLY, { correlation: 'read' }) },
  { key: 'funnel_correlation_event_exclude_property_names', source: C, sample: ['x'], rules: rules(CORRELATION_ONLY, { correlation: 'read' }) },
  { key: 'funnel_correlation_person_entity', source: 'mixins/funnel.py', sample: { id: 'x', type: 'events' }, rules: peopleKey() },
  { key: 'funnel_correlation_property_values', source: 'mixins/funnel.py', sample: [{ key: 'plan', value: 'pro' }], rules: peopleKey() },
  // Read as the page of the correlation persons by the HTTP layer (http-adapter internal/people-page.ts), as limit and offset are.
  { key: 'funnel_correlation_person_limit', source: 'mixins/funnel.py', sample: 5, rules: peopleKey() },
  { key: 'funnel_correlation_person_offset', source: 'mixins/funnel.py', sample: 5, rules: peopleKey() },
  { key: 'cache_invalidation_key', source: 'funnel_correlation.py construct_people_url', sample: 'Ab3xYz9q', rules: peopleKey() },
  { key: 'funnel_correlation_person_converted', source: 'mixins/funnel.py', sample: 'true', rules: peopleKey() },
  { key: 'funnel_paths', source: C, sample: 'funnel_path_after_step', with: { funnel_filter: { events: [{ id: 'a' }, { id: 'b' }], funnel_step: 1 } }, rules: rules(PATHS_ONLY, { paths: 'read' }) },
  { key: 'funnel_filter', source: F2Q, sample: { events: [{ id: 'a' }, { id: 'b' }] }, rules: rules(PATHS_ONLY, { paths: 'read' }) },
  { key: 'paths_hogql_expression', source: C, sample: 'event', rules: rules(PATHS_ONLY, { paths: 'read' }) },
  { key: 'include_event_types', source: C, sample: ['$pageview'], rules: rules(PATHS_ONLY, { paths: 'read' }) },
  { key: 'include_custom_events', source: C, sample: ['x'], rules: rules(UNTRANSLATED) },
  { key: 'exclude_events', source: C, sample: ['x'], rules: rules(PATHS_ONLY, { paths: 'read' }) },
  { key: 'path_groupings', source: C, sample: ['/a/*'], rules: rules(PATHS_ONLY, { paths: 'read' }) },
  { key: 'path_replacements', source: C, sample: true, rules: rules(PATHS_ONLY, { paths: 'read' }) },
  { key: 'local_path_cleaning_filters', source: C, sample: [{ alias: 'x', regex: 'y' }], rules: rules(PATHS_ONLY, { paths: 'read' }) },
  { key: 'path_start_key', source: C, sample: '1_/a', rules: peopleKey() },
  { key: 'path_end_key', source: C, sample: '2_/b', rules: peopleKey() },
  { key: 'path_dropoff_key', source: C, sample: '2_/b', rules: peopleKey() },
  { key: 'edge_limit', source: C, sample: 5, rules: rules(PATHS_ONLY, { paths: 'read' }) },
  { key: 'min_edge_weight', source: C, sample: 2, rules: rules(PATHS_ONLY, { paths: 'read' }) },
  { key: 'max_edge_weight', source: C, sample: 2, rules: rules(PATHS_ONLY, { paths: 'read' }) },
  {
    key: 'aggregation_group_type_index',
    source: C,
    sample: 0,
    rules: rules('read', {
      trends: { inert: "TrendsQuery carries it, but the trends runner counts by each series' math (math_group_type_index)" },
      stickiness: NO_GROUPS,
      lifecycle: NO_GROUPS,
    }),
  },
  { key: 'breakdown_histogram_bin_count', source: C, sample: 3, with: { breakdown: 'amount' }, rules: breakdownKey({ retention: 'refused' }) },
  { key: 'breakdown_hide_other_aggregation', source: C, sample: true, with: BREAKDOWN, rules: trendsKey({ ...HIDE_OTHER_FUNNELS, retention: NO_BREAKDOWN, stickiness: NO_BREAKDOWN, lifecycle: NO_BREAKDOWN }) },
  { key: 'breakdown_normalize_url', source: C, sample: true, with: BREAKDOWN, rules: breakdownKey() },
  // Read (a number above 0, at most 1), not applied: the answer is exact and says so (sampling-factor.ts).
  { key: 'sampling_factor', source: C, sample: 0.1, rules: rules('read') },
  { key: 'smoothing_intervals', source: 'mixins/common.py', sample: 7, rules: trendsKey() },
  { key: 'selector', source: 'mixins/common.py', sample: 'a', rules: rules({ inert: 'SelectorMixin served the element stats endpoint; no analysis reads it' }) },
  { key: 'formula', source: 'mixins/common.py', sample: 'A*2', rules: trendsKey() },
  { key: 'breakdown_value', source: 'mixins/common.py', sample: 'Chrome', rules: peopleKey() },
  { key: 'search', source: 'mixins/common.py', sample: 'ada', rules: peopleKey() },
  { key: 'include_recordings', source: 'mixins/common.py', sample: true, rules: peopleKey() },
  { key: 'type', source: 'mixins/common.py EntityTypeMixin', sample: 'events', rules: peopleKey() },
  { key: 'retention_reference', source: F2Q, sample: 'previous', rules: displayKey() },
  { key: 'cumulative', source: 'RetentionFilter', sample: true, rules: rules(RETENTION_ONLY, { retention: 'read' }) },
  { key: 'minimum_occurrences', source: 'RetentionFilter', sample: 2, rules: rules(RETENTION_ONLY, { retention: 'read' }) },
  { key: 'mean_retention_calculation', source: 'RetentionFilter', sample: 'weighted', rules: displayKey() },
  { key: 'show_legend', source: F2Q, sample: true, rules: displayKey() },
  { key: 'hidden_legend_keys', source: F2Q, sample: { 0: true }, rules: displayKey() },
  { key: 'aggregation_axis_format', source: F2Q, sample: 'percentage', rules: displayKey() },
  { key: 'aggregation_axis_prefix', source: F2Q, sample: '$', rules: displayKey() },
  { key: 'aggregation_axis_postfix', source: F2Q, sample: '%', rules: displayKey() },
  { key: 'decimal_places', source: F2Q, sample: 2, rules: displayKey() },
  { key: 'show_values_on_series', source: F2Q, sample: true, rules: displayKey() },
  { key: 'show_percent_stack_view', source: F2Q, sample: true, rules: displayKey() },
  { key: 'show_label_on_series', source: F2Q, sample: true, rules: displayKey() },
  { key: 'toggledLifecycles', source: F2Q, sample: ['new'], rules: rules({ inert: "LifecycleFilter's toggles hide statuses in PostHog's app; the result holds all four" }) },
]
