import type { Organization, Project } from '@sightline/core'
import type { Principal } from './auth.js'
import { notFound } from './errors.js'
import type { RouteContext } from './route.js'

/** The caller of an endpoint whose access requires a key (set by the handler before `handle`). */
export function principalOf(ctx: RouteContext<unknown>): Principal {
  if (!ctx.principal) throw new Error('principalOf called on a public endpoint')
  return ctx.principal
}

/**
 * The project named by a path parameter, if the caller's user is a member of
 * its organization. A project of another organization answers exactly like
 * one that does not exist: 404, nothing of it shown.
 */
export async function visibleProject(ctx: RouteContext<unknown>, raw: string | undefined): Promise<Project> {
  const principal = principalOf(ctx)
  if (raw === undefined || !/^\d{1,15}$/.test(raw)) throw notFound()
  const project = await ctx.sightline.projects.get(Number(raw))
  if (!principal.organizationIds.has(project.organizationId)) throw notFound()
  return project
}

/** The organization named by a path parameter, if the caller's user is a member; otherwise 404. */
export async function visibleOrganization(ctx: RouteContext<unknown>, raw: string | undefined): Promise<Organization> {
  const principal = principalOf(ctx)
  const id = raw?.toLowerCase()
  if (id === undefined || !principal.organizationIds.has(id)) throw notFound()
  return ctx.sightline.organizations.get(id)
}
