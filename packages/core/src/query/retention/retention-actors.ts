import { sql, type Expression, type SqlBool } from 'kysely'
import type { EngineContext } from '../../context.js'
import { ValidationError } from '../../errors.js'
import { OTHER_MARKER } from '../breakdowns/breakdown-markers.js'
import { pageActors, type ActorsPage, type ActorsResult } from '../actors/actor-details.js'
import { retentionEnv } from './retention-env.js'
import { decodeRetentionRequest, type RetentionParams } from './retention-request.js'
import { rankValues } from './retention-result.js'
import { retentionCells, retentionCounts } from './run-retention.js'

const MAX_PAGE = 10_000

const invalid = (field: string, message: string) => new ValidationError([{ path: [field], message }], { context: 'invalid retention persons parameters' })

/** The parameters of `sightline.query.retentionPersons`: the retention's plus the cell (a row's or value's `people_url`). */
export interface RetentionPersonsParams extends RetentionParams {
  /** Required: the row (0-based). */
  readonly selected_interval: number
  /** A value of the row (0-based); default the row's cohort. */
  readonly return_interval?: number | null
  /** With a breakdown, required: the row block's value (`breakdown_value`). */
  readonly breakdown_value?: string | null
}

/** A 0-based index from a number or its text (GET queries); null when absent. */
function indexOf(value: unknown, field: keyof RetentionPersonsParams, required: boolean): number | null {
  if (value === undefined || value === null || value === '') {
    if (required) throw invalid(field, `${field} is needed: the row (0-based) whose persons to list`)
    return null
  }
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d{1,9}\s*$/.test(value) ? Number(value) : Number.NaN
  if (!Number.isSafeInteger(n) || n < 0) throw invalid(field, `is a non-negative integer, got ${JSON.stringify(value)}`)
  return n
}

/**
 * The actors (persons, or groups with `aggregation_group_type_index`) behind
 * a retention row or cell: what the result's `people_url`s answer. `params`
 * is the request plus `selected_interval` (the row, required),
 * `return_interval` (a value of the row: the actors counted at k; cumulative
 * results count those who returned at k or later) and, with a breakdown,
 * `breakdown_value` (Other: every value the result folds into it, an actor
 * listed once per merged value, as Other's summed counts count it). Actors
 * come ordered by their appearances in the row, most first, then id
 * (PostHog's `length(appearances) DESC, actor_id`); `count` is the number of
 * actors. Throws ValidationError naming the field for bad parameters or a
 * row or value outside the result.
 */
export async function retentionActors(ctx: EngineContext, projectId: number, params: unknown, page: ActorsPage): Promise<ActorsResult> {
  ctx.assertOpen()
  if (!Number.isSafeInteger(page.limit) || page.limit < 0 || page.limit > MAX_PAGE) throw invalid('limit', `limit is between 0 and ${MAX_PAGE}`)
  if (!Number.isSafeInteger(page.offset) || page.offset < 0) throw invalid('offset', 'offset is a non-negative integer')
  const request = decodeRetentionRequest(params)
  const raw = (params ?? {}) as Record<string, unknown>
  const row = indexOf(raw.selected_interval, 'selected_interval', true)!
  const k = indexOf(raw.return_interval, 'return_interval', false)
  const { env, window } = await retentionEnv(ctx, projectId, request)
  if (row >= window.starts.length) throw invalid('selected_interval', `the result has ${window.starts.length} rows`)
  if (k !== null && k >= window.lookahead) throw invalid('return_interval', `the rows have ${window.lookahead} values`)

  const conditions: Expression<SqlBool>[] = [sql<SqlBool>`i = ${sql.lit(row)}`]
  let perValue = false
  if (request.breakdown) {
    const given = raw.breakdown_value
    if (given === undefined || given === null) throw invalid('breakdown_value', 'a breakdown result needs breakdown_value: the row block whose persons to list')
    // GET queries turn numeric text into numbers: the value is text again here.
    const value = typeof given === 'string' ? given : JSON.stringify(given)
    if (value === OTHER_MARKER) {
      const { kept } = rankValues(await retentionCounts(ctx, env, request, window), request.breakdownLimit, request.cumulative)
      if (kept.length > 0) conditions.push(sql<SqlBool>`not coalesce(${env.hooks.textInList(sql.ref('v'), kept)}, false)`)
      // Other's counts are the sums of its values' counts: an actor under two merged values counts, and is listed, twice.
      perValue = true
    } else conditions.push(sql<SqlBool>`v = ${value}`)
  }
  const having = k === null ? sql`` : request.cumulative ? sql` having max(k) >= ${sql.lit(k)}` : sql` having max(case when k = ${sql.lit(k)} then 1 else 0 end) = 1`
  const cells = retentionCells(env, request, window)
  // n: the actor's appearances in the row (the cohort and each return period).
  const actors = sql`select a, count(*) as n from (${cells}) as c where ${sql.join(conditions, sql` and `)} group by a${perValue ? sql`, v` : sql``}${having}`
  return pageActors(ctx, projectId, actors, page, request.groupTypeIndex)
}
