import type { PropertyFilters } from '../filters/property-filters.js'
import { normalizeProperties } from '../series/series.js'
import type { TrendRequest } from './trend-request.js'

/**
 * The parts of a trend's `filter` echo that the interface document types
 * (4.4: `events` and `actions` arrays whose elements have `id`, `properties`
 * an array and `math` a string; `properties` an object), written as
 * PostHog's legacy `Filter.to_dict()` writes them where the two agree, so
 * PostHog's app reads them as it reads PostHog's:
 *
 * - each entity as sent (the request was read before: every element is an
 *   object), in the order sent, with its `type`, its math (`total`, the math
 *   used, when none was named: PostHog echoes null there, the document types
 *   a string) and its properties as a list (the old `{key: value}` form as
 *   conditions, none as []; PostHog writes a group object, its app types an
 *   entity's properties as a list, as the document does);
 * - both lists always, `[]` for a kind the request does not name (PostHog
 *   leaves the key out, the document lists both);
 * - `properties` as PostHog's `PropertyGroup.to_dict()`: a group as sent, a
 *   list of conditions as the AND group of them, none as `{}`.
 */
function entitiesEcho(sent: unknown, type: 'events' | 'actions'): object[] {
  if (!Array.isArray(sent)) return []
  return sent.map((e: Record<string, unknown>) => ({ ...e, type, math: e.math ?? 'total', properties: normalizeProperties(e.properties) }))
}

function propertiesEcho(properties: PropertyFilters): object {
  if (!Array.isArray(properties)) return properties
  return properties.length === 0 ? {} : { type: 'AND', values: properties }
}

/** `filter`'s documented fields for a request (the rest is `filterObject`'s). */
export const documentedFilterFields = (request: TrendRequest) => ({
  events: entitiesEcho(request.params.events, 'events'),
  actions: entitiesEcho(request.params.actions, 'actions'),
  properties: propertiesEcho(request.properties),
})
