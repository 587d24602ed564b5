import { createHash } from 'node:crypto'
import { sql } from 'kysely'
import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { ValidationError } from '../errors.js'
import type { ActionDefinition } from '../model/action.js'
import { readActions } from '../query/actions/load-actions.js'
import { MINUTE } from '../query/dates/civil.js'
import { decodeFunnelRequest } from '../query/funnels/params/decode-funnel-params.js'
import type { QueryProject } from '../query/scope/query-project.js'
import { readLegacyParams } from '../query/trends/legacy-params.js'
import { decodeTrendRequest } from '../query/trends/trend-request.js'
import { canonicalJson } from './changes.js'
import { applyDashboardFilters } from './dashboard-filters.js'
import { insightDependencies, type InsightDependencies } from './insight-dependencies.js'
import { nextBoundaryMs, nextRangeChangeMs, resolveRanges, type RangeInput } from './insight-range.js'
import { legacyParamsOfQuery } from './query-node.js'
import type { RefreshBasis } from './staleness.js'

type Json = Record<string, unknown>

/** What an insight computes, and everything its cache entry needs to know. */
export interface InsightPlan {
  /** `sightline.query` method that computes it. */
  readonly analysis: 'trend' | 'funnel'
  /** The legacy filters the analysis is called with (dashboard overrides applied). */
  readonly params: Json
  /** Hex SHA-256 of the normalised params, time zone, week start, test-account filters in use and the named actions' steps. */
  readonly cacheKey: string
  readonly basis: RefreshBasis
  /** Events with timestamps in this range (epoch microseconds) change the answer; null: unbounded on that side. */
  readonly rangeFromMicros: number | null
  readonly rangeToMicros: number | null
  readonly dependencies: InsightDependencies
  /** When the relative dates will resolve differently; null: never. */
  readonly expiresAtMs: number | null
}

/** An insight that computes, or the reason it does not (its result is null). */
export type InsightSource = { readonly plan: InsightPlan } | { readonly unsupported: string }

/** What a saved insight holds: its filters, or the query node that takes precedence. */
export interface InsightDefinition {
  readonly filters: Json
  readonly query: Json | null
}

// PostHog's EARLIEST_TIMESTAMP: earlier timestamps are clock errors, not the start of "all".
const EARLIEST_TIMESTAMP = '2015-01-01T00:00:00.000000Z'
/** Parameters of a request that do not change its answer. */
const NOT_PARAMS = new Set(['client_query_id', 'refresh', 'from_dashboard'])

/** Top-level keys without a value dropped, `insight` spelled as the decoders read it: equal requests hash equal. */
function normalise(params: Json): Json {
  const out: Json = {}
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '' && !NOT_PARAMS.has(k)) out[k] = v
  out.insight = typeof out.insight === 'string' ? out.insight.toUpperCase() : 'TRENDS'
  return out
}

/** A ValidationError of the analysis' params, moved under the insight's field (`filters` or `query`); other errors as they are. */
function underField(field: 'filters' | 'query', error: unknown): unknown {
  if (!(error instanceof ValidationError)) return error
  return new ValidationError(
    error.issues.map((i) => ({ path: [field, ...i.path], message: i.message })),
    { context: `the insight's ${field} cannot be computed`, cause: error },
  )
}

async function under<T>(field: 'filters' | 'query', run: () => T | Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw underField(field, error)
  }
}

/**
 * Plans the computation of an insight in `project` at `now`: its legacy
 * params (the query node translated when there is one, `dashboardFilters`
 * applied), the analysis, its resolved range, dependencies, expiry and cache
 * key. Retention, paths, untranslatable query nodes and insights without
 * filters come back `unsupported`. Throws ValidationError under `filters` or
 * `query` when the analysis would refuse the params.
 */
export async function planInsight(ctx: EngineContext, project: QueryProject, insight: InsightDefinition, dashboardFilters: Json | null, now: Date): Promise<InsightSource> {
  const field = insight.query !== null ? 'query' : 'filters'
  let params: Json
  if (insight.query !== null) {
    const translated = legacyParamsOfQuery(insight.query)
    if ('unsupported' in translated) return translated
    params = translated.params
  } else {
    if (Object.keys(insight.filters).length === 0) return { unsupported: 'the insight has neither filters nor a query' }
    params = insight.filters
  }
  // JSON text in list keys (how GET query strings carry them) is read as the analyses read it.
  params = await under(field, () => readLegacyParams(params))
  if (dashboardFilters !== null) params = applyDashboardFilters(params, dashboardFilters)

  const type = typeof params.insight === 'string' && params.insight.trim() !== '' ? params.insight.trim().toUpperCase() : 'TRENDS'
  if (type === 'RETENTION' || type === 'PATHS') return { unsupported: `${type} insights are not computed yet (retention and paths come with issue 7)` }
  if (type !== 'TRENDS' && type !== 'STICKINESS' && type !== 'LIFECYCLE' && type !== 'FUNNELS') return { unsupported: `${type} insights are not computed` }

  // PostHog answers an empty result for a trend without series; the analyses refuse one, so nothing is computed.
  const listed = (list: unknown) => (Array.isArray(list) ? list.length : 0)
  if (type !== 'FUNNELS' && listed(params.events) + listed(params.actions) === 0) return { unsupported: 'the insight has no series' }

  let range: RangeInput
  let basis: Pick<RefreshBasis, 'kind' | 'interval'>
  let analysis: InsightPlan['analysis']
  if (type === 'FUNNELS') {
    const r = await under(field, () => decodeFunnelRequest(params))
    analysis = 'funnel'
    basis = { kind: 'funnels', interval: r.interval }
    range = { interval: r.interval, dateFrom: r.dateFrom, dateTo: r.dateTo, explicitDate: r.explicitDate, compare: false, compareTo: null }
  } else {
    const r = await under(field, () => decodeTrendRequest(params))
    analysis = 'trend'
    basis = { kind: r.insight === 'STICKINESS' ? 'stickiness' : r.insight === 'LIFECYCLE' ? 'lifecycle' : 'trends', interval: r.interval }
    range = {
      interval: r.interval,
      dateFrom: r.dateFrom,
      dateTo: r.dateTo,
      // As `requestPeriods`: BoldNumber reads the exact range, and lifecycle never compares.
      explicitDate: r.explicitDate || (r.insight === 'TRENDS' && r.display === 'BoldNumber'),
      compare: r.insight !== 'LIFECYCLE' && r.compare,
      compareTo: r.insight !== 'LIFECYCLE' ? r.compareTo : null,
    }
  }

  let earliest: Promise<Date | null> | undefined
  const context = { timezone: project.timezone, weekStartDay: project.weekStartDay, earliestEvent: () => (earliest ??= earliestEvent(ctx, project.id)) }
  const resolved = await under(field, () => resolveRanges(range, context, now))
  const testAccountFilters = params.filter_test_accounts === true ? project.testAccountFilters : null
  const actions = await actionsNamed(ctx, project.id, params)
  const dependencies = insightDependencies(basis.kind, params, [testAccountFilters, ...actions.map((a) => a.steps)])
  let expiresAtMs = await nextRangeChangeMs(range, context, now)
  if (dependencies.movesWithNow) expiresAtMs = Math.min(expiresAtMs ?? Infinity, nextBoundaryMs(project.timezone, now.getTime(), MINUTE))

  const key = {
    version: 1,
    analysis,
    params: normalise(params),
    timezone: project.timezone,
    weekStartDay: project.weekStartDay,
    testAccountFilters,
    // An edited action is another computation: its steps are part of the key.
    actions: actions.map((a) => [a.id, a.steps]),
  }
  return {
    plan: {
      analysis,
      params,
      cacheKey: createHash('sha256').update(canonicalJson(key)).digest('hex'),
      basis: { ...basis, fromMs: resolved.currentFromMs, toMs: resolved.currentToMs },
      rangeFromMicros: dependencies.unboundedBefore ? null : resolved.fromMicros - dependencies.lookbackMs * 1000,
      rangeToMicros: dependencies.unboundedAfter ? null : resolved.toMicros,
      dependencies,
      expiresAtMs,
    },
  }
}

/** The actions the series, steps and exclusions name that exist, by id. */
async function actionsNamed(ctx: EngineContext, projectId: number, params: Json): Promise<ActionDefinition[]> {
  const items = (list: unknown): Json[] => (Array.isArray(list) ? list.filter((e): e is Json => typeof e === 'object' && e !== null) : [])
  const ids = [...items(params.actions), ...items(params.exclusions).filter((e) => e.type === 'actions')].map((e) => Number(e.id))
  const found = await readActions(ctx, projectId, ids, { includeDeleted: false })
  return [...found.values()].sort((a, b) => a.id - b.id)
}

async function earliestEvent(ctx: EngineContext, projectId: number): Promise<Date | null> {
  const query = sql<{ t: string | null }>`select min(timestamp) as t from events where project_id = ${projectId} and timestamp > cast(${EARLIEST_TIMESTAMP} as timestamptz)`
  const [row] = (await runStorage('read earliest event', () => query.execute(ctx.db))).rows
  return row?.t ? new Date(row.t) : null
}
