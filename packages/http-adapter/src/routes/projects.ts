import type { CreateProjectInput } from '@sightline/core'
import { principalOf, visibleProject } from '../access.js'
import { invalidInput } from '../errors.js'
import { respond, respondSlice } from '../internal/respond.js'
import { endpoint } from '../route.js'
import { Paginated } from '../wire/common.js'
import { PatchedProject, Project, ProjectCreate, projectToWire } from '../wire/project.js'
import { LIST_QUERY } from './query.js'

const TAG = 'projects'

export const list = endpoint({
  summary: "List the projects of the caller's organizations, oldest first.",
  tag: TAG,
  access: { scope: 'project:read' },
  query: LIST_QUERY,
  responses: { 200: Paginated(Project, 'Project') },
  async handle(ctx) {
    const principal = principalOf(ctx)
    const projects = (await ctx.sightline.projects.list()).filter((p) => principal.organizationIds.has(p.organizationId))
    return respondSlice(ctx, projects.map(projectToWire))
  },
})

export const create = endpoint({
  summary: "Create a project, in `organization` or the caller's first organization.",
  tag: TAG,
  access: { scope: 'project:write' },
  body: ProjectCreate,
  responses: { 201: Project },
  async handle(ctx) {
    const principal = principalOf(ctx)
    const organizationId = ctx.body.organization?.toLowerCase() ?? [...principal.organizationIds][0]
    // An organization the caller is not a member of reads as one that does not exist (DRF's related-field message).
    if (organizationId === undefined || !principal.organizationIds.has(organizationId)) {
      throw invalidInput(`Invalid pk "${ctx.body.organization ?? ''}" - object does not exist.`, 'organization', 'does_not_exist')
    }
    const project = await ctx.sightline.projects.create({
      organizationId: organizationId as CreateProjectInput['organizationId'],
      name: ctx.body.name,
      timezone: ctx.body.timezone,
      weekStartDay: ctx.body.week_start_day,
      testAccountFilters: ctx.body.test_account_filters,
      pathCleaningFilters: ctx.body.path_cleaning_filters,
    }, { userId: principal.user.id })
    return respond(ctx, projectToWire(project), 201)
  },
})

export const retrieve = endpoint({
  summary: 'Read a project.',
  tag: TAG,
  access: { scope: 'project:read' },
  responses: { 200: Project },
  async handle(ctx) {
    return respond(ctx, projectToWire(await visibleProject(ctx, ctx.params.id)))
  },
})

export const update = endpoint({
  summary: "Change a project's name, time zone, week start or test account filters.",
  tag: TAG,
  access: { scope: 'project:write' },
  body: PatchedProject,
  responses: { 200: Project },
  async handle(ctx) {
    const project = await visibleProject(ctx, ctx.params.id)
    const updated = await ctx.sightline.projects.update(project.id, {
      name: ctx.body.name,
      timezone: ctx.body.timezone,
      weekStartDay: ctx.body.week_start_day,
      testAccountFilters: ctx.body.test_account_filters,
      pathCleaningFilters: ctx.body.path_cleaning_filters,
    }, { userId: principalOf(ctx).user.id })
    return respond(ctx, projectToWire(updated))
  },
})
