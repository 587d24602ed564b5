import { sql } from 'kysely'
import type { EngineContext } from '../../context.js'
import { nowIso } from '../../time/timestamp.js'
import { readActions } from '../actions/load-actions.js'
import { funnelEnv, type FunnelEnv } from '../funnels/funnel-env.js'
import { loadQueryProject } from '../scope/query-project.js'
import { chainToElements, type SerializedElement } from './chain-to-elements.js'
import type { CorrelationRequest } from './correlation-request.js'
import { correlationPeopleUrl } from './correlation-urls.js'
import { correlationSql, ELEMENTS_DIVIDER, type ContingencyRow } from './contingency-sql.js'
import { decodeCorrelationRequest, hasNoSteps } from './decode-correlation-params.js'
import { rankCorrelations } from './odds-ratio.js'
import { boundedRows } from '../execution/bounded-rows.js'
import { samplingNotice, type SamplingNotice } from '../analysis/sampling-factor.js'

/** One correlation row, PostHog's `EventOddsRatioSerialized`. */
export interface CorrelationRow {
  readonly success_count: number
  readonly success_people_url: string
  readonly failure_count: number
  readonly failure_people_url: string
  readonly odds_ratio: number
  readonly correlation_type: 'success' | 'failure'
  readonly event: { readonly event: string; readonly properties: Record<string, string>; readonly elements: SerializedElement[] }
}

/** The legacy `/insights/funnel/correlation/` answer. */
export interface FunnelCorrelationResponse extends Partial<SamplingNotice> {
  readonly result: { readonly events: CorrelationRow[]; readonly skewed: boolean }
  readonly last_refresh: string
  readonly is_cached: false
  readonly timezone: string
}

/**
 * Correlates a funnel's conversion with what its actors did or are (PostHog's
 * `FunnelCorrelation`): `params` is the funnel's legacy request (JSON body or
 * GET text) plus `funnel_correlation_type` (`events` by default,
 * `properties`, `event_with_properties`) and its name lists. The contingency
 * table is one statement over the funnel's per-actor rows; odds ratios and
 * ranking are computed on its few rows. No steps at all answers no rows, not
 * skewed. ValidationError naming the field for bad input; NotFoundError for
 * an unknown project.
 */
export async function runFunnelCorrelation(ctx: EngineContext, projectId: number, params: unknown): Promise<FunnelCorrelationResponse> {
  ctx.assertOpen()
  if (hasNoSteps(params)) {
    const project = await loadQueryProject(ctx, projectId)
    return { result: { events: [], skewed: false }, last_refresh: nowIso(ctx.clock), is_cached: false, timezone: project.timezone, ...samplingNotice(params) }
  }
  const request = decodeCorrelationRequest(params)
  const env = await funnelEnv(ctx, projectId, request.funnel)
  const stepNames = await funnelStepNames(ctx, request, env)
  const query = correlationSql(ctx.adapter.sql, request, env, stepNames)
  // One row per event, property value or element chain: bounded, as they come from the data.
  const rows = await boundedRows<ContingencyRow>(ctx, 'run funnel correlation', sql`${query}`, { attr: 'funnel_correlation_type', rows: 'correlation rows (events, property values or elements)' })
  const totals = rows.find((r) => Number(r.tot) === 1)
  const named = rows.filter((r) => Number(r.tot) === 0).map((r) => ({ row: r, name: rowName(request, r) }))
  const byName = new Map(named.map((n) => [n.name, n.row]))
  const ranked = rankCorrelations(
    named.map((n) => ({ name: n.name, success: Number(n.row.s), failure: Number(n.row.f) })),
    Number(totals?.s ?? 0),
    Number(totals?.f ?? 0),
  )
  const events = ranked.rows.map((r): CorrelationRow => {
    const row = byName.get(r.name)!
    const event = eventDefinition(request, r.name, row)
    const urlRow = { event: row.ev, key: row.k, value: row.v, elements: event.elements }
    return {
      success_count: r.success,
      success_people_url: correlationPeopleUrl(env.project.id, request, urlRow, true),
      failure_count: r.failure,
      failure_people_url: correlationPeopleUrl(env.project.id, request, urlRow, false),
      odds_ratio: r.oddsRatio,
      correlation_type: r.correlationType,
      event,
    }
  })
  return { result: { events, skewed: ranked.skewed }, last_refresh: nowIso(ctx.clock), is_cached: false, timezone: env.project.timezone, ...samplingNotice(params) }
}

/** PostHog's row names: `event`, `event::property::value`, `property::value`. */
function rowName(request: CorrelationRequest, r: ContingencyRow): string {
  if (request.type === 'events') return r.ev!
  if (request.type === 'event_with_properties') return `${r.ev}::${r.k}::${r.v}`
  return `${r.k}::${r.v}`
}

/** `serialize_event_with_property`: autocapture rows show their `$event_type` and parsed elements. */
function eventDefinition(request: CorrelationRequest, name: string, row: ContingencyRow): CorrelationRow['event'] {
  if (request.type === 'event_with_properties' && row.ev === '$autocapture' && row.k === 'elements_chain' && request.eventNames.includes('$autocapture')) {
    const at = row.v!.indexOf(ELEMENTS_DIVIDER)
    return { event: name, properties: { $event_type: row.v!.slice(0, at) }, elements: chainToElements(row.v!.slice(at + ELEMENTS_DIVIDER.length)) }
  }
  return { event: name, properties: {}, elements: [] }
}

/**
 * `_get_funnel_step_names`: the steps' event names, and for action steps the
 * event names of the action's steps (an action step matching any event adds none).
 */
export async function funnelStepNames(ctx: EngineContext, request: CorrelationRequest, env: FunnelEnv): Promise<string[]> {
  const names = new Set<string>()
  const actionIds = request.funnel.steps.filter((s) => s.kind === 'actions').map((s) => s.actionId!)
  const actions = await readActions(ctx, env.project.id, actionIds, { includeDeleted: false })
  for (const s of request.funnel.steps) {
    if (s.kind === 'events' && s.event !== null) names.add(s.event)
    if (s.kind === 'actions') for (const step of actions.get(s.actionId!)?.steps ?? []) if (step.event) names.add(step.event)
  }
  return [...names].sort()
}
