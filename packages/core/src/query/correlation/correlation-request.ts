import type { PropertyFilters } from '../filters/property-filters.js'
import type { FunnelRequest } from '../funnels/funnel-request.js'

/** PostHog's `FunnelCorrelationType`: what a funnel's conversion is correlated with. */
export type CorrelationType = 'events' | 'properties' | 'event_with_properties'

/** A funnel correlation request, validated: the funnel (breakdown dropped) and the correlation keys. */
export interface CorrelationRequest {
  /** The funnel whose actors are split into successes (reached the last step) and failures. */
  readonly funnel: FunnelRequest
  readonly type: CorrelationType
  /** `funnel_correlation_names`: person (group) properties; `$all` anywhere in it means every property. */
  readonly propertyNames: ReadonlyArray<string>
  /** `funnel_correlation_exclude_names`: properties left out of `properties` correlations. */
  readonly excludePropertyNames: ReadonlyArray<string>
  /** `funnel_correlation_event_names`: the events whose properties `event_with_properties` reads. */
  readonly eventNames: ReadonlyArray<string>
  /** `funnel_correlation_exclude_event_names`: events left out of `events` correlations. */
  readonly excludeEventNames: ReadonlyArray<string>
  /** `funnel_correlation_event_exclude_property_names`: event properties left out of `event_with_properties`. */
  readonly excludeEventPropertyNames: ReadonlyArray<string>
  /** The request as read, echoed in the people URLs. */
  readonly params: Readonly<Record<string, unknown>>
}

/** What the correlation people endpoint adds: whose persons, and which side of the funnel. */
export interface CorrelationActorsRequest extends CorrelationRequest {
  /** `funnel_correlation_person_converted`: true successes, false failures, null both. */
  readonly converted: boolean | null
  /** `funnel_correlation_person_entity` (events, event_with_properties): the event and its property filters. */
  readonly entity: { readonly event: string; readonly properties: PropertyFilters } | null
  /** `funnel_correlation_property_values` (properties): each key's text must equal one of its values. */
  readonly propertyValues: ReadonlyArray<{ readonly key: string; readonly values: ReadonlyArray<string> }>
}
