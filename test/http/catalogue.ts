import type { ApiScope } from '@sightline/core'

/** The records an operation's path can name, all of tenant A. */
export interface Ids {
  readonly orgId: string
  readonly projectId: number
  readonly pluginId: number
  readonly insightId: number
  readonly definitionId: string
}

export interface Operation {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  /** As the OpenAPI document writes it. */
  readonly template: string
  /** The template with tenant A's ids. */
  readonly path: string
  readonly access: ApiScope | 'authenticated' | 'public'
  /**
   * `owned`: the path names a record of tenant A, so any other tenant gets a 404;
   * `caller`: the answer is the caller's own (lists without an id in the path);
   * `public`: no personal API key (capture, the schema).
   */
  readonly tenancy: 'owned' | 'caller' | 'public'
  /** A harmless body for writes. */
  readonly body?: unknown
  /** The status a successful call answers (the insight DELETE is always refused). */
  readonly success: number
}

type Row = [Operation['method'], string, Operation['access'], unknown?, number?]

const P = '/api/projects/{project_id}'
const PLUGINS = '/api/organizations/{parent_lookup_organization_id}/plugins'

/** Every operation of the interface that exists now, in the order the walk calls them. */
const ROWS: ReadonlyArray<Row> = [
  ['GET', '/api/users/@me/', 'authenticated'],
  ['GET', '/api/organizations/', 'organization:read'],
  ['GET', '/api/organizations/{org}/', 'organization:read'],
  ['GET', '/api/projects/', 'project:read'],
  ['POST', '/api/projects/', 'project:write', { name: 'Catalogue' }, 201],
  ['GET', '/api/projects/{project}/', 'project:read'],
  ['PATCH', '/api/projects/{project}/', 'project:write', { week_start_day: 1 }],
  ['GET', `${P}/event_definitions/`, 'event_definition:read'],
  ['GET', `${P}/event_definitions/{definition}/`, 'event_definition:read'],
  ['PATCH', `${P}/event_definitions/{definition}/`, 'event_definition:write', { tags: ['walked'] }],
  ['DELETE', `${P}/event_definitions/{definition}/`, 'event_definition:write', undefined, 204],
  ['GET', `${PLUGINS}/`, 'plugin:read'],
  ['POST', `${PLUGINS}/`, 'plugin:write', { name: 'Catalogue plugin' }, 201],
  ['GET', `${PLUGINS}/{plugin}/`, 'plugin:read'],
  ['PATCH', `${PLUGINS}/{plugin}/`, 'plugin:write', { description: 'walked' }],
  ['GET', `${PLUGINS}/{plugin}/check_for_updates/`, 'plugin:read'],
  ['GET', `${PLUGINS}/{plugin}/source/`, 'plugin:read'],
  ['PATCH', `${PLUGINS}/{plugin}/update_source/`, 'plugin:write', { 'index.ts': '// walked' }],
  ['POST', `${PLUGINS}/{plugin}/upgrade/`, 'plugin:write', {}],
  ['GET', `${PLUGINS}/activity/`, 'plugin:read'],
  ['GET', `${PLUGINS}/repository/`, 'plugin:read'],
  ['GET', `${PLUGINS}/unused/`, 'plugin:read'],
  ['DELETE', `${PLUGINS}/{plugin}/`, 'plugin:write', undefined, 204],
  ['GET', `${P}/insights/`, 'insight:read'],
  ['POST', `${P}/insights/`, 'insight:write', { name: 'Catalogue insight' }, 201],
  ['GET', `${P}/insights/{insight}/`, 'insight:read'],
  ['PATCH', `${P}/insights/{insight}/`, 'insight:write', { description: 'walked' }],
  ['DELETE', `${P}/insights/{insight}/`, 'insight:write', undefined, 405],
  ['GET', `${P}/insights/{insight}/activity/`, 'insight:read'],
  ['POST', `${P}/insights/{insight}/viewed/`, 'insight:read', {}],
  ['GET', `${P}/insights/activity/`, 'insight:read'],
  ['GET', `${P}/insights/my_last_viewed/`, 'insight:read'],
  ['GET', '/api/schema/', 'public'],
  ...(['/batch/', '/capture/', '/e/', '/i/v0/e/', '/track/', '/engage/'] as const).flatMap((path): Row[] => [
    ['POST', path, 'public'],
    ['GET', path, 'public'],
  ]),
]

/** Every operation, its path filled with tenant A's ids. */
export function operations(ids: Ids): Operation[] {
  return ROWS.map(([method, raw, access, body, success = 200]) => {
    const fill: Record<string, string> = {
      '{org}': ids.orgId,
      '{project}': String(ids.projectId),
      '{project_id}': String(ids.projectId),
      '{parent_lookup_organization_id}': ids.orgId,
      '{definition}': ids.definitionId,
      '{plugin}': String(ids.pluginId),
      '{insight}': String(ids.insightId),
    }
    const path = raw.replace(/\{[a-z_]+\}/g, (p) => fill[p]!)
    // The document names every record parameter `id`.
    const template = raw.replace(/\{(org|project|definition|plugin|insight)\}/g, '{id}')
    const tenancy: Operation['tenancy'] = access === 'public' ? 'public' : /\{/.test(raw) ? 'owned' : 'caller'
    return { method, template, path, access, tenancy, success, ...(body !== undefined && { body }) }
  })
}
