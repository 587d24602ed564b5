import { Schema } from 'effect'
import { ValidationError } from '../../errors.js'
import { decodeOrThrow } from '../../util/decode.js'
import { DEFAULT_BREAKDOWN_LIMIT, decodeBreakdowns, type BreakdownSpec } from '../breakdowns/breakdown-spec.js'
import { INTERVALS, isInterval, type Interval } from '../dates/interval.js'
import { parseRelativeDate } from '../dates/relative-date.js'
import { refuseUnreadParameters } from '../analysis/unread-parameters.js'
import { PropertyFilters } from '../filters/property-filters.js'
import { decodeSeries, normalizeProperties, type SeriesEntity } from '../series/series.js'
import { isDisplay, isTotalValueDisplay, type Display } from '../analysis/displays.js'
import { FormulaSyntaxError, parseFormula, type FormulaNode } from './formula/formula-parse.js'
import { readLegacyParams } from '../analysis/legacy-params.js'
import { isMath, isPropertyMath, MATHS, STICKINESS_MATHS, type MathName } from './maths.js'
import type { QueryControlParams } from '../analysis/analysis-params.js'
import type { BreakdownParams } from '../breakdowns/breakdown-spec.js'
import type { PropertiesParam, SeriesParams } from '../series/series.js'
import type { PeriodsInput } from '../dates/periods.js'

export type Insight = 'TRENDS' | 'STICKINESS' | 'LIFECYCLE'

/** One series with its math checked. */
export interface TrendSeries {
  readonly entity: SeriesEntity
  readonly math: MathName
  /** The property of a property math; null otherwise. */
  readonly mathProperty: string | null
  /** `$group_N` of `unique_group`; null otherwise. */
  readonly groupTypeIndex: number | null
  /** `label`: the event name, "All events", or the action's name as the request gives it (its id without one). */
  readonly label: string
}

/** A legacy trend, stickiness or lifecycle request, validated and defaulted (PostHog's `filter_to_query`). */
export interface TrendRequest {
  readonly insight: Insight
  readonly series: ReadonlyArray<TrendSeries>
  readonly properties: PropertyFilters
  readonly filterTestAccounts: boolean
  readonly interval: Interval
  readonly dateFrom: string | null
  readonly dateTo: string | null
  readonly explicitDate: boolean
  /** As asked for; only TRENDS draws by it (stickiness and lifecycle echo it). */
  readonly display: Display
  /** A TRENDS total-value display: one value per series over the range. */
  readonly totalValue: boolean
  readonly formula: { readonly text: string; readonly node: FormulaNode } | null
  readonly compare: boolean
  readonly compareTo: string | null
  /** Empty without a breakdown; up to three dimensions. */
  readonly breakdowns: ReadonlyArray<BreakdownSpec>
  /** True when `breakdowns` (the list form) was used: values are lists. */
  readonly multiBreakdown: boolean
  readonly breakdownLimit: number
  readonly hideOther: boolean
  /**
   * `smoothing_intervals`: a time series' points become rolling averages over
   * this many buckets (`smoothing.ts`); 1 = none. Always 1 where PostHog does
   * not smooth: stickiness, lifecycle and total-value displays.
   */
  readonly smoothingIntervals: number
  /** The request as read (GET text decoded), echoed in `filter` and persons URLs. */
  readonly params: Readonly<Record<string, unknown>>
}

const Text = Schema.optional(Schema.NullOr(Schema.String))
const Flag = Schema.optional(Schema.NullOr(Schema.Boolean))
const Int = Schema.optional(Schema.NullOr(Schema.Int))
const TrendFields = Schema.Struct({
  insight: Text,
  shown_as: Text,
  date_from: Text,
  date_to: Text,
  explicit_date: Flag,
  interval: Text,
  display: Text,
  formula: Text,
  compare: Flag,
  compare_to: Text,
  filter_test_accounts: Flag,
  breakdown_limit: Int,
  breakdown_hide_other_aggregation: Flag,
  smoothing_intervals: Int,
})

type TrendFieldsInput = typeof TrendFields.Encoded

/**
 * The parameters of `sightline.query.trend`: PostHog's legacy trend filter
 * (what `POST /insights/trend/` takes). At least one series (`events`,
 * `actions`). Defaults: `TRENDS`, `day`, the line graph, the last 7 days
 * (`date_from` `-7d`), math `total`, no breakdown (25 values kept with one,
 * 250 for `WorldMap`).
 */
export interface TrendParams extends TrendFieldsInput, SeriesParams, BreakdownParams, QueryControlParams {
  /** Default `TRENDS` (any case). */
  readonly insight?: Insight | null
  /** `Stickiness` reads as `insight: STICKINESS`. */
  readonly shown_as?: 'Volume' | 'Stickiness' | 'Lifecycle' | null
  /** Default `day`. */
  readonly interval?: Interval | null
  /** Default `ActionsLineGraph` (a display Sightline does not know reads as that). The total-value displays answer one `aggregated_value` per series. */
  readonly display?: Display | null
  readonly properties?: PropertiesParam
  /** Above 0, at most 1; read, not applied: the answer is exact and says so (`sampling_factor_applied: false`). */
  readonly sampling_factor?: number | null
}

/** The world map's default breakdown limit, larger than `DEFAULT_BREAKDOWN_LIMIT` (reference §7.2). */
export const WORLD_MAP_BREAKDOWN_LIMIT = 250
/** The most breakdown dimensions trends take (PostHog keeps 3). */
export const MAX_BREAKDOWNS = 3
const MAX_BREAKDOWN_LIMIT = 10_000

const invalid = (path: ReadonlyArray<string | number>, message: string): never => {
  throw new ValidationError([{ path, message }], { context: 'invalid trend parameters' })
}
const blank = (s: string | null | undefined): string | null => (s === undefined || s === null || s.trim() === '' ? null : s)

/**
 * Reads a legacy request to `/insights/trend/` (JSON body or GET query, see
 * `readLegacyParams`). `insight` is TRENDS (default), STICKINESS (also
 * `shown_as: "Stickiness"`) or LIFECYCLE. Throws ValidationError naming the
 * field: an unknown insight, interval, display or math; a math without the
 * property or group type it needs; a formula that does not parse or names a
 * series that does not exist; an unreadable `compare_to`; no series at all.
 */
export function decodeTrendRequest(input: unknown): TrendRequest {
  const params = readLegacyParams(input)
  const p = decodeOrThrow(TrendFields, params, 'invalid trend parameters')
  const insight = insightOf(p.insight ?? null, p.shown_as ?? null)
  refuseUnreadParameters(params, insight === 'TRENDS' ? 'trends' : insight === 'STICKINESS' ? 'stickiness' : 'lifecycle', 'invalid trend parameters')

  const intervalText = blank(p.interval) ?? 'day'
  if (!isInterval(intervalText)) invalid(['interval'], `unknown interval ${JSON.stringify(intervalText)}; use one of ${INTERVALS.join(', ')}`)
  const interval = intervalText as Interval

  // PostHog's filter_to_query (clean_display) reads a display it does not know as the line graph;
  // refusing it would break clients that send newer displays.
  const displayText = blank(p.display) ?? 'ActionsLineGraph'
  const display = (isDisplay(displayText) ? displayText : 'ActionsLineGraph') as Display

  const entities = decodeSeries({ events: params.events, actions: params.actions })
  if (entities.length === 0) invalid(['events'], 'a trend needs at least one event or action')
  checkMaths(params, insight)
  const series = entities.map((e) => checkSeries(e, insight))

  const properties = decodeOrThrow(PropertyFilters, normalizeProperties(params.properties), 'invalid property filters', ['properties'])

  const formulaText = insight === 'TRENDS' ? blank(p.formula) : null
  let formula: TrendRequest['formula'] = null
  if (formulaText !== null) {
    try {
      formula = { text: formulaText, node: parseFormula(formulaText, series.length) }
    } catch (error) {
      if (!(error instanceof FormulaSyntaxError)) throw error
      invalid(['formula'], `${error.message} (at character ${error.position + 1})`)
    }
  }

  const compareTo = blank(p.compare_to)
  if (compareTo !== null && parseRelativeDate(compareTo.trim()) === null) invalid(['compare_to'], `cannot read ${JSON.stringify(compareTo)}; use a relative date such as -1d, -1w, -1m`)

  // PostHog's SmoothingIntervalsMixin: missing (or 0, which Python reads as missing) is 1; below 1 is refused.
  const smoothing = p.smoothing_intervals || 1
  if (smoothing < 1) invalid(['smoothing_intervals'], 'Smoothing intervals must be a positive integer!')

  const worldMap = insight === 'TRENDS' && display === 'WorldMap'
  const breakdowns = insight !== 'TRENDS' ? [] : worldMap ? [worldMapBreakdown] : decodeBreakdowns(params, MAX_BREAKDOWNS)
  for (const [i, b] of breakdowns.entries()) checkBreakdown(b, Array.isArray(params.breakdowns) && params.breakdowns.length > 0 ? ['breakdowns', i] : ['breakdown'])
  const limit = p.breakdown_limit ?? (worldMap ? WORLD_MAP_BREAKDOWN_LIMIT : DEFAULT_BREAKDOWN_LIMIT)
  if (limit < 1 || limit > MAX_BREAKDOWN_LIMIT) invalid(['breakdown_limit'], `breakdown_limit is between 1 and ${MAX_BREAKDOWN_LIMIT}`)

  return {
    insight,
    series,
    properties,
    filterTestAccounts: p.filter_test_accounts === true,
    interval,
    dateFrom: blank(p.date_from),
    dateTo: blank(p.date_to),
    explicitDate: p.explicit_date === true,
    display,
    totalValue: insight === 'TRENDS' && isTotalValueDisplay(display),
    formula,
    compare: insight !== 'LIFECYCLE' && (p.compare === true || compareTo !== null),
    compareTo: insight !== 'LIFECYCLE' ? compareTo : null,
    breakdowns,
    multiBreakdown: !worldMap && breakdowns.length > 0 && Array.isArray(params.breakdowns) && params.breakdowns.length > 0,
    breakdownLimit: limit,
    hideOther: p.breakdown_hide_other_aggregation === true,
    smoothingIntervals: insight === 'TRENDS' && !isTotalValueDisplay(display) ? smoothing : 1,
    params,
  }
}

function insightOf(insight: string | null, shownAs: string | null): Insight {
  if (shownAs === 'Stickiness') return 'STICKINESS'
  const i = blank(insight)?.toUpperCase() ?? 'TRENDS'
  if (i === 'TRENDS' || i === 'STICKINESS' || i === 'LIFECYCLE') return i
  return invalid(['insight'], `this endpoint answers TRENDS, STICKINESS or LIFECYCLE, not ${JSON.stringify(insight)}`)
}

// The world map shows countries (reference §6).
const worldMapBreakdown: BreakdownSpec = { type: 'event', property: '$geoip_country_code', cohorts: [], groupTypeIndex: null, normalizeUrl: false, histogramBinCount: null }

function checkBreakdown(b: BreakdownSpec, path: ReadonlyArray<string | number>): void {
  if (b.type === 'hogql' && b.histogramBinCount !== null) invalid(path, 'a HogQL breakdown takes no histogram bins')
}

interface MathFields {
  readonly math?: unknown
  readonly math_property?: unknown
  readonly math_group_type_index?: unknown
  readonly math_hogql?: unknown
}

/** A series' math after PostHog's rewrites, checked; throws ValidationError under `path`. */
function seriesMath(fields: MathFields, insight: Insight, path: ReadonlyArray<string | number>): Pick<TrendSeries, 'math' | 'mathProperty' | 'groupTypeIndex'> {
  const given = typeof fields.math === 'string' ? blank(fields.math) : null
  let math: MathName = 'total'
  if (given !== null) {
    if (!isMath(given)) invalid([...path, 'math'], `unknown math ${JSON.stringify(given)}; use one of ${MATHS.join(', ')}`)
    math = given as MathName
  }
  if (insight === 'STICKINESS' && !STICKINESS_MATHS.includes(math)) math = 'dau'
  if (insight === 'LIFECYCLE') math = 'total'
  let mathProperty: string | null = null
  if (isPropertyMath(math)) {
    mathProperty = typeof fields.math_property === 'string' ? blank(fields.math_property) : null
    if (mathProperty === null) invalid([...path, 'math_property'], `math ${JSON.stringify(math)} needs math_property`)
  }
  let groupTypeIndex: number | null = null
  if (math === 'unique_group') {
    const g = fields.math_group_type_index
    if (typeof g !== 'number' || !Number.isInteger(g) || g < 0 || g > 4) invalid([...path, 'math_group_type_index'], 'math "unique_group" needs math_group_type_index between 0 and 4')
    groupTypeIndex = g as number
  }
  if (math === 'hogql') {
    if (insight === 'STICKINESS') invalid([...path, 'math'], 'math "hogql" is not supported in stickiness')
    if (typeof fields.math_hogql !== 'string' || blank(fields.math_hogql) === null) invalid([...path, 'math_hogql'], 'math "hogql" needs math_hogql, an aggregate expression such as avg(properties.x)')
  }
  return { math, mathProperty, groupTypeIndex }
}

/** Checks every series' math where the client wrote it, so errors name `events[i]` or `actions[i]`. */
function checkMaths(params: Record<string, unknown>, insight: Insight): void {
  for (const kind of ['actions', 'events'] as const) {
    const list = params[kind]
    if (!Array.isArray(list)) continue
    list.forEach((item, i) => {
      if (typeof item === 'object' && item !== null) seriesMath(item as MathFields, insight, [kind, i])
    })
  }
}

function checkSeries(entity: SeriesEntity, insight: Insight): TrendSeries {
  const math = seriesMath({ math: entity.math, math_property: entity.mathProperty, math_group_type_index: entity.mathGroupTypeIndex, math_hogql: entity.mathHogql }, insight, [entity.kind, entity.index])
  const label = entity.kind === 'actions' ? (blank(entity.name) ?? String(entity.actionId)) : (entity.event ?? 'All events')
  return { entity, ...math, label }
}

/** The periods a trend, stickiness or lifecycle request reads: BoldNumber reads the exact range; lifecycle never compares (its decoder says so). */
export const trendPeriodsInput = (request: TrendRequest): PeriodsInput => ({
  interval: request.interval,
  dateFrom: request.dateFrom,
  dateTo: request.dateTo,
  explicitDate: request.explicitDate || (request.insight === 'TRENDS' && request.display === 'BoldNumber'),
  compare: request.compare,
  compareTo: request.compareTo,
})
