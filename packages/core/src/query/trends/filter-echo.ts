import type { PropertyFilters } from '../filters/property-filters.js'
import type { TrendRequest, TrendSeries } from './trend-request.js'

/**
 * The parts of a trend's `filter` echo that the interface document types
 * (4.4: `events` and `actions` arrays whose elements have `id`, `properties`
 * an array and `math` a string; `properties` an object), written as
 * PostHog's legacy `Filter.to_dict()` writes them where the two agree, so
 * PostHog's app reads them as it reads PostHog's:
 *
 * - the entities of each kind in the order the analysis uses (PostHog's
 *   `entities_to_dict` lists `self.events`, sorted by `order`), each as sent
 *   with its `type`, its math (`total`, the math used, when none was named:
 *   PostHog echoes null there, the document types a string) and its properties as a list
 *   (the old `{key: value}` form as conditions; PostHog writes a group
 *   object, its app types an entity's properties as a list, as the document);
 *   an action's `id` its integer id, as PostHog (README);
 * - both lists always, `[]` for a kind the request does not name (PostHog
 *   leaves the key out, the document lists both);
 * - `properties` as PostHog's `PropertyGroup.to_dict()`: a group as sent, a
 *   list of conditions as the AND group of them, none as `{}`.
 */
export function entitiesEcho(series: ReadonlyArray<TrendSeries>): { events: object[]; actions: object[] } {
  const echo = (s: TrendSeries) => ({
    ...s.entity.input,
    ...(s.entity.kind === 'actions' ? { id: s.entity.actionId } : {}),
    type: s.entity.kind,
    math: s.entity.input.math ?? 'total',
    properties: s.entity.properties,
  })
  return {
    events: series.filter((s) => s.entity.kind === 'events').map(echo),
    actions: series.filter((s) => s.entity.kind === 'actions').map(echo),
  }
}

export function propertiesEcho(properties: PropertyFilters): object {
  if (!Array.isArray(properties)) return properties
  return properties.length === 0 ? {} : { type: 'AND', values: properties }
}

/** `filter`'s documented fields for a request (the rest is `filterObject`'s). */
export const documentedFilterFields = (request: TrendRequest) => ({ ...entitiesEcho(request.series), properties: propertiesEcho(request.properties) })
