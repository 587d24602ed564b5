import type { Actor, CreateActionInput, Project, UpdateActionInput } from '@sightline/core'
import { principalOf, visibleProject } from '../access.js'
import { invalidInput } from '../errors.js'
import { pageOf, respond, respondPage } from '../internal/respond.js'
import { endpoint, type RouteContext } from '../route.js'
import { Action, actionToWire, ActionWrite } from '../wire/action.js'
import { Paginated } from '../wire/common.js'
import { LIST_QUERY } from './query.js'

const TAG = 'actions'

const projectOf = (ctx: RouteContext<unknown>): Promise<Project> => visibleProject(ctx, ctx.params.project_id)
/** The route's `:id(\d+)`; core answers 404 for ids no row can have. */
const idOf = (ctx: RouteContext<unknown>): number => Number(ctx.params.id)
const actorOf = (ctx: RouteContext<unknown>): Actor => ({ userId: principalOf(ctx).user.id })

const actionInput = (b: typeof ActionWrite.Type): UpdateActionInput => ({
  name: b.name,
  description: b.description,
  tags: b.tags,
  postToSlack: b.post_to_slack,
  slackMessageFormat: b.slack_message_format,
  // Core decodes the steps (property filters included) and names the failing path.
  steps: b.steps as UpdateActionInput['steps'],
  deleted: b.deleted,
  pinnedAt: b.pinned_at,
})

export const list = endpoint({
  summary: "List a project's actions that are not deleted, newest first, then by name.",
  tag: TAG,
  access: { scope: 'action:read' },
  query: LIST_QUERY,
  responses: { 200: Paginated(Action, 'Action') },
  async handle(ctx) {
    const project = await projectOf(ctx)
    const page = pageOf(ctx)
    const result = await ctx.sightline.actions.list(project.id, page)
    return respondPage(ctx, page, result.count, result.results.map(actionToWire))
  },
})

export const create = endpoint({
  summary: 'Create an action, made by the caller. Its name is unique among the actions that are not deleted.',
  tag: TAG,
  access: { scope: 'action:write' },
  body: ActionWrite,
  responses: { 201: Action },
  async handle(ctx) {
    const project = await projectOf(ctx)
    if (ctx.body.name === undefined) throw invalidInput('This field is required.', 'name', 'required')
    const { deleted: _ignored, ...input } = actionInput(ctx.body)
    const action = await ctx.sightline.actions.create(project.id, input as CreateActionInput, actorOf(ctx))
    return respond(ctx, actionToWire(action), 201)
  },
})

export const retrieve = endpoint({
  summary: 'Read an action (a soft-deleted one too, as PostHog).',
  tag: TAG,
  access: { scope: 'action:read' },
  responses: { 200: Action },
  async handle(ctx) {
    const project = await projectOf(ctx)
    return respond(ctx, actionToWire(await ctx.sightline.actions.get(project.id, idOf(ctx))))
  },
})

export const update = endpoint({
  summary: 'Change an action; `steps` replaces every step; `deleted: true` soft-deletes it, `false` restores it.',
  tag: TAG,
  access: { scope: 'action:write' },
  body: ActionWrite,
  responses: { 200: Action },
  async handle(ctx) {
    const project = await projectOf(ctx)
    const action = await ctx.sightline.actions.update(project.id, idOf(ctx), actionInput(ctx.body), actorOf(ctx))
    return respond(ctx, actionToWire(action))
  },
})

/** What `/actions/:id/` allows: DELETE is routed only to be refused (PostHog's `ForbidDestroyModel`). */
const ALLOW = 'GET, PATCH, HEAD, OPTIONS'

export const remove = endpoint({
  summary: 'Refused: an action is never deleted. Soft-delete it with PATCH `deleted: true`.',
  tag: TAG,
  access: { scope: 'action:write' },
  responses: { 405: null },
  async handle(ctx) {
    await projectOf(ctx)
    return new Response(null, { status: 405, headers: { allow: ALLOW } })
  },
})
