import { route, type Route } from '../route.js'
import * as actions from './actions.js'
import * as analyses from './analyses.js'
import * as capture from './capture.js'
import * as dashboards from './dashboards.js'
import * as decide from './decide.js'
import * as cohorts from './cohorts.js'
import * as eventDefinitions from './event-definitions.js'
import * as flags from './flags.js'
import * as insights from './insights.js'
import * as insightCancel from './insight-cancel.js'
import * as insightTiming from './insight-timing.js'
import * as organizations from './organizations.js'
import * as plugins from './plugins.js'
import * as projects from './projects.js'
import * as remoteConfig from './remote-config.js'
import * as users from './users.js'

const PLUGINS = '/api/organizations/:parent_lookup_organization_id/plugins'
const INSIGHTS = '/api/projects/:project_id/insights'
const ACTIONS = '/api/projects/:project_id/actions'
const COHORTS = '/api/projects/:project_id/cohorts'
const DASHBOARDS = '/api/projects/:project_id/dashboards'

/**
 * The route table. Scopes are on the endpoints (`access`); paths match with
 * or without their trailing slash. Plugin and insight ids are integers
 * (`:id(\d+)`), so a literal segment added later (`insights/trend/`) can
 * never be taken for an id, whatever its method; a literal segment also wins
 * over any parameter (see the router).
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

  route('GET',    `${PLUGINS}/`,                                         plugins.list),
  route('POST',   `${PLUGINS}/`,                                         plugins.create),
  route('GET',    `${PLUGINS}/:id(\\d+)/`,                               plugins.retrieve),
  route('PATCH',  `${PLUGINS}/:id(\\d+)/`,                               plugins.update),
  route('DELETE', `${PLUGINS}/:id(\\d+)/`,                               plugins.remove),
  route('GET',    `${PLUGINS}/:id(\\d+)/check_for_updates/`,             plugins.checkForUpdates),
  route('GET',    `${PLUGINS}/:id(\\d+)/source/`,                        plugins.source),
  route('PATCH',  `${PLUGINS}/:id(\\d+)/update_source/`,                 plugins.updateSource),
  route('POST',   `${PLUGINS}/:id(\\d+)/upgrade/`,                       plugins.upgrade),
  route('GET',    `${PLUGINS}/activity/`,                                plugins.activity),
  route('GET',    `${PLUGINS}/repository/`,                              plugins.repository),
  route('GET',    `${PLUGINS}/unused/`,                                  plugins.unused),

  route('GET',    `${INSIGHTS}/`,                                        insights.list),
  route('POST',   `${INSIGHTS}/`,                                        insights.create),
  route('GET',    `${INSIGHTS}/:id(\\d+)/`,                              insights.retrieve),
  route('PATCH',  `${INSIGHTS}/:id(\\d+)/`,                              insights.update),
  route('DELETE', `${INSIGHTS}/:id(\\d+)/`,                              insights.remove),
  route('GET',    `${INSIGHTS}/:id(\\d+)/activity/`,                     insights.itemActivity),
  route('POST',   `${INSIGHTS}/:id(\\d+)/viewed/`,                       insights.viewed),
  route('GET',    `${INSIGHTS}/activity/`,                               insights.activity),
  route('GET',    `${INSIGHTS}/my_last_viewed/`,                         insights.myLastViewed),
  route('POST',   `${INSIGHTS}/cancel/`,                                 insightCancel.cancel),
  route('POST',   `${INSIGHTS}/timing/`,                                 insightTiming.timing),
  // Every analysis and its persons list, from core's registry (GET and POST of insights/<analysis>/, GET of persons/<analysis>/).
  ...analyses.analysisRoutes,

  route('GET',    `${ACTIONS}/`,                                         actions.list),
  route('POST',   `${ACTIONS}/`,                                         actions.create),
  route('GET',    `${ACTIONS}/:id(\\d+)/`,                               actions.retrieve),
  route('PATCH',  `${ACTIONS}/:id(\\d+)/`,                               actions.update),
  route('DELETE', `${ACTIONS}/:id(\\d+)/`,                               actions.remove),

  route('GET',    `${COHORTS}/`,                                         cohorts.list),
  route('POST',   `${COHORTS}/`,                                         cohorts.create),
  route('GET',    `${COHORTS}/:id(\\d+)/`,                               cohorts.retrieve),
  route('PATCH',  `${COHORTS}/:id(\\d+)/`,                               cohorts.update),
  route('DELETE', `${COHORTS}/:id(\\d+)/`,                               cohorts.remove),
  route('GET',    `${COHORTS}/:id(\\d+)/persons/`,                       cohorts.persons),

  route('GET',    `${DASHBOARDS}/`,                                      dashboards.list),
  route('POST',   `${DASHBOARDS}/`,                                      dashboards.create),
  route('GET',    `${DASHBOARDS}/:id(\\d+)/`,                            dashboards.retrieve),
  route('PATCH',  `${DASHBOARDS}/:id(\\d+)/`,                            dashboards.update),
  route('DELETE', `${DASHBOARDS}/:id(\\d+)/`,                            dashboards.remove),

  ...(['/batch/', '/capture/', '/e/', '/i/v0/e/', '/track/'] as const).flatMap((path) => [
    route('GET',  path, capture.capture),
    route('POST', path, capture.capture),
  ]),
  route('GET',    '/engage/',                                            capture.engage),
  route('POST',   '/engage/',                                            capture.engage),

  route('GET',    '/flags/',                                             flags.flags),
  route('POST',   '/flags/',                                             flags.flags),
  route('GET',    '/array/:token/config/',                               remoteConfig.json),
  route('GET',    '/array/:token/config.js/',                            remoteConfig.script),
  route('GET',    '/decide/',                                            decide.decide),
  route('POST',   '/decide/',                                            decide.decide),
  route('GET',    '/flags/definitions/',                                 flags.definitions),
  route('GET',    '/api/feature_flag/local_evaluation/',                 flags.definitions),
]
