import { route, type Route } from '../route.js'
import * as capture from './capture.js'
import * as eventDefinitions from './event-definitions.js'
import * as organizations from './organizations.js'
import * as projects from './projects.js'
import * as users from './users.js'

/**
 * The route table. Scopes are on the endpoints (`access`); paths match with
 * or without their trailing slash. Plugins and insights join here, each a
 * line per operation, with their endpoints in their own files.
 */
export const apiRoutes: ReadonlyArray<Route> = [
  route('GET',    '/api/projects/',                                      projects.list),
  route('POST',   '/api/projects/',                                      projects.create),
  route('GET',    '/api/projects/:id/',                                  projects.retrieve),
  route('PATCH',  '/api/projects/:id/',                                  projects.update),

  route('GET',    '/api/organizations/',                                 organizations.list),
  route('GET',    '/api/organizations/:id/',                             organizations.retrieve),

  route('GET',    '/api/users/@me/',                                     users.me),

  route('GET',    '/api/projects/:project_id/event_definitions/',        eventDefinitions.list),
  route('GET',    '/api/projects/:project_id/event_definitions/:id/',    eventDefinitions.retrieve),
  route('PATCH',  '/api/projects/:project_id/event_definitions/:id/',    eventDefinitions.update),
  route('DELETE', '/api/projects/:project_id/event_definitions/:id/',    eventDefinitions.remove),

  ...(['/batch/', '/capture/', '/e/', '/i/v0/e/', '/track/'] as const).flatMap((path) => [
    route('GET',  path, capture.capture),
    route('POST', path, capture.capture),
  ]),
  route('GET',    '/engage/',                                            capture.engage),
  route('POST',   '/engage/',                                            capture.engage),
]
