/** PostHog's paths analysis (`/insights/path/`) and the persons behind it (`/persons/path/`). */
export { runPaths, type PathsResponse } from './run-paths.js'
export { pathActors } from './path-actors.js'
export type { PathEdge } from './reachable-edges.js'
export type { PathsRequest, PathEventType, PathCleaningRule } from './paths-request.js'
export type { ActorsPage, ActorsResult, TrendActor } from '../actors/actor-details.js'
