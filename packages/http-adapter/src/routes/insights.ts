import { Schema } from 'effect'
import type { Actor, CreateInsightInput, JsonObject, Project, Sightline } from '@sightline/core'
import { principalOf, visibleProject } from '../access.js'
import { invalidInput } from '../errors.js'
import { activityPageOf, respondActivity } from '../internal/activity.js'
import { assertStorableText, depthOf, MAX_JSON_DEPTH } from '../internal/body.js'
import { pageOf, respond, respondPage } from '../internal/respond.js'
import { endpoint, type QueryParam, type RouteContext } from '../route.js'
import { ActivityLogPage } from '../wire/activity.js'
import { Paginated } from '../wire/common.js'
import { Insight, insightToWire, InsightWrite } from '../wire/insight.js'
import { ACTIVITY_QUERY, LIST_QUERY } from './query.js'

const TAG = 'insights'
/** Every insight endpoint renders PostHog's CSV on `?format=csv` (interface 4.2). */
const FORMATS = ['json', 'csv'] as const

const projectOf = (ctx: RouteContext<unknown>): Promise<Project> => visibleProject(ctx, ctx.params.project_id)
/** The route's `:id(\d+)`; core answers 404 for ids no row can have. */
const idOf = (ctx: RouteContext<unknown>): number => Number(ctx.params.id)
const actorOf = (ctx: RouteContext<unknown>): Actor => ({ userId: principalOf(ctx).user.id })

// DRF's BooleanField spellings.
const TRUE = new Set(['true', '1', 'yes', 'on', 't', 'y'])
const FALSE = new Set(['false', '0', 'no', 'off', 'f', 'n'])
/** PostHog's query execution modes, which its app sends as `refresh` besides booleans. */
const REFRESH_MODES = new Set(['async', 'async_except_on_cache_miss', 'blocking', 'force_async', 'force_blocking', 'force_cache', 'lazy_async'])
type RefreshOption = NonNullable<Parameters<Sightline['insights']['get']>[2]>['refresh']

const present = (query: URLSearchParams, name: string): string | undefined => {
  const raw = query.get(name)
  return raw === null || raw.trim() === '' ? undefined : raw.trim()
}

function booleanParam(query: URLSearchParams, name: string): boolean | undefined {
  const raw = present(query, name)?.toLowerCase()
  if (raw === undefined) return undefined
  if (TRUE.has(raw)) return true
  if (FALSE.has(raw)) return false
  throw invalidInput('Must be a valid boolean.', name)
}

function integerParam(query: URLSearchParams, name: string): number | undefined {
  const raw = present(query, name)
  if (raw === undefined) return undefined
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw invalidInput('A valid integer is required.', name)
  return Number(raw)
}

/** `client_query_id`: any text of at most 200 characters (as `sightline.query` takes it). */
function clientQueryIdParam(query: URLSearchParams): string | undefined {
  const raw = present(query, 'client_query_id')
  if (raw !== undefined && raw.length > 200) throw invalidInput('Ensure this field has no more than 200 characters.', 'client_query_id')
  return raw
}

/** `created_by`: a user id, or PostHog's JSON list of ids (`[1,2]`). */
function createdByParam(query: URLSearchParams): number | number[] | undefined {
  const raw = present(query, 'created_by')
  if (raw === undefined || !raw.startsWith('[')) return integerParam(query, 'created_by')
  let ids: unknown
  try {
    ids = JSON.parse(raw)
  } catch {
    ids = null
  }
  if (!Array.isArray(ids) || ids.length > 100 || !ids.every((id) => Number.isSafeInteger(id))) {
    throw invalidInput('A valid integer, or a JSON list of at most 100 integers, is required.', 'created_by')
  }
  return ids as number[]
}

/** A query node sent as its JSON text (how the interface describes `query` in requests) becomes the object. */
function queryNode(query: typeof InsightWrite.Type['query']): JsonObject | null | undefined {
  if (typeof query !== 'string') return query
  let parsed: unknown
  try {
    parsed = JSON.parse(query)
  } catch {
    parsed = undefined
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || depthOf(parsed) > MAX_JSON_DEPTH) {
    throw invalidInput('Expected a query node: a JSON object, or its JSON text.', 'query')
  }
  // The text passed the body's checks as one string; what it holds is checked like a body.
  assertStorableText({ query: parsed })
  return parsed as JsonObject
}

const insightInput = (b: typeof InsightWrite.Type): CreateInsightInput => ({
  name: b.name,
  derivedName: b.derived_name,
  filters: b.filters,
  query: queryNode(b.query),
  order: b.order,
  deleted: b.deleted,
  dashboards: b.dashboards,
  description: b.description,
  tags: b.tags,
  favorited: b.favorited,
  saved: b.saved,
})

const BooleanQuery = Schema.Literals(['true', 'false', '1', '0'])

const LIST_FILTERS: ReadonlyArray<QueryParam> = [
  { name: 'created_by', schema: Schema.Int, description: 'Only insights created by this user (PostHog also takes a JSON list of ids).' },
  { name: 'short_id', schema: Schema.String, description: 'Only the insight with this short id.' },
  { name: 'saved', schema: BooleanQuery, description: 'true: saved insights and those on a dashboard; false: unsaved ones.' },
  { name: 'favorited', schema: BooleanQuery, description: 'Only favorited (or not favorited) insights.' },
  { name: 'search', schema: Schema.String, description: 'Case-insensitive text of the name, derived name, description or a tag.' },
]

export const list = endpoint({
  summary: "List a project's insights (not deleted), by `order`, then most recently modified.",
  tag: TAG,
  access: { scope: 'insight:read' },
  formats: FORMATS,
  query: [...LIST_QUERY, ...LIST_FILTERS],
  responses: { 200: Paginated(Insight, 'Insight') },
  async handle(ctx) {
    const project = await projectOf(ctx)
    const page = pageOf(ctx)
    const shortId = ctx.query.get('short_id') ?? undefined
    const options = {
      ...page,
      createdBy: createdByParam(ctx.query),
      saved: booleanParam(ctx.query, 'saved'),
      favorited: booleanParam(ctx.query, 'favorited'),
      // NUL cannot be stored, so no text contains it: dropping it changes no answer and spares Postgres an error.
      search: ctx.query.get('search')?.replaceAll('\u0000', '') || undefined,
      shortId: shortId || undefined,
    }
    // No short id contains NUL: nothing matches (and Postgres would refuse to compare).
    if (shortId?.includes('\u0000')) return respondPage(ctx, page, 0, [])
    const result = await ctx.sightline.insights.list(project.id, options)
    return respondPage(ctx, page, result.count, result.results.map(insightToWire))
  },
})

export const create = endpoint({
  summary: 'Create an insight, made by the caller, with a new short id.',
  tag: TAG,
  access: { scope: 'insight:write' },
  formats: FORMATS,
  body: InsightWrite,
  responses: { 201: Insight },
  async handle(ctx) {
    const project = await projectOf(ctx)
    const insight = await ctx.sightline.insights.create(project.id, insightInput(ctx.body), actorOf(ctx))
    return respond(ctx, insightToWire(insight), 201)
  },
})

/** `refresh`: a DRF boolean, or one of PostHog's execution modes. */
function refreshParam(query: URLSearchParams): RefreshOption {
  const raw = present(query, 'refresh')?.toLowerCase()
  if (raw === undefined) return undefined
  if (TRUE.has(raw)) return true
  if (FALSE.has(raw)) return false
  if (REFRESH_MODES.has(raw)) return raw as RefreshOption
  throw invalidInput("Must be a valid boolean, or one of PostHog's refresh modes.", 'refresh')
}

export const retrieve = endpoint({
  summary: 'Read an insight with its result, from the cache or computed (a soft-deleted insight is not found).',
  tag: TAG,
  access: { scope: 'insight:read' },
  formats: FORMATS,
  query: [
    {
      name: 'from_dashboard',
      schema: Schema.Int,
      description: "The dashboard the insight is loaded for: its filter overrides apply and the tile's `layouts` and `color` are added (ignored when the insight is not on it).",
    },
    {
      name: 'refresh',
      schema: Schema.String,
      description:
        "Default: a fresh cached result, else computed. `true`: recompute once `next_allowed_client_refresh` has passed. PostHog's modes: `blocking`, `force_blocking` (always compute), `force_cache` (never compute), `async`, `lazy_async`, `async_except_on_cache_miss`, `force_async` (computed in the request: no background workers).",
    },
    {
      name: 'client_query_id',
      schema: Schema.String,
      description: 'Names the computation, should one run, so that `POST /insights/cancel/` with the same id stops it.',
    },
  ],
  responses: { 200: Insight },
  async handle(ctx) {
    const project = await projectOf(ctx)
    const options = { fromDashboard: integerParam(ctx.query, 'from_dashboard'), refresh: refreshParam(ctx.query), clientQueryId: clientQueryIdParam(ctx.query) }
    return respond(ctx, insightToWire(await ctx.sightline.insights.get(project.id, idOf(ctx), options)))
  },
})

export const update = endpoint({
  summary: 'Change an insight; `deleted: true` soft-deletes it, `deleted: false` restores it.',
  tag: TAG,
  access: { scope: 'insight:write' },
  formats: FORMATS,
  body: InsightWrite,
  responses: { 200: Insight },
  async handle(ctx) {
    const project = await projectOf(ctx)
    const insight = await ctx.sightline.insights.update(project.id, idOf(ctx), insightInput(ctx.body), actorOf(ctx))
    return respond(ctx, insightToWire(insight))
  },
})

/** What `/insights/:id/` allows: DELETE is routed only to be refused. */
const ALLOW = 'GET, PATCH, HEAD, OPTIONS'

export const remove = endpoint({
  summary: 'Refused: an insight is never deleted. Soft-delete it with PATCH `deleted: true`.',
  tag: TAG,
  access: { scope: 'insight:write' },
  formats: FORMATS,
  responses: { 405: null },
  async handle(ctx) {
    await projectOf(ctx)
    // Interface 7.1: 405 with no body (not the error body of other refusals).
    return new Response(null, { status: 405, headers: { allow: ALLOW } })
  },
})

export const itemActivity = endpoint({
  summary: "One insight's activity (a soft-deleted one's too), newest first.",
  tag: TAG,
  access: { scope: 'insight:read' },
  formats: FORMATS,
  query: ACTIVITY_QUERY,
  responses: { 200: ActivityLogPage },
  async handle(ctx) {
    const project = await projectOf(ctx)
    const page = activityPageOf(ctx)
    const result = await ctx.sightline.insights.activity(project.id, idOf(ctx), { limit: page.limit, offset: page.offset })
    return respondActivity(ctx, page, result)
  },
})

export const viewed = endpoint({
  summary: 'Record that the caller viewed the insight now; answers the insight with its cached result (never computed). The body is validated and ignored.',
  tag: TAG,
  access: { scope: 'insight:read' },
  formats: FORMATS,
  body: InsightWrite,
  responses: { 200: Insight },
  async handle(ctx) {
    const project = await projectOf(ctx)
    await ctx.sightline.insights.viewed(project.id, idOf(ctx), actorOf(ctx))
    // Recording a view computes nothing: the result is whatever is cached.
    return respond(ctx, insightToWire(await ctx.sightline.insights.get(project.id, idOf(ctx), { refresh: 'force_cache' })))
  },
})

export const activity = endpoint({
  summary: "The activity of all the project's insights, newest first.",
  tag: TAG,
  access: { scope: 'insight:read' },
  formats: FORMATS,
  query: ACTIVITY_QUERY,
  responses: { 200: ActivityLogPage },
  async handle(ctx) {
    const project = await projectOf(ctx)
    const page = activityPageOf(ctx)
    const result = await ctx.sightline.insights.activity(project.id, undefined, { limit: page.limit, offset: page.offset })
    return respondActivity(ctx, page, result)
  },
})

export const myLastViewed = endpoint({
  summary: 'The last 5 insights the caller viewed in the project, most recently viewed first.',
  tag: TAG,
  access: { scope: 'insight:read' },
  formats: FORMATS,
  responses: { 200: Schema.Array(Insight).annotate({ identifier: 'InsightList' }) },
  async handle(ctx) {
    const project = await projectOf(ctx)
    const insights = await ctx.sightline.insights.myLastViewed(project.id, principalOf(ctx).user.id)
    return respond(ctx, insights.map(insightToWire))
  },
})
