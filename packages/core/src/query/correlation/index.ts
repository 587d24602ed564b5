/**
 * Funnel correlation (PostHog's legacy `/insights/funnel/correlation/` and
 * `/persons/funnel/correlation/`): which events, event properties or actor
 * properties go with converting through a funnel, as odds ratios.
 */
export { runFunnelCorrelation, type FunnelCorrelationResponse, type CorrelationRow } from './run-funnel-correlation.js'
export { correlationActors } from './correlation-actors.js'
export { decodeCorrelationRequest, decodeCorrelationActorsRequest } from './decode-correlation-params.js'
export type { CorrelationType, CorrelationRequest, CorrelationActorsRequest } from './correlation-request.js'
