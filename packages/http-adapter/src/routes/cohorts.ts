import type { Actor, Project, UpdateCohortInput } from '@sightline/core'
import { principalOf, visibleProject } from '../access.js'
import { requireScope } from '../auth.js'
import { pageOf, respond, respondPage } from '../internal/respond.js'
import { endpoint, type RouteContext } from '../route.js'
import { Cohort, CohortPerson, cohortPersonToWire, cohortToWire, CohortWrite } from '../wire/cohort.js'
import { Paginated } from '../wire/common.js'
import { LIST_QUERY } from './query.js'

const TAG = 'cohorts'

const projectOf = (ctx: RouteContext<unknown>): Promise<Project> => visibleProject(ctx, ctx.params.project_id)
/** The route's `:id(\d+)`; core answers 404 for ids no row can have. */
const idOf = (ctx: RouteContext<unknown>): number => Number(ctx.params.id)
const actorOf = (ctx: RouteContext<unknown>): Actor => ({ userId: principalOf(ctx).user.id })

const cohortInput = (b: typeof CohortWrite.Type): UpdateCohortInput => ({
  name: b.name,
  description: b.description,
  groups: b.groups,
  // Core decodes the criteria and names the failing path.
  filters: b.filters as UpdateCohortInput['filters'],
  isStatic: b.is_static,
  deleted: b.deleted,
  distinctIds: b.distinct_ids,
  personIds: b.person_ids,
  query: b.query,
})

export const list = endpoint({
  summary: "List a project's cohorts that are not deleted, newest first, each with its `count`.",
  tag: TAG,
  access: { scope: 'cohort:read' },
  query: LIST_QUERY,
  responses: { 200: Paginated(Cohort, 'Cohort') },
  async handle(ctx) {
    const project = await projectOf(ctx)
    const page = pageOf(ctx)
    const result = await ctx.sightline.cohorts.list(project.id, page)
    return respondPage(ctx, page, result.count, result.results.map(cohortToWire))
  },
})

export const create = endpoint({
  summary: 'Create a cohort, made by the caller: static (`is_static`, persons by `distinct_ids`, `person_ids` or an ActorsQuery `query`) or dynamic (`filters`).',
  tag: TAG,
  access: { scope: 'cohort:write' },
  body: CohortWrite,
  responses: { 201: Cohort },
  async handle(ctx) {
    const project = await projectOf(ctx)
    const { deleted: _ignored, ...input } = cohortInput(ctx.body)
    return respond(ctx, cohortToWire(await ctx.sightline.cohorts.create(project.id, input, actorOf(ctx))), 201)
  },
})

export const retrieve = endpoint({
  summary: 'Read a cohort (a soft-deleted one too, as PostHog), its `count` computed now.',
  tag: TAG,
  access: { scope: 'cohort:read' },
  responses: { 200: Cohort },
  async handle(ctx) {
    const project = await projectOf(ctx)
    return respond(ctx, cohortToWire(await ctx.sightline.cohorts.get(project.id, idOf(ctx))))
  },
})

export const update = endpoint({
  summary: 'Change a cohort; listed persons are added to a static one; `deleted: true` soft-deletes it, `false` restores it.',
  tag: TAG,
  access: { scope: 'cohort:write' },
  body: CohortWrite,
  responses: { 200: Cohort },
  async handle(ctx) {
    const project = await projectOf(ctx)
    return respond(ctx, cohortToWire(await ctx.sightline.cohorts.update(project.id, idOf(ctx), cohortInput(ctx.body), actorOf(ctx))))
  },
})

export const persons = endpoint({
  summary: "The cohort's persons, newest first (needs `person:read` too, as PostHog).",
  tag: TAG,
  access: { scope: 'cohort:read' },
  query: LIST_QUERY,
  responses: { 200: Paginated(CohortPerson, 'CohortPerson') },
  async handle(ctx) {
    requireScope(principalOf(ctx), 'person:read')
    const project = await projectOf(ctx)
    const page = pageOf(ctx)
    const result = await ctx.sightline.cohorts.persons(project.id, idOf(ctx), page)
    return respondPage(ctx, page, result.count, result.results.map(cohortPersonToWire))
  },
})

/** What `/cohorts/:id/` allows: DELETE is routed only to be refused (PostHog's `ForbidDestroyModel`). */
const ALLOW = 'GET, PATCH, HEAD, OPTIONS'

export const remove = endpoint({
  summary: 'Refused: a cohort is never deleted. Soft-delete it with PATCH `deleted: true`.',
  tag: TAG,
  access: { scope: 'cohort:write' },
  responses: { 405: null },
  async handle(ctx) {
    await projectOf(ctx)
    return new Response(null, { status: 405, headers: { allow: ALLOW } })
  },
})
