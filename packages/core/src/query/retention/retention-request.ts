import { Schema } from 'effect'
import { ValidationError } from '../../errors.js'
import { decodeOrThrow } from '../../util/decode.js'
import { decodeBreakdowns, type BreakdownParams, type BreakdownSpec } from '../breakdowns/breakdown-spec.js'
import { refuseUnreadParameters } from '../analysis/unread-parameters.js'
import { PropertyFilters } from '../filters/property-filters.js'
import { normalizeProperties, type EntityParams, type PropertiesParam, type SeriesEntity } from '../series/series.js'
import type { QueryControlParams } from '../analysis/analysis-params.js'
import { DEFAULT_BREAKDOWN_LIMIT } from '../breakdowns/breakdown-spec.js'
import { readLegacyParams } from '../analysis/legacy-params.js'
import { retentionEntity } from './retention-entity.js'

export const RETENTION_TYPES = ['retention_recurring', 'retention_first_time', 'retention_first_ever_occurrence'] as const
export type RetentionType = (typeof RETENTION_TYPES)[number]

export const RETENTION_PERIODS = ['hour', 'day', 'week', 'month'] as const
export type RetentionPeriod = (typeof RETENTION_PERIODS)[number]

/** A retention request, validated and defaulted. */
export interface RetentionRequest {
  /** The cohortising ("start") event or action. */
  readonly target: SeriesEntity
  /** The event or action that counts as a return. */
  readonly returning: SeriesEntity
  readonly retentionType: RetentionType
  readonly period: RetentionPeriod
  /** The number of values per row (lookahead), and the number of rows when `date_from` is absent. */
  readonly totalIntervals: number
  readonly dateFrom: string | null
  readonly dateTo: string | null
  readonly properties: PropertyFilters
  readonly filterTestAccounts: boolean
  readonly cumulative: boolean
  /** A return period counts only with at least this many return events in it. */
  readonly minimumOccurrences: number
  /** At most one dimension (PostHog's runner reads only the first). */
  readonly breakdown: BreakdownSpec | null
  readonly breakdownLimit: number
  /** null: persons; N: the group of type N on each event. */
  readonly groupTypeIndex: number | null
  /** The request as read (GET text decoded), echoed in people URLs. */
  readonly params: Readonly<Record<string, unknown>>
}

/** The legacy endpoint's default (PostHog's `RetentionFilter`, `RETENTION_DEFAULT_INTERVALS`); the query runner's is 7. */
export const DEFAULT_TOTAL_INTERVALS = 11
/** Bounds the work one request can ask for: rows x values cells. */
export const MAX_TOTAL_INTERVALS = 1000
const MAX_BREAKDOWN_LIMIT = 10_000

const Text = Schema.optional(Schema.NullOr(Schema.String))
const RetentionFields = Schema.Struct({
  retention_type: Text,
  period: Text,
  date_from: Text,
  date_to: Text,
})

type RetentionFieldsInput = typeof RetentionFields.Encoded

/**
 * The parameters of `sightline.query.retention`: PostHog's legacy retention
 * filter (what `/insights/retention/` takes). Defaults: `$pageview` for both
 * entities, `retention_recurring`, `Day`, 11 intervals ending at `date_to`
 * (default now), every person, no breakdown (25 values kept with one).
 */
export interface RetentionParams extends RetentionFieldsInput, BreakdownParams, QueryControlParams {
  /** The event or action that puts an actor in a cohort (`{ id: '$signup', type: 'events' }`). */
  readonly target_entity?: EntityParams | null
  /** The event or action that counts as a return. */
  readonly returning_entity?: EntityParams | null
  /** Default `retention_recurring`. */
  readonly retention_type?: RetentionType | null
  /** Any case; default `Day`. */
  readonly period?: 'Hour' | 'Day' | 'Week' | 'Month' | RetentionPeriod | null
  /** Values per row, and rows when `date_from` is absent: 1 to 1000, default 11. */
  readonly total_intervals?: number | null
  /** A return period counts with at least this many return events; default 1. */
  readonly minimum_occurrences?: number | null
  /** Retain groups of this type (0 to 4) instead of persons. */
  readonly aggregation_group_type_index?: number | null
  readonly properties?: PropertiesParam
  readonly filter_test_accounts?: boolean | null
  /** Each value counts the actors active in that period or any later one. */
  readonly cumulative?: boolean | null
  /** Default 25. */
  readonly breakdown_limit?: number | null
  /** Above 0, at most 1; read, not applied: the answer is exact and says so (`sampling_factor_applied: false`). */
  readonly sampling_factor?: number | null
}

const invalid = (path: ReadonlyArray<string | number>, message: string): never => {
  throw new ValidationError([{ path, message }], { context: 'invalid retention parameters' })
}
const blank = (s: string | null | undefined): string | null => (s === undefined || s === null || s.trim() === '' ? null : s.trim())

/** An integer from a number or its decimal text (GET queries and hand-written JSON send either); null when absent. */
function integerOf(value: unknown, path: keyof RetentionParams): number | null {
  if (value === undefined || value === null || value === '') return null
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d{1,15}\s*$/.test(value) ? Number(value) : Number.NaN
  if (!Number.isSafeInteger(n)) return invalid([path], `is an integer, got ${JSON.stringify(value)}`)
  return n
}

/** A boolean from `true`/`false` or their text; false when absent. */
function flagOf(value: unknown, path: keyof RetentionParams): boolean {
  if (value === undefined || value === null || value === '') return false
  if (typeof value === 'boolean') return value
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true'
  return invalid([path], `is true or false, got ${JSON.stringify(value)}`)
}

/**
 * Reads a legacy request to `/insights/retention/` (JSON body or GET query;
 * entities may be JSON text). Defaults as PostHog's legacy `RetentionFilter`:
 * `$pageview` for both entities, `retention_recurring`, `Day`, 11 intervals,
 * `date_to` now. `period` is taken in any case. Throws ValidationError
 * naming the field for anything it cannot read.
 */
export function decodeRetentionRequest(input: unknown): RetentionRequest {
  const params = readLegacyParams(input)
  const p = decodeOrThrow(RetentionFields, params, 'invalid retention parameters')
  refuseUnreadParameters(params, 'retention', 'invalid retention parameters')

  const target = retentionEntity(params.target_entity, 'target_entity')
  const returning = retentionEntity(params.returning_entity, 'returning_entity')

  const type = blank(p.retention_type) ?? 'retention_recurring'
  if (!(RETENTION_TYPES as ReadonlyArray<string>).includes(type)) invalid(['retention_type'], `unknown retention type ${JSON.stringify(type)}; use one of ${RETENTION_TYPES.join(', ')}`)

  const period = (blank(p.period) ?? 'day').toLowerCase()
  if (!(RETENTION_PERIODS as ReadonlyArray<string>).includes(period)) invalid(['period'], `unknown period ${JSON.stringify(p.period)}; use Hour, Day, Week or Month`)

  const totalIntervals = integerOf(params.total_intervals, 'total_intervals') ?? DEFAULT_TOTAL_INTERVALS
  if (totalIntervals < 1 || totalIntervals > MAX_TOTAL_INTERVALS) invalid(['total_intervals'], `total_intervals is between 1 and ${MAX_TOTAL_INTERVALS}`)

  const minimumOccurrences = integerOf(params.minimum_occurrences, 'minimum_occurrences') ?? 1
  if (minimumOccurrences < 1) invalid(['minimum_occurrences'], 'minimum_occurrences is at least 1')

  const groupTypeIndex = integerOf(params.aggregation_group_type_index, 'aggregation_group_type_index')
  if (groupTypeIndex !== null && (groupTypeIndex < 0 || groupTypeIndex > 4)) invalid(['aggregation_group_type_index'], 'aggregation_group_type_index is between 0 and 4')

  const properties = decodeOrThrow(PropertyFilters, normalizeProperties(params.properties), 'invalid property filters', ['properties'])

  const breakdowns = decodeBreakdowns(params, 3)
  if (breakdowns.length > 1) invalid([Array.isArray(params.breakdowns) && params.breakdowns.length > 0 ? 'breakdowns' : 'breakdown'], 'retention takes one breakdown')
  const breakdown = breakdowns[0] ?? null
  if (breakdown && breakdown.histogramBinCount !== null) invalid(['breakdown_histogram_bin_count'], 'retention breakdowns take no histogram bins')
  if (breakdown?.type === 'cohort' && breakdown.cohorts.length === 0) invalid(['breakdown'], 'a cohort breakdown needs at least one cohort')

  const breakdownLimit = integerOf(params.breakdown_limit, 'breakdown_limit') ?? DEFAULT_BREAKDOWN_LIMIT
  if (breakdownLimit < 1 || breakdownLimit > MAX_BREAKDOWN_LIMIT) invalid(['breakdown_limit'], `breakdown_limit is between 1 and ${MAX_BREAKDOWN_LIMIT}`)

  return {
    target,
    returning,
    retentionType: type as RetentionType,
    period: period as RetentionPeriod,
    totalIntervals,
    dateFrom: blank(p.date_from),
    dateTo: blank(p.date_to),
    properties,
    filterTestAccounts: flagOf(params.filter_test_accounts, 'filter_test_accounts'),
    cumulative: flagOf(params.cumulative, 'cumulative'),
    minimumOccurrences,
    breakdown,
    breakdownLimit,
    groupTypeIndex,
    params,
  }
}
