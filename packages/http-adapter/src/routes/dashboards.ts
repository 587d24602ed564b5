import type { Actor, Dashboard as CoreDashboard, Insight as CoreInsight, Project, UpdateDashboardInput } from '@sightline/core'
import { principalOf, visibleProject } from '../access.js'
import { pageOf, respond, respondPage } from '../internal/respond.js'
import { endpoint, type RouteContext } from '../route.js'
import { Paginated } from '../wire/common.js'
import { Dashboard, DashboardBasic, dashboardBasicToWire, dashboardToWire, DashboardWrite } from '../wire/dashboard.js'
import { LIST_QUERY } from './query.js'

const TAG = 'dashboards'

const projectOf = (ctx: RouteContext<unknown>): Promise<Project> => visibleProject(ctx, ctx.params.project_id)
/** The route's `:id(\d+)`; core answers 404 for ids no row can have. */
const idOf = (ctx: RouteContext<unknown>): number => Number(ctx.params.id)
const actorOf = (ctx: RouteContext<unknown>): Actor => ({ userId: principalOf(ctx).user.id })

/**
 * The dashboard with each tile's insight as `GET /insights/:id/?from_dashboard=`
 * reads it (the dashboard's filters applied, the tile's look added), from the
 * cache only: reading a dashboard never starts an analysis. One tile at a time,
 * so a large dashboard holds one connection.
 */
async function withInsights(ctx: RouteContext<unknown>, project: Project, d: CoreDashboard) {
  const insights = new Map<number, CoreInsight>()
  for (const { insightId } of d.tiles) {
    if (insightId !== null) insights.set(insightId, await ctx.sightline.insights.get(project.id, insightId, { fromDashboard: d.id, refresh: 'force_cache' }))
  }
  return dashboardToWire(d, project.id, insights)
}

const updateInput = (b: typeof DashboardWrite.Type): UpdateDashboardInput => ({
  ...(b.name !== undefined && { name: b.name ?? '' }),
  description: b.description,
  filters: b.filters,
  pinned: b.pinned,
  tags: b.tags,
  // A tile's `text: null` (PostHog's app sends tiles as it read them) is no text.
  tiles: b.tiles?.map(({ text, ...tile }) => (text == null ? tile : { ...tile, text: { body: text.body, id: text.id ?? undefined } })),
  deleted: b.deleted,
})

export const list = endpoint({
  summary: "List a project's dashboards that are not deleted, pinned first, then by name (PostHog's basic fields: no filters, no tiles).",
  tag: TAG,
  access: { scope: 'dashboard:read' },
  query: LIST_QUERY,
  responses: { 200: Paginated(DashboardBasic, 'DashboardBasic') },
  async handle(ctx) {
    const project = await projectOf(ctx)
    const page = pageOf(ctx)
    const result = await ctx.sightline.dashboards.list(project.id, page)
    return respondPage(ctx, page, result.count, result.results.map((d) => dashboardBasicToWire(d, project.id)))
  },
})

export const create = endpoint({
  summary: 'Create a dashboard, made by the caller, with no tiles (insights join it through their `dashboards` field).',
  tag: TAG,
  access: { scope: 'dashboard:write' },
  body: DashboardWrite,
  responses: { 201: Dashboard },
  async handle(ctx) {
    const project = await projectOf(ctx)
    const b = ctx.body
    const created = await ctx.sightline.dashboards.create(project.id, { name: b.name ?? '', description: b.description, filters: b.filters, pinned: b.pinned, tags: b.tags }, actorOf(ctx))
    // PostHog creates first, then applies nothing else of the body: tiles and deleted are ignored here.
    return respond(ctx, await withInsights(ctx, project, created), 201)
  },
})

export const retrieve = endpoint({
  summary: 'Read a dashboard with its tiles, each with its insight as seen on it (a soft-deleted dashboard is not found).',
  tag: TAG,
  access: { scope: 'dashboard:read' },
  responses: { 200: Dashboard },
  async handle(ctx) {
    const project = await projectOf(ctx)
    return respond(ctx, await withInsights(ctx, project, await ctx.sightline.dashboards.get(project.id, idOf(ctx))))
  },
})

export const update = endpoint({
  summary: "Change a dashboard (name, description, filters, pinned, tags) and its tiles' layouts and colours, remove tiles (`tiles: [{id, deleted: true}]`), soft-delete it (`deleted: true`) or restore it (`deleted: false`), in one transaction.",
  tag: TAG,
  access: { scope: 'dashboard:write' },
  body: DashboardWrite,
  responses: { 200: Dashboard },
  async handle(ctx) {
    const project = await projectOf(ctx)
    const updated = await ctx.sightline.dashboards.update(project.id, idOf(ctx), updateInput(ctx.body), actorOf(ctx))
    return respond(ctx, await withInsights(ctx, project, updated))
  },
})

/** What `/dashboards/:id/` allows: DELETE is routed only to be refused (PostHog's `ForbidDestroyModel`). */
const ALLOW = 'GET, PATCH, HEAD, OPTIONS'

export const remove = endpoint({
  summary: 'Refused: a dashboard is never deleted. Soft-delete it with PATCH `deleted: true`.',
  tag: TAG,
  access: { scope: 'dashboard:write' },
  responses: { 405: null },
  async handle(ctx) {
    await projectOf(ctx)
    return new Response(null, { status: 405, headers: { allow: ALLOW } })
  },
})
