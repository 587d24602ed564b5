import type { AnalysisKind } from './staleness.js'

type Json = Record<string, unknown>

const DAY = 86_400_000
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * What besides the events of its date range a computed insight reads, so its
 * cached result can be dropped when any of it changes. Conservative: when in
 * doubt, a dependency is assumed.
 */
export interface InsightDependencies {
  /** Events before the range count (`date_from: all`, lifecycle, first-time math, cohorts, sessions, HogQL). */
  readonly unboundedBefore: boolean
  /** Events after the range count (cohorts, sessions and HogQL may read any event). */
  readonly unboundedAfter: boolean
  /** Events this long before the range count (weekly and monthly active users' windows). */
  readonly lookbackMs: number
  /** Persons merging changes the answer (anything counted or filtered by person). */
  readonly onMerge: boolean
  /** Person or group properties changing changes the answer. */
  readonly onPersonChange: boolean
  /** The answer moves with "now" itself (behavioural cohorts' windows), not only with the range. */
  readonly movesWithNow: boolean
}

/** Maths counting events or event properties: persons play no part. */
const EVENT_MATHS = new Set(['total', 'sum', 'avg', 'min', 'max', 'median', 'p75', 'p90', 'p95', 'p99', 'unique_session', 'unique_group'])
const PERSON_TYPES = new Set(['person', 'group', 'cohort', 'static-cohort', 'precalculated-cohort', 'hogql'])
const NOW_TYPES = new Set(['cohort', 'static-cohort', 'precalculated-cohort'])
const ANYTIME_TYPES = new Set(['cohort', 'static-cohort', 'precalculated-cohort', 'session', 'hogql'])

/** The `type` of every property filter (an object with a `key`) and breakdown anywhere in `value`. */
function typesIn(value: unknown, into: Set<string>, depth = 0): Set<string> {
  if (depth > 64) return into
  if (Array.isArray(value)) for (const v of value) typesIn(v, into, depth + 1)
  else if (isObject(value)) {
    if ('key' in value && typeof value.type === 'string') into.add(value.type)
    if (typeof value.breakdown_type === 'string') into.add(value.breakdown_type)
    if (value.breakdown !== undefined && value.breakdown !== null && value.breakdown_type === undefined) into.add('event')
    for (const [k, v] of Object.entries(value)) if (k !== 'type') typesIn(v, into, depth + 1)
  }
  return into
}

/** Every entity of the request: series, steps, exclusions, and retention's start and return entities. */
const seriesOf = (params: Json): Json[] => [
  ...[params.events, params.actions, params.exclusions].flatMap((list) => (Array.isArray(list) ? list.filter(isObject) : [])),
  ...[params.target_entity, params.returning_entity].filter(isObject),
]

/**
 * The dependencies of `params` (legacy filters, as computed) for an analysis
 * of `kind`. `alsoApplied` are filters the analysis applies besides
 * `params`' own: the project's test-account filters when used, and the
 * steps of the actions it names.
 */
export function insightDependencies(kind: AnalysisKind, params: Json, alsoApplied: ReadonlyArray<unknown>): InsightDependencies {
  const types = typesIn(params, new Set())
  for (const filters of alsoApplied) typesIn(filters, types)
  for (const b of Array.isArray(params.breakdowns) ? params.breakdowns : []) if (isObject(b) && typeof b.type === 'string') types.add(b.type)
  const series = seriesOf(params)
  const maths = series.map((s) => (typeof s.math === 'string' && s.math !== '' ? s.math : 'total'))
  const hogql =
    types.has('hogql') ||
    maths.includes('hogql') ||
    series.some((s) => typeof s.math_hogql === 'string' && s.math_hogql !== '') ||
    (typeof params.funnel_aggregate_by_hogql === 'string' && params.funnel_aggregate_by_hogql.trim() !== '') ||
    // Paths' node names by a HogQL expression may read person properties (and, like every HogQL, any event).
    (typeof params.paths_hogql_expression === 'string' && params.paths_hogql_expression.trim() !== '')
  // A first-time math reads each person's events before the range (funnel steps group them by person even when aggregating by groups).
  const firstTime = maths.some((m) => m === 'first_time_for_user' || m === 'first_time_for_user_with_filters')
  // Funnel paths read the funnel over its own date range, whatever the paths' range.
  const funnelPaths = kind === 'paths' && typeof params.funnel_paths === 'string' && params.funnel_paths !== '' && params.funnel_filter !== undefined && params.funnel_filter !== null
  const anytime = hogql || funnelPaths || [...types].some((t) => ANYTIME_TYPES.has(t))
  const readsPersonProperties = hogql || [...types].some((t) => PERSON_TYPES.has(t))
  // Retention's cohorts and paths' sequences are per person.
  const countsPersons =
    kind === 'retention' ||
    kind === 'paths' ||
    kind === 'stickiness' ||
    kind === 'lifecycle' ||
    (kind === 'funnels' && (params.aggregation_group_type_index === undefined || params.aggregation_group_type_index === null || firstTime)) ||
    (kind === 'trends' && maths.some((m) => !EVENT_MATHS.has(m)))
  const lookbackDays = maths.includes('monthly_active') ? 31 : maths.includes('weekly_active') ? 8 : 0
  return {
    unboundedBefore:
      anytime ||
      params.date_from === 'all' ||
      kind === 'lifecycle' ||
      firstTime ||
      // A first-time cohort is the actor's first start event ever: earlier events move actors out of the window.
      (kind === 'retention' && typeof params.retention_type === 'string' && params.retention_type !== 'retention_recurring'),
    unboundedAfter: anytime,
    lookbackMs: lookbackDays * DAY,
    onMerge: countsPersons || readsPersonProperties,
    onPersonChange: readsPersonProperties,
    movesWithNow: [...types].some((t) => NOW_TYPES.has(t)),
  }
}
