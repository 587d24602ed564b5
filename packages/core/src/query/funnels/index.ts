/**
 * Funnels (PostHog's legacy `/insights/funnel/` and `/persons/funnel/`):
 * params -> plan -> SQL for DuckDB and Postgres -> PostHog's result shapes.
 */
export { runFunnel, type FunnelResponse } from './run-funnel.js'
export { funnelActors, type FunnelActor } from './funnel-actors.js'
export { decodeFunnelRequest, decodeFunnelActorsRequest, MAX_FUNNEL_STEPS } from './params/decode-funnel-params.js'
export type { FunnelRequest, FunnelActorsRequest, FunnelOrder, FunnelViz, FunnelAttribution, FunnelBreakdown, FunnelExclusion } from './funnel-request.js'
