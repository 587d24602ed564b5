import type { ApiScope } from '@sightline/core'

/** The records an operation's path can name, all of tenant A. */
export interface Ids {
  readonly orgId: string
  readonly projectId: number
  readonly pluginId: number
  readonly insightId: number
  readonly definitionId: string
  readonly actionId: number
  readonly cohortId: number
  readonly dashboardId: number
}

export interface Operation {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  /** As the OpenAPI document writes it. */
  readonly template: string
  /** The template with tenant A's ids. */
  readonly path: string
  readonly access: ApiScope | 'authenticated' | 'public'
  /** Scopes the handler asks for after `access` (PostHog's cohort persons need `person:read` too). */
  readonly alsoNeeds: ReadonlyArray<ApiScope>
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

/** Method, path (a query string after `?` is sent, not documented), access, body, success status (200). */
type Row = [Operation['method'], string, Operation['access'], unknown?, number?]

const P = '/api/projects/{project_id}'
const PLUGINS = '/api/organizations/{parent_lookup_organization_id}/plugins'
/** An analysis' parameters as a GET query string (JSON values as text), valid so that a granted key gets a 200. */
const query = (params: Record<string, unknown>) => `?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, JSON.stringify(v)]))}`
const ONE_SERIES = { events: [{ id: 'catalogue_event' }] }
const TWO_STEPS = { events: [{ id: 'catalogue_event', order: 0 }, { id: 'catalogue_event', order: 1 }] }
const RETENTION = { target_entity: { id: 'catalogue_event', type: 'events' }, returning_entity: { id: 'catalogue_event', type: 'events' }, total_intervals: 3 }
const PATHS = { include_event_types: ['custom_event'] }
const CORRELATION = { ...TWO_STEPS, funnel_correlation_type: 'events' }

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
  // Analyses compute from a project's events: no record in the path but the project's, answered to insight:read (persons: person:read).
  ['POST', `${P}/insights/trend/`, 'insight:read', ONE_SERIES],
  ['GET', `${P}/insights/trend/${query(ONE_SERIES)}`, 'insight:read'],
  ['POST', `${P}/insights/funnel/`, 'insight:read', TWO_STEPS],
  ['GET', `${P}/insights/funnel/${query(TWO_STEPS)}`, 'insight:read'],
  ['GET', `${P}/persons/trends/${query(ONE_SERIES)}`, 'person:read'],
  ['GET', `${P}/persons/funnel/${query({ ...TWO_STEPS, funnel_step: 1 })}`, 'person:read'],
  ['POST', `${P}/insights/retention/`, 'insight:read', RETENTION],
  ['GET', `${P}/insights/retention/${query(RETENTION)}`, 'insight:read'],
  ['GET', `${P}/persons/retention/${query({ ...RETENTION, selected_interval: 0 })}`, 'person:read'],
  ['POST', `${P}/insights/path/`, 'insight:read', PATHS],
  ['GET', `${P}/insights/path/${query(PATHS)}`, 'insight:read'],
  ['GET', `${P}/persons/path/${query({ ...PATHS, path_start_key: '1_catalogue_event' })}`, 'person:read'],
  ['POST', `${P}/insights/funnel/correlation/`, 'insight:read', CORRELATION],
  ['GET', `${P}/insights/funnel/correlation/${query(CORRELATION)}`, 'insight:read'],
  ['GET', `${P}/persons/funnel/correlation/${query({ ...CORRELATION, funnel_correlation_person_entity: { id: 'catalogue_event', type: 'events' }, funnel_correlation_person_converted: 'true' })}`, 'person:read'],
  ['POST', `${P}/insights/cancel/`, 'insight:read', { client_query_id: 'catalogue' }],
  ['POST', `${P}/insights/timing/`, 'insight:read', { time_to_see_data_ms: 1 }],
  ['GET', `${P}/actions/`, 'action:read'],
  ['POST', `${P}/actions/`, 'action:write', { name: 'Catalogue action' }, 201],
  ['GET', `${P}/actions/{action}/`, 'action:read'],
  ['PATCH', `${P}/actions/{action}/`, 'action:write', { description: 'walked' }],
  ['DELETE', `${P}/actions/{action}/`, 'action:write', undefined, 405],
  ['GET', `${P}/cohorts/`, 'cohort:read'],
  ['POST', `${P}/cohorts/`, 'cohort:write', { name: 'Catalogue cohort' }, 201],
  ['GET', `${P}/cohorts/{cohort}/`, 'cohort:read'],
  ['PATCH', `${P}/cohorts/{cohort}/`, 'cohort:write', { description: 'walked' }],
  ['DELETE', `${P}/cohorts/{cohort}/`, 'cohort:write', undefined, 405],
  ['GET', `${P}/cohorts/{cohort}/persons/`, 'cohort:read'],
  ['GET', `${P}/dashboards/`, 'dashboard:read'],
  ['POST', `${P}/dashboards/`, 'dashboard:write', { name: 'Catalogue dashboard' }, 201],
  ['GET', `${P}/dashboards/{dashboard}/`, 'dashboard:read'],
  ['PATCH', `${P}/dashboards/{dashboard}/`, 'dashboard:write', { description: 'walked' }],
  ['DELETE', `${P}/dashboards/{dashboard}/`, 'dashboard:write', undefined, 405],
  ['GET', '/api/schema/', 'public'],
  ...(['/batch/', '/capture/', '/e/', '/i/v0/e/', '/track/', '/engage/'] as const).flatMap((path): Row[] => [
    ['POST', path, 'public'],
    ['GET', path, 'public'],
  ]),
]

const ALSO_NEEDS: Readonly<Record<string, ReadonlyArray<ApiScope>>> = {
  [`GET ${P}/cohorts/{cohort}/persons/`]: ['person:read'],
}

/** Every operation, its path filled with tenant A's ids. */
export function operations(ids: Ids): Operation[] {
  return ROWS.map(([method, sent, access, body, success = 200]) => {
    const [raw, search = ''] = sent.split('?') as [string, string?]
    const fill: Record<string, string> = {
      '{org}': ids.orgId,
      '{project}': String(ids.projectId),
      '{project_id}': String(ids.projectId),
      '{parent_lookup_organization_id}': ids.orgId,
      '{definition}': ids.definitionId,
      '{plugin}': String(ids.pluginId),
      '{insight}': String(ids.insightId),
      '{action}': String(ids.actionId),
      '{cohort}': String(ids.cohortId),
      '{dashboard}': String(ids.dashboardId),
    }
    const path = raw.replace(/\{[a-z_]+\}/g, (p) => fill[p]!) + (search && `?${search}`)
    // The document names every record parameter `id`.
    const template = raw.replace(/\{(org|project|definition|plugin|insight|action|cohort|dashboard)\}/g, '{id}')
    const tenancy: Operation['tenancy'] = access === 'public' ? 'public' : /\{/.test(raw) ? 'owned' : 'caller'
    const alsoNeeds = ALSO_NEEDS[`${method} ${raw}`] ?? []
    return { method, template, path, access, alsoNeeds, tenancy, success, ...(body !== undefined && { body }) }
  })
}
