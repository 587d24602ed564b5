import type { EngineContext } from '../../context.js'
import { runStorage } from '../../db/run.js'
import { nowIso } from '../../time/timestamp.js'
import { pathEdgesSql } from './path-edges-sql.js'
import { pathEventsSql } from './path-events-sql.js'
import { pathItems } from './path-items.js'
import { pathRowsSql } from './path-rows-sql.js'
import { decodePathsRequest } from './paths-request.js'
import { pathsEnv } from './paths-env.js'
import { reachableEdges, type PathEdge } from './reachable-edges.js'
import { samplingNotice, type SamplingNotice } from '../analysis/sampling-factor.js'

/** What `/insights/path/` answers (reference §14.3). */
export interface PathsResponse extends Partial<SamplingNotice> {
  result: PathEdge[]
  timezone: string
  /** When the result was computed, ISO 8601 UTC. */
  last_refresh: string
  is_cached: false
}

/**
 * Computes a legacy paths request in PostHog's semantics
 * (shared/reference/trends-retention-paths.md §14): per person, sessions
 * split at 30-minute gaps, consecutive duplicates collapsed, cut by the
 * start and end points and `step_limit`, then edges between numbered nodes
 * (`1_/pricing` -> `2_/about`), counted per session path, filtered by
 * weight, limited and kept only when reachable from a first node. Takes
 * the JSON body or the GET query of `/api/projects/:id/insights/path/`.
 * Throws ValidationError naming the field for bad parameters, NotFoundError
 * for an unknown project.
 */
export async function runPaths(ctx: EngineContext, projectId: number, params: unknown): Promise<PathsResponse> {
  ctx.assertOpen()
  const request = decodePathsRequest(params)
  const { env, range, rules, funnel } = await pathsEnv(ctx, projectId, request)
  const items = pathItems(pathEventsSql(env, request, range, rules, funnel), env.hooks)
  const query = pathEdgesSql(pathRowsSql(items, request, funnel?.sessionGapMicros), items, request, env.hooks)
  const rows = (await runStorage('paths', () => query.execute(ctx.db))).rows
  const edges: PathEdge[] = rows.map((r) => ({
    source: r.source,
    target: r.target,
    value: Number(r.value),
    average_conversion_time: Number(r.t) / 1000,
  }))
  return { result: reachableEdges(edges), timezone: env.project.timezone, last_refresh: nowIso(ctx.clock), is_cached: false, ...samplingNotice(params) }
}
