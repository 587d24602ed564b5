import { compileHogql, hogqlToText, type HogqlScope } from '../hogql/index.js'
import { PERSON_ID } from './event-scope.js'
import type { QuerySources } from './query-sources.js'

/**
 * The columns a HogQL expression may read over an analysis's scope: the
 * scope's own, the person through the text-safe id (`PERSON_ID`: a personless
 * event's distinct id); `now()` is `now`, dates are in `timezone`.
 */
export function hogqlScope(sources: QuerySources, timezone: string, now: Date): HogqlScope {
  return {
    hooks: sources.hooks,
    event: sources.event,
    ...(sources.eventProperty ? { eventProperty: sources.eventProperty } : {}),
    ...(sources.eventNumber ? { eventNumber: sources.eventNumber } : {}),
    eventName: sources.eventName,
    timestamp: sources.timestamp,
    distinctId: sources.distinctId,
    personId: PERSON_ID,
    ...(sources.person ? { person: sources.person } : {}),
    ...(sources.elementsChain ? { elementsChain: sources.elementsChain } : {}),
    sessionId: sources.sessionId,
    ...(sources.groups ? { groups: sources.groups } : {}),
    groupKeys: sources.groupKeys,
    timezone,
    now,
  }
}

/** A compiler of HogQL expressions to their text over `hogqlScope(...)`; `path` names the request field in errors. */
export function hogqlTextCompiler(sources: QuerySources, timezone: string, now: Date) {
  const scope = hogqlScope(sources, timezone, now)
  return (expression: string, path: ReadonlyArray<string | number>) => hogqlToText(compileHogql(expression, scope, path))
}
