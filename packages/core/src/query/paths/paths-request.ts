import { ValidationError } from '../../errors.js'
import { decodeOrThrow } from '../../util/decode.js'
import { refuseUnreadParameters } from '../analysis/unread-parameters.js'
import { regexProblem } from '../filters/filter-values.js'
import { PropertyFilters } from '../filters/property-filters.js'
import { normalizeProperties, type PropertiesParam } from '../series/series.js'
import type { QueryControlParams } from '../analysis/analysis-params.js'
import { portableRegexProblem } from './portable-regex.js'
import { decodeFunnelPaths, type FunnelPathType, type FunnelPaths } from './funnel-paths.js'
import type { FunnelPersonsParams } from '../funnels/params/decode-funnel-params.js'

/** What `include_event_types` may name (PostHog's `PathType`). */
export const PATH_EVENT_TYPES = ['$pageview', '$screen', 'custom_event', 'hogql'] as const
export type PathEventType = (typeof PATH_EVENT_TYPES)[number]

/** A cleaning rule: every match of `regex` in a node name becomes `alias`. */
export interface PathCleaningRule {
  readonly alias: string
  readonly regex: string
}

/** A legacy paths request, validated and defaulted (PostHog's `PathsFilter` through `filter_to_query`). */
export interface PathsRequest {
  /** Empty: every event, named by its event name (or the HogQL expression). */
  readonly includeEventTypes: ReadonlyArray<PathEventType>
  readonly hogqlExpression: string | null
  /** With one trailing `/` removed (reference §14.2), or null. */
  readonly startPoint: string | null
  readonly endPoint: string | null
  readonly stepLimit: number
  readonly excludeEvents: ReadonlyArray<string>
  readonly pathGroupings: ReadonlyArray<string>
  /** Apply the project's cleaning rules before the local ones. */
  readonly pathReplacements: boolean
  readonly localCleaningRules: ReadonlyArray<PathCleaningRule>
  /** Null: no bound. PostHog reads 0 as no bound too. */
  readonly minEdgeWeight: number | null
  readonly maxEdgeWeight: number | null
  readonly edgeLimit: number
  readonly dateFrom: string | null
  readonly dateTo: string | null
  readonly explicitDate: boolean
  readonly properties: PropertyFilters
  readonly filterTestAccounts: boolean
  /** Paths after, before or between the steps of a funnel's persons (`funnel_paths`, `funnel_filter`); null: everyone's. */
  readonly funnelPaths: FunnelPaths | null
}

/**
 * The parameters of `sightline.query.paths`: PostHog's legacy paths filter
 * (what `/insights/path/` takes). Defaults: every event by name, 5 steps,
 * 50 edges, the last 7 days (`date_from` `-7d`), every person.
 */
export interface PathsParams extends QueryControlParams {
  /** `PATHS` (any case) when given. */
  readonly insight?: 'PATHS' | null
  /** The nodes: page views (`$current_url`), screens, other events by name, a HogQL expression. Default every event by name. */
  readonly include_event_types?: ReadonlyArray<PathEventType> | null
  /** The legacy single event type (read when `include_event_types` is absent). */
  readonly path_type?: PathEventType | null
  /** The node of each event, with `include_event_types: ['hogql']`. */
  readonly paths_hogql_expression?: string | null
  /** Paths start at this node (one trailing `/` ignored). */
  readonly start_point?: string | null
  /** Paths end at this node. */
  readonly end_point?: string | null
  /** Nodes per path: 1 to 1000, default 5. */
  readonly step_limit?: number | null
  readonly exclude_events?: ReadonlyArray<string> | null
  /** Wildcard groupings (`/product/*`): matching nodes become one. */
  readonly path_groupings?: ReadonlyArray<string> | null
  /** Apply the project's path cleaning rules first. */
  readonly path_replacements?: boolean | null
  /** More cleaning rules: every match of `regex` in a node becomes `alias`. */
  readonly local_path_cleaning_filters?: ReadonlyArray<{ readonly alias?: string | null; readonly regex: string }> | null
  /** Edges of lower (higher) weight are left out; 0 or absent: no bound. */
  readonly min_edge_weight?: number | null
  readonly max_edge_weight?: number | null
  /** Edges kept: 1 to 10000, default 50. */
  readonly edge_limit?: number | null
  readonly date_from?: string | null
  readonly date_to?: string | null
  readonly explicit_date?: boolean | null
  readonly properties?: PropertiesParam
  readonly filter_test_accounts?: boolean | null
  /** Accepted and not used: paths count persons (as PostHog's do). */
  readonly aggregation_group_type_index?: number | null
  /** Above 0, at most 1; read, not applied: the answer is exact and says so (`sampling_factor_applied: false`). */
  readonly sampling_factor?: number | null
  /** The paths of a funnel step's persons: after the step, before it, or between it and the step before; needs `funnel_filter`. */
  readonly funnel_paths?: FunnelPathType | null
  /** The funnel (its own request, JSON text too) with `funnel_step` (and `funnel_step_breakdown`) naming whose paths. */
  readonly funnel_filter?: (FunnelPersonsParams & { readonly funnel_step: number }) | string | null
}

type Key = keyof PathsParams

/** PostHog's EVENT_IN_SESSION_LIMIT_DEFAULT and EDGE_LIMIT_DEFAULT. */
export const DEFAULT_STEP_LIMIT = 5
export const DEFAULT_EDGE_LIMIT = 50
const MAX_STEP_LIMIT = 1_000
const MAX_EDGE_LIMIT = 10_000
const MAX_LIST = 1_000

const CONTEXT = 'invalid paths parameters'
export const invalidPaths = (path: ReadonlyArray<string | number>, message: string): ValidationError =>
  new ValidationError([{ path, message }], { context: CONTEXT })

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u)

/**
 * Reads a request to `/insights/path/` (JSON body, or a GET query whose
 * values arrive as JSON or text). Unknown keys are ignored, as PostHog's
 * `Filter` ignores them. Throws ValidationError naming the field: an unknown
 * event type, a list that is not a list of strings, a cleaning rule without
 * a readable regex, limits that are not positive integers, a funnel path
 * request that is not one (funnel-paths.ts), unreadable property filters.
 */
export function decodePathsRequest(input: unknown): PathsRequest {
  if (input === undefined || input === null) input = {}
  if (!isObject(input)) throw invalidPaths([], 'paths parameters are a JSON object')
  const p = input

  const insight = text(p, 'insight')
  if (insight !== null && insight.toUpperCase() !== 'PATHS') throw invalidPaths(['insight'], `this endpoint answers PATHS, not ${JSON.stringify(insight)}`)
  const funnelPaths = decodeFunnelPaths(p)

  // The legacy `path_type` names one event type (PostHog's Filter turns it into include_event_types).
  refuseUnreadParameters(p, 'paths', CONTEXT)

  const types = present(p.include_event_types) ? stringList(p, 'include_event_types') : present(p.path_type) ? [text(p, 'path_type')!] : []
  types.forEach((t, i) => {
    if (!(PATH_EVENT_TYPES as ReadonlyArray<string>).includes(t)) {
      throw invalidPaths(present(p.include_event_types) ? ['include_event_types', i] : ['path_type'], `unknown event type ${JSON.stringify(t)}; use ${PATH_EVENT_TYPES.join(', ')}`)
    }
  })

  const minEdgeWeight = count(p, 'min_edge_weight', 0, Number.MAX_SAFE_INTEGER)
  const maxEdgeWeight = count(p, 'max_edge_weight', 0, Number.MAX_SAFE_INTEGER)
  const aggregation = p.aggregation_group_type_index
  // Accepted and not used: PostHog's paths runner counts persons whatever this says.
  if (present(aggregation) && !(typeof aggregation === 'number' && Number.isInteger(aggregation) && aggregation >= 0 && aggregation <= 4)) {
    throw invalidPaths(['aggregation_group_type_index'], 'aggregation_group_type_index is a group type index between 0 and 4')
  }

  return {
    includeEventTypes: [...new Set(types as PathEventType[])],
    hogqlExpression: text(p, 'paths_hogql_expression'),
    startPoint: point(text(p, 'start_point')),
    endPoint: point(text(p, 'end_point')),
    stepLimit: count(p, 'step_limit', 1, MAX_STEP_LIMIT) ?? DEFAULT_STEP_LIMIT,
    excludeEvents: stringList(p, 'exclude_events'),
    pathGroupings: stringList(p, 'path_groupings'),
    pathReplacements: flag(p, 'path_replacements'),
    localCleaningRules: cleaningRules(p, 'local_path_cleaning_filters'),
    minEdgeWeight: minEdgeWeight || null,
    maxEdgeWeight: maxEdgeWeight || null,
    edgeLimit: count(p, 'edge_limit', 1, MAX_EDGE_LIMIT) ?? DEFAULT_EDGE_LIMIT,
    dateFrom: text(p, 'date_from'),
    dateTo: text(p, 'date_to'),
    explicitDate: flag(p, 'explicit_date'),
    properties: decodeOrThrow(PropertyFilters, normalizeProperties(json(p, 'properties')), 'invalid property filters', ['properties']),
    filterTestAccounts: flag(p, 'filter_test_accounts'),
    funnelPaths,
  }
}

/**
 * A start or end point as PostHog compares it: one trailing `/` removed
 * unless it is the whole text, so `/about/` finds `/about` (page URLs lose
 * theirs the same way). Blank is no point.
 */
function point(value: string | null): string | null {
  if (value === null) return null
  return value.length > 1 && value.endsWith('/') ? value.slice(0, -1) : value
}

const present = (v: unknown): boolean => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0)

/** A text value; numbers and booleans are their JSON text (a GET query gives `start_point=404` as a number). Blank is null. */
function text(p: Record<string, unknown>, key: Key): string | null {
  const v = p[key]
  if (v === undefined || v === null) return null
  if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  if (typeof v === 'boolean') return String(v)
  if (typeof v !== 'string') throw invalidPaths([key], 'is text')
  if (v.trim() === '') return null
  return checkStorable(v, [key])
}

function checkStorable(v: string, path: ReadonlyArray<string | number>): string {
  if (!v.isWellFormed() || v.includes('\u0000')) throw invalidPaths(path, 'contains U+0000 or an unpaired UTF-16 surrogate')
  return v
}

/** A list or object key that may arrive as JSON text (a GET query, or a client that stringifies). */
function json(p: Record<string, unknown>, key: Key): unknown {
  const v = p[key]
  if (typeof v !== 'string' || !/^\s*[[{]/.test(v)) return v
  try {
    return JSON.parse(v)
  } catch {
    throw invalidPaths([key], 'is not valid JSON')
  }
}

function stringList(p: Record<string, unknown>, key: Key): string[] {
  const v = json(p, key)
  if (v === undefined || v === null) return []
  if (!Array.isArray(v)) throw invalidPaths([key], 'is a list of texts')
  if (v.length > MAX_LIST) throw invalidPaths([key], `holds at most ${MAX_LIST} entries`)
  return v.map((item, i) => {
    if (typeof item === 'number' && Number.isFinite(item)) return String(item)
    if (typeof item !== 'string') throw invalidPaths([key, i], 'is text')
    return checkStorable(item, [key, i])
  })
}

function flag(p: Record<string, unknown>, key: Key): boolean {
  const v = p[key]
  if (v === undefined || v === null) return false
  if (typeof v === 'boolean') return v
  if (typeof v === 'string' && /^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === 'true'
  throw invalidPaths([key], 'is true or false')
}

/** A whole number in `[min, max]`, or null when missing; 0 is null too (PostHog's `value or default`). */
function count(p: Record<string, unknown>, key: Key, min: number, max: number): number | null {
  let v = p[key]
  if (v === undefined || v === null || v === '') return null
  if (typeof v === 'string' && /^\s*-?\d{1,15}\s*$/.test(v)) v = Number(v.trim())
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0 || v > max) throw invalidPaths([key], `is a whole number between ${min} and ${max}`)
  if (v === 0) return null
  if (v < min) throw invalidPaths([key], `is a whole number between ${min} and ${max}`)
  return v
}

/** `[{alias, regex}]`: every regex must be one every database reads alike (see portableRegexProblem). */
function cleaningRules(p: Record<string, unknown>, key: Key): PathCleaningRule[] {
  const v = json(p, key)
  if (v === undefined || v === null) return []
  if (!Array.isArray(v)) throw invalidPaths([key], 'is a list of {alias, regex}')
  if (v.length > MAX_LIST) throw invalidPaths([key], `holds at most ${MAX_LIST} entries`)
  return v.map((rule, i) => checkCleaningRule(rule, [key, i]))
}

/** One `{alias, regex}` rule checked at `path`: both texts (a missing alias is ''), the regex readable. */
export function checkCleaningRule(rule: unknown, path: ReadonlyArray<string | number>): PathCleaningRule {
  if (!isObject(rule)) throw invalidPaths(path, 'is an object {alias, regex}')
  const { alias, regex } = rule
  if (typeof regex !== 'string' || regex === '') throw invalidPaths([...path, 'regex'], 'is a non-empty regular expression')
  if (alias !== undefined && alias !== null && typeof alias !== 'string') throw invalidPaths([...path, 'alias'], 'is text')
  checkStorable(regex, [...path, 'regex'])
  const problem = regexProblem(regex) ?? portableRegexProblem(regex)
  if (problem) throw invalidPaths([...path, 'regex'], problem)
  return { alias: checkStorable(typeof alias === 'string' ? alias : '', [...path, 'alias']), regex }
}
