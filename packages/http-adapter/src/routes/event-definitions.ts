import { Schema } from 'effect'
import { principalOf, visibleProject } from '../access.js'
import { noContent, pageOf, respond, respondPage } from '../internal/respond.js'
import { endpoint } from '../route.js'
import { Paginated } from '../wire/common.js'
import { EventDefinition, eventDefinitionToWire, PatchedEventDefinition } from '../wire/event-definition.js'
import { LIST_QUERY } from './query.js'

const TAG = 'event_definitions'

export const list = endpoint({
  summary: "List a project's event definitions, by name.",
  tag: TAG,
  access: { scope: 'event_definition:read' },
  query: [...LIST_QUERY, { name: 'search', schema: Schema.String, description: 'Only names containing this text.' }],
  responses: { 200: Paginated(EventDefinition, 'EventDefinition') },
  async handle(ctx) {
    const project = await visibleProject(ctx, ctx.params.project_id)
    const page = pageOf(ctx)
    // NUL cannot be stored, so no name contains it: dropping it changes no answer and spares Postgres an error.
    const search = ctx.query.get('search')?.replaceAll('\u0000', '') || undefined
    const result = await ctx.sightline.eventDefinitions.list(project.id, { ...page, search })
    return respondPage(ctx, page, result.count, result.results.map(eventDefinitionToWire))
  },
})

export const retrieve = endpoint({
  summary: 'Read an event definition.',
  tag: TAG,
  access: { scope: 'event_definition:read' },
  responses: { 200: EventDefinition },
  async handle(ctx) {
    const project = await visibleProject(ctx, ctx.params.project_id)
    return respond(ctx, eventDefinitionToWire(await ctx.sightline.eventDefinitions.get(project.id, ctx.params.id!)))
  },
})

export const update = endpoint({
  summary: "Change an event definition's name, times, tags, description or Slack flag.",
  tag: TAG,
  access: { scope: 'event_definition:write' },
  body: PatchedEventDefinition,
  responses: { 200: EventDefinition },
  async handle(ctx) {
    const project = await visibleProject(ctx, ctx.params.project_id)
    const b = ctx.body
    const updated = await ctx.sightline.eventDefinitions.update(
      project.id,
      ctx.params.id!,
      { name: b.name, createdAt: b.created_at, lastSeenAt: b.last_seen_at, tags: b.tags, postToSlack: b.post_to_slack, description: b.description },
      { userId: principalOf(ctx).user.id },
    )
    return respond(ctx, eventDefinitionToWire(updated))
  },
})

export const remove = endpoint({
  summary: 'Delete an event definition (the next event of that name creates it again).',
  tag: TAG,
  access: { scope: 'event_definition:write' },
  responses: { 204: null },
  async handle(ctx) {
    const project = await visibleProject(ctx, ctx.params.project_id)
    await ctx.sightline.eventDefinitions.delete(project.id, ctx.params.id!, { userId: principalOf(ctx).user.id })
    return noContent()
  },
})
