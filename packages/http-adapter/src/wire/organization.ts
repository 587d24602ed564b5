import { Schema } from 'effect'
import { projectToWire } from './project.js'
import type { Organization as CoreOrganization, Project as CoreProject } from '@sightline/core'
import { DateTime, Uuid } from './common.js'

/** A project as listed inside its organization (PostHog's TeamBasicSerializer, trimmed). */
export const TeamBasic = Schema.Struct({
  id: Schema.Int,
  uuid: Uuid,
  organization: Uuid,
  project_id: Schema.Int,
  api_token: Schema.String,
  name: Schema.String,
  timezone: Schema.String,
}).annotate({ identifier: 'TeamBasic' })

export const Organization = Schema.Struct({
  id: Uuid,
  name: Schema.String,
  created_at: DateTime,
  teams: Schema.Array(TeamBasic),
}).annotate({ identifier: 'Organization' })

/** An organization as listed on a user (PostHog's OrganizationBasicSerializer, trimmed). */
export const OrganizationBasic = Schema.Struct({
  id: Uuid,
  name: Schema.String,
}).annotate({ identifier: 'OrganizationBasic' })

/** The basic team fields are the project's own wire fields, trimmed. */
export const teamToWire = (p: CoreProject): typeof TeamBasic.Type => {
  const { id, uuid, organization, project_id, api_token, name, timezone } = projectToWire(p)
  return { id, uuid, organization, project_id, api_token, name, timezone }
}

export const organizationToWire = (o: CoreOrganization, projects: ReadonlyArray<CoreProject>): typeof Organization.Type => ({
  id: o.id,
  name: o.name,
  created_at: o.createdAt,
  teams: projects.map(teamToWire),
})
