import { createHash } from 'node:crypto'
import { sql } from 'kysely'
import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { ValidationError } from '../errors.js'
import type { ActionDefinition } from '../model/action.js'
import { readActions } from '../query/actions/load-actions.js'
import { MINUTE } from '../query/dates/civil.js'
import { analysisOfInsight, insightDatesOf, type InsightAnalysisName } from '../query/analysis/analysis-registry.js'
import type { InsightDates } from '../query/analysis/insight-dates.js'
import type { QueryProject } from '../query/scope/query-project.js'
import { readLegacyParams } from '../query/analysis/legacy-params.js'
import { canonicalJson } from './changes.js'
import { applyDashboardFilters } from './dashboard-filters.js'
import { insightDependencies, type InsightDependencies } from './insight-dependencies.js'
import { isAbsoluteDate, nextBoundaryMs, nextRangeChangeMs, nextResolutionChangeMs, resolveRanges } from './insight-range.js'
import { legacyParamsOfQuery } from './query-node.js'
import type { RefreshBasis } from './staleness.js'
import { bucketLimitOf } from '../query/execution/query-limits.js'
import { sqlCast } from '../db/sql-cast.js'

type Json = Record<string, unknown>

/** What an insight computes, and everything its cache entry needs to know. */
export interface InsightPlan {
  /** `sightline.query` method that computes it (the registry's analysis of its insight type). */
  readonly analysis: InsightAnalysisName
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
 * key. Untranslatable query nodes, unknown insight types and insights
 * without filters or series come back `unsupported`. Throws ValidationError under `filters` or
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
  const computing = analysisOfInsight(type)
  if (!computing) return { unsupported: `${type} insights are not computed` }

  // PostHog answers an empty result for a trend without series; the analyses refuse one, so nothing is computed.
  const listed = (list: unknown) => (Array.isArray(list) ? list.length : 0)
  if (computing.name === 'trend' && listed(params.events) + listed(params.actions) === 0) return { unsupported: 'the insight has no series' }

  let earliest: Promise<Date | null> | undefined
  const context = {
    timezone: project.timezone,
    weekStartDay: project.weekStartDay,
    earliestEvent: () => (earliest ??= earliestEvent(ctx, project.id)),
    bucketLimit: bucketLimitOf(ctx.limits),
  }
  const analysis = computing.name
  const dates = await under(field, () => insightDatesOf(computing, params))
  if (dates.kind === 'retention') return { plan: await retentionPlan(ctx, project, params, field, dates, context, now) }
  const { range } = dates
  const resolved = await under(field, () => resolveRanges(range, context, now))
  return finishPlan(ctx, project, params, {
    analysis,
    basis: { kind: dates.kind, interval: range.interval, fromMs: resolved.currentFromMs, toMs: resolved.currentToMs },
    fromMicros: resolved.fromMicros,
    toMicros: resolved.toMicros,
    expiresAtMs: await nextRangeChangeMs(range, context, now),
    now,
  })
}

/** What an analysis resolved at planning time, for `finishPlan`. */
interface Resolved {
  readonly analysis: InsightPlan['analysis']
  readonly basis: RefreshBasis
  /** Every event the analysis reads lies in this range (before dependencies widen it), epoch microseconds. */
  readonly fromMicros: number
  readonly toMicros: number
  /** When the dates resolve differently; null: never. */
  readonly expiresAtMs: number | null
  readonly now: Date
}

/** The dependencies, expiry and cache key of a resolved analysis. */
async function finishPlan(ctx: EngineContext, project: QueryProject, params: Json, r: Resolved): Promise<{ plan: InsightPlan }> {
  const testAccountFilters = params.filter_test_accounts === true ? project.testAccountFilters : null
  const actions = await actionsNamed(ctx, project.id, params)
  const kind = r.basis.kind
  // Paths with path_replacements read the project's cleaning rules: a change of rules is another computation.
  const cleaning = kind === 'paths' && params.path_replacements !== undefined && params.path_replacements !== false ? project.pathCleaningFilters : null
  const dependencies = insightDependencies(kind, params, [testAccountFilters, ...actions.map((a) => a.steps)])
  let expiresAtMs = r.expiresAtMs
  if (dependencies.movesWithNow) expiresAtMs = Math.min(expiresAtMs ?? Infinity, nextBoundaryMs(project.timezone, r.now.getTime(), MINUTE))

  const key = {
    version: 1,
    analysis: r.analysis,
    params: normalise(params),
    timezone: project.timezone,
    weekStartDay: project.weekStartDay,
    testAccountFilters,
    // An edited action is another computation: its steps are part of the key.
    actions: actions.map((a) => [a.id, a.steps]),
    ...(cleaning !== null && { cleaning }),
  }
  return {
    plan: {
      analysis: r.analysis,
      params,
      cacheKey: createHash('sha256').update(canonicalJson(key)).digest('hex'),
      basis: r.basis,
      rangeFromMicros: dependencies.unboundedBefore ? null : r.fromMicros - dependencies.lookbackMs * 1000,
      rangeToMicros: dependencies.unboundedAfter ? null : r.toMicros,
      dependencies,
      expiresAtMs,
    },
  }
}

/**
 * Retention's plan: its window of cohort periods (reference §13.2) is the
 * range; it moves when `date_to` (default now) or `date_from` resolve to
 * other periods.
 */
async function retentionPlan(
  ctx: EngineContext,
  project: QueryProject,
  params: Json,
  field: 'filters' | 'query',
  dates: Extract<InsightDates, { kind: 'retention' }>,
  context: { timezone: string; weekStartDay: QueryProject['weekStartDay']; earliestEvent: () => Promise<Date | null> },
  now: Date,
): Promise<InsightPlan> {
  const windowAt = (at: Date) => dates.window({ timeZone: context.timezone, weekStartDay: context.weekStartDay, now: at, earliestEvent: context.earliestEvent })
  const window = await under(field, () => windowAt(now))
  const fromMs = window.starts[0] ?? window.end
  const absolute = isAbsoluteDate(dates.dateTo) && (dates.dateFrom === null || isAbsoluteDate(dates.dateFrom))
  const expiresAtMs = absolute
    ? null
    : await nextResolutionChangeMs(context.timezone, now, async (ms) => {
        const w = await windowAt(new Date(ms))
        return `${w.starts[0] ?? w.end}/${w.end}`
      })
  const { plan } = await finishPlan(ctx, project, params, {
    analysis: 'retention',
    basis: { kind: 'retention', interval: dates.interval, fromMs, toMs: window.end - 1 },
    fromMicros: fromMs * 1000,
    toMicros: window.end * 1000 - 1,
    expiresAtMs,
    now,
  })
  return plan
}

/** The actions the series, steps, exclusions and retention entities name that exist, by id. */
async function actionsNamed(ctx: EngineContext, projectId: number, params: Json): Promise<ActionDefinition[]> {
  const items = (list: unknown): Json[] => (Array.isArray(list) ? list.filter((e): e is Json => typeof e === 'object' && e !== null) : [])
  const entities = [params.target_entity, params.returning_entity].filter((e): e is Json => typeof e === 'object' && e !== null)
  const ids = [...items(params.actions), ...[...items(params.exclusions), ...entities].filter((e) => e.type === 'actions')].map((e) => Number(e.id))
  const found = await readActions(ctx, projectId, ids, { includeDeleted: false })
  return [...found.values()].sort((a, b) => a.id - b.id)
}

async function earliestEvent(ctx: EngineContext, projectId: number): Promise<Date | null> {
  const query = sql<{ t: string | null }>`select min(timestamp) as t from events where project_id = ${projectId} and timestamp > ${sqlCast(EARLIEST_TIMESTAMP, 'timestamptz')}`
  const [row] = (await runStorage('read earliest event', () => query.execute(ctx.db))).rows
  return row?.t ? new Date(row.t) : null
}
