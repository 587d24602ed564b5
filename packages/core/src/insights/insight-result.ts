import { randomUUID } from 'node:crypto'
import type { EngineContext } from '../context.js'
import type { InsightAnalysisName } from '../query/analysis/analysis-registry.js'
import type { RefreshMode } from '../model/insight.js'
import type { QueryProject } from '../query/scope/query-project.js'
import { formatTimestamp } from '../time/timestamp.js'
import { claimCacheEntry, readCacheEntry, storeCacheEntry, type CacheEntry } from './insight-cache.js'
import { planInsight, type InsightDefinition, type InsightPlan } from './insight-plan.js'
import { refreshPolicy } from './refresh-mode.js'
import { SingleFlight } from './single-flight.js'
import { refreshFrequencyMs, staleAtMs } from './staleness.js'

/** The analyses a saved insight runs (the registry's that compute insights): `sightline.query`'s, under its executor. */
export type InsightAnalyses = Readonly<Record<InsightAnalysisName, AnalysisMethod>>

/** A method's type, its parameters compared both ways as methods' are: `sightline.query`'s typed methods take JSON as it came too. */
type AnalysisMethod = { run(projectId: number, params: unknown): Promise<{ readonly result: unknown }> }['run']

/** The result fields of an insight. */
export interface InsightResultFields {
  readonly result: unknown
  /** ISO 8601 UTC; null without a result. */
  readonly lastRefresh: string | null
  readonly nextAllowedClientRefresh: string | null
  /** The result was read from the cache, not computed for this call. */
  readonly isCached: boolean
}

const NO_RESULT: InsightResultFields = { result: null, lastRefresh: null, nextAllowedClientRefresh: null, isCached: false }

const cached = (entry: CacheEntry): InsightResultFields => ({
  result: entry.result,
  lastRefresh: entry.lastRefresh,
  nextAllowedClientRefresh: entry.nextAllowedClientRefresh,
  isCached: true,
})

/**
 * Computes saved insights' results through the cache: one instance per
 * engine, so that concurrent requests for the same computation in this
 * process run it once (the others wait for it and share its answer).
 */
export function insightResults(ctx: EngineContext, analyses: InsightAnalyses) {
  const flights = new SingleFlight<InsightResultFields>()

  /** Runs the analysis under a claim on the cache key, and stores its result unless a capture invalidated it meanwhile. */
  const compute = async (projectId: number, plan: InsightPlan, clientQueryId: string | undefined): Promise<InsightResultFields> => {
    const token = randomUUID()
    const { dependencies } = plan
    await claimCacheEntry(ctx, projectId, plan.cacheKey, token, {
      rangeFromMicros: plan.rangeFromMicros,
      rangeToMicros: plan.rangeToMicros,
      onMerge: dependencies.onMerge,
      onPersonChange: dependencies.onPersonChange,
    })
    const nowMs = ctx.clock().getTime()
    // The id only names the run for `cancel`; it is not part of the cache key.
    const params = clientQueryId === undefined ? plan.params : { ...plan.params, client_query_id: clientQueryId }
    const response = await analyses[plan.analysis](projectId, params)
    const entry: CacheEntry = {
      result: response.result,
      lastRefresh: formatTimestamp(nowMs * 1000),
      nextAllowedClientRefresh: formatTimestamp((nowMs + refreshFrequencyMs(plan.basis)) * 1000),
      staleAtMs: staleAtMs(plan.basis, nowMs, false),
      lazyStaleAtMs: staleAtMs(plan.basis, nowMs, true),
      expiresAtMs: plan.expiresAtMs,
    }
    await storeCacheEntry(ctx, projectId, plan.cacheKey, token, entry, nowMs)
    return { result: entry.result, lastRefresh: entry.lastRefresh, nextAllowedClientRefresh: entry.nextAllowedClientRefresh, isCached: false }
  }

  return {
    /**
     * The result of `insight` in `project`, with `dashboardFilters` applied
     * when loaded for a dashboard, as `refresh` asks (see `refreshPolicy`).
     * A cached result answers only while no capture invalidated it and its
     * relative dates still resolve the same; then, by mode, while it is
     * fresh (PostHog's staleness thresholds) or until
     * `nextAllowedClientRefresh`. Throws ValidationError under `filters` or
     * `query` when the analysis refuses the insight's parameters, and the
     * executor's errors (timeout, concurrency limit).
     */
    async resolve(project: QueryProject, insight: InsightDefinition, dashboardFilters: Record<string, unknown> | null, refresh: boolean | RefreshMode | undefined, clientQueryId?: string): Promise<InsightResultFields> {
      const policy = refreshPolicy(refresh)
      const now = ctx.clock()
      const source = await planInsight(ctx, project, insight, dashboardFilters, now)
      if ('unsupported' in source) return NO_RESULT
      const { plan } = source
      // What the cache answers under this policy: a result, NO_RESULT, or null (compute).
      const fromCache = async (): Promise<InsightResultFields | null> => {
        if (policy.compute === 'always') return null
        const entry = await readCacheEntry(ctx.db, project.id, plan.cacheKey)
        const nowMs = now.getTime()
        const live = entry !== null && (entry.expiresAtMs === null || nowMs < entry.expiresAtMs)
        if (live) {
          const staleAt = policy.lazy ? entry.lazyStaleAtMs : entry.staleAtMs
          const answers =
            policy.compute === 'never' ||
            (policy.compute === 'ifRefreshAllowed' && nowMs < Date.parse(entry.nextAllowedClientRefresh)) ||
            (policy.compute === 'ifStale' && (staleAt === null || nowMs <= staleAt))
          if (answers) return cached(entry)
        } else if (policy.compute === 'never') {
          return NO_RESULT
        }
        return null
      }
      const early = await fromCache()
      if (early) return early
      // Read again inside the flight: a computation of the same key may have finished (and written the cache)
      // between this get's read and its flight, and is then answered from the cache instead of run twice.
      return flights.run(`${project.id}:${plan.cacheKey}`, async () => (await fromCache()) ?? compute(project.id, plan, clientQueryId))
    },
  }
}

export type InsightResults = ReturnType<typeof insightResults>
