export { createHandler, type FetchHandler } from './handler.js'
export { toNodeHandler, type NodeHandler } from './node.js'
export type { HandlerOptions, InsightTimingReport } from './options.js'
export type { ErrorBody } from './errors.js'
