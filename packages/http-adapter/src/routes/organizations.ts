import { principalOf, visibleOrganization } from '../access.js'
import { respond, respondSlice } from '../internal/respond.js'
import { endpoint } from '../route.js'
import { Paginated } from '../wire/common.js'
import { Organization, organizationToWire } from '../wire/organization.js'
import { LIST_QUERY } from './query.js'

const TAG = 'organizations'

export const list = endpoint({
  summary: 'List the organizations the caller is a member of.',
  tag: TAG,
  access: { scope: 'organization:read' },
  query: LIST_QUERY,
  responses: { 200: Paginated(Organization, 'Organization') },
  async handle(ctx) {
    const principal = principalOf(ctx)
    const organizations = await ctx.sightline.organizations.list({ userId: principal.user.id })
    const projects = await ctx.sightline.projects.list()
    return respondSlice(
      ctx,
      organizations.map((o) => organizationToWire(o, projects.filter((p) => p.organizationId === o.id))),
    )
  },
})

export const retrieve = endpoint({
  summary: 'Read an organization and its projects.',
  tag: TAG,
  access: { scope: 'organization:read' },
  responses: { 200: Organization },
  async handle(ctx) {
    const organization = await visibleOrganization(ctx, ctx.params.id)
    const projects = await ctx.sightline.projects.list({ organizationId: organization.id })
    return respond(ctx, organizationToWire(organization, projects))
  },
})
