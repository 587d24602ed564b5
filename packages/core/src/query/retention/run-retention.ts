import { sql, type RawBuilder } from 'kysely'
import type { EngineContext } from '../../context.js'
import { nowIso } from '../../time/timestamp.js'
import type { QueryEnv } from '../analysis/query-env.js'
import { retentionCellsSql, retentionCountsSql, type RetentionCell } from './retention-cells-sql.js'
import { retentionEnv } from './retention-env.js'
import { retentionEventsSql, type RetentionActor, type RetentionEventRow } from './retention-events-sql.js'
import { decodeRetentionRequest, type RetentionRequest } from './retention-request.js'
import { retentionRows, type CountRow, type RetentionRow } from './retention-result.js'
import type { RetentionWindow } from './retention-window.js'
import { boundedRows } from '../execution/bounded-rows.js'
import { checkAnswerBudget } from '../execution/query-budget.js'
import { encodeParams } from '../actors/encode-params.js'
import { samplingNotice, type SamplingNotice } from '../analysis/sampling-factor.js'

/** What `/insights/retention/` answers. */
export interface RetentionResponse extends Partial<SamplingNotice> {
  result: RetentionRow[]
  timezone: string
  /** When the result was computed, ISO 8601 UTC. */
  last_refresh: string
  is_cached: false
}

/**
 * Computes a legacy retention request in PostHog's semantics
 * (shared/reference/trends-retention-paths.md §13): the JSON body or GET
 * query of `/api/projects/:id/insights/retention/`. One statement. Throws
 * ValidationError naming the field for bad parameters, NotFoundError for an
 * unknown project.
 */
export async function runRetention(ctx: EngineContext, projectId: number, params: unknown): Promise<RetentionResponse> {
  ctx.assertOpen()
  const request = decodeRetentionRequest(params)
  const { env, window } = await retentionEnv(ctx, projectId, request)
  const b = request.breakdown
  const blocks = b === null ? 1 : b.type === 'cohort' ? b.cohorts.length : request.breakdownLimit + 1
  checkAnswerBudget(ctx.limits, {
    rows: window.starts.length * blocks,
    columns: window.lookahead,
    // Each cell carries a people URL that repeats the request.
    bytesPerCell: encodeParams(request.params).length + 300,
    rowsAttr: blocks > window.starts.length ? 'breakdown_limit' : 'date_from',
    columnsAttr: 'total_intervals',
  })
  const counts = await retentionCounts(ctx, env, request, window)
  return { result: retentionRows(counts, request, window, projectId), timezone: env.project.timezone, last_refresh: nowIso(ctx.clock), is_cached: false, ...samplingNotice(params) }
}

/** The counts behind a result (see retentionCountsSql); none when the window is empty. */
export async function retentionCounts(ctx: EngineContext, env: QueryEnv, request: RetentionRequest, window: RetentionWindow): Promise<CountRow[]> {
  if (window.starts.length === 0) return []
  const query = retentionCountsSql(retentionCells(env, request, window, 'key'), request.cumulative)
  // Breakdown values are ranked here, from every (value, period, interval) count: with a value per person that is every person.
  const rows = await boundedRows<Record<string, unknown>>(ctx, 'retention', query, { attr: 'breakdown', rows: '(breakdown value, period, interval) counts' })
  return rows.map((r) => ({ v: String(r.v), i: Number(r.i), k: Number(r.k), n: Number(r.n) }))
}

/**
 * Every appearance of the request (a cohort breakdown reads each cohort's events in turn, PostHog's UNION ALL),
 * each actor named as `actor` says: its id (default, for actors lists) or its fixed-size key (counts alone).
 */
export function retentionCells(env: QueryEnv, request: RetentionRequest, window: RetentionWindow, actor: RetentionActor = 'id'): RawBuilder<RetentionCell> {
  const cohorts = request.breakdown?.type === 'cohort' ? request.breakdown.cohorts : [null]
  const events = cohorts.map((c) => retentionEventsSql(env, request, window, c, actor))
  const all = (rows: ReadonlyArray<RawBuilder<RetentionEventRow>>) => sql<RetentionEventRow>`${sql.join(rows, sql` union all `)}`
  const windowRows = events.flatMap((e) => (e.windowRows ? [e.windowRows] : []))
  const union = events.length === 1 ? events[0]! : { rows: all(events.map((e) => e.rows)), ...(windowRows.length > 0 ? { windowRows: all(windowRows) } : {}), byDistinctId: false }
  return retentionCellsSql(union, request, window, env.hooks, env.project.id)
}
