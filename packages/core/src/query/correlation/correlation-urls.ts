import { funnelUrlQuery } from '../funnels/shape/people-urls.js'
import type { SerializedElement } from './chain-to-elements.js'
import type { CorrelationRequest } from './correlation-request.js'

/** Keys the people URL sets itself; a request's own values for them are replaced. */
export const PERSON_KEYS = ['funnel_correlation_person_entity', 'funnel_correlation_person_converted', 'funnel_correlation_property_values'] as const

/** The row a people URL is for: how its event or property reads, and its elements for autocapture rows. */
export interface UrlRow {
  readonly event: string | null
  readonly key: string | null
  readonly value: string | null
  readonly elements: ReadonlyArray<SerializedElement>
}

/**
 * PostHog's `construct_people_url`: the request's parameters plus
 * `funnel_correlation_person_converted` and, for event rows,
 * `funnel_correlation_person_entity` (the event, with an exact event-property
 * filter for event_with_properties, or element filters built from the first
 * element and the chain's selector for autocapture), for property rows
 * `funnel_correlation_property_values` (the property's exact value, a person
 * or group property). Relative to the API root; PostHog's random
 * `cache_invalidation_key` is left out, so answers repeat.
 */
export function correlationPeopleUrl(projectId: number, request: CorrelationRequest, row: UrlRow, success: boolean): string {
  const own = Object.fromEntries(Object.entries(request.params).filter(([k]) => !(PERSON_KEYS as ReadonlyArray<string>).includes(k)))
  const extra: Record<string, unknown> = { funnel_correlation_person_converted: success ? 'true' : 'false' }
  if (request.type === 'properties') {
    const group = request.funnel.aggregationGroup
    extra.funnel_correlation_property_values = [
      { key: row.key, value: row.value, type: group === null ? 'person' : 'group', operator: 'exact', group_type_index: group },
    ]
  } else if (request.type === 'events') {
    extra.funnel_correlation_person_entity = { id: row.event, type: 'events' }
  } else if (row.key === 'elements_chain' && row.elements.length > 0) {
    const first = row.elements[0]!
    const action: Record<string, string | null> = { tag_name: first.tag_name, href: first.href, text: first.text, selector: selectorOf(row.elements) }
    extra.funnel_correlation_person_entity = {
      id: row.event,
      type: 'events',
      properties: Object.entries(action)
        .filter(([, v]) => v !== null)
        .map(([key, v]) => ({ key, value: [v], type: 'element', operator: 'exact' })),
    }
  } else {
    extra.funnel_correlation_person_entity = { id: row.event, type: 'events', properties: [{ key: row.key, value: row.value, type: 'event', operator: 'exact' }] }
  }
  const query = funnelUrlQuery({ ...own, ...extra })
  return `/api/projects/${projectId}/persons/funnel/correlation/?${query}`
}

/** PostHog's `build_selector`: each element's `[id="..."]` or tag name, joined by ` > `. */
const selectorOf = (elements: ReadonlyArray<SerializedElement>): string =>
  elements.map((e) => (e.attr_id ? `[id="${e.attr_id}"]` : (e.tag_name ?? ''))).join(' > ')
