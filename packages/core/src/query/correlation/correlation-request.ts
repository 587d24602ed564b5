import type { PropertyFilters } from '../filters/property-filters.js'
import type { FunnelRequest } from '../funnels/funnel-request.js'
import type { FunnelParams } from '../funnels/params/decode-funnel-params.js'
import type { PropertiesParam } from '../series/series.js'
import type { PropertyFilterValue } from '../filters/property-filters.js'

/** PostHog's `FunnelCorrelationType`: what a funnel's conversion is correlated with. */
export type CorrelationType = 'events' | 'properties' | 'event_with_properties'

/**
 * The parameters of `sightline.query.funnelCorrelation`: the funnel's (its
 * breakdown and view are checked, then not used) plus what to correlate.
 * Name lists over HTTP may also be their JSON text.
 */
export interface FunnelCorrelationParams extends FunnelParams {
  /** Default `events`. */
  readonly funnel_correlation_type?: CorrelationType | null
  /** `properties`: the person (group) properties to read; `$all` means every one. Required for `properties`. */
  readonly funnel_correlation_names?: ReadonlyArray<string> | null
  /** `properties`: properties left out. */
  readonly funnel_correlation_exclude_names?: ReadonlyArray<string> | null
  /** `event_with_properties`: the events whose properties are read. Required for `event_with_properties`. */
  readonly funnel_correlation_event_names?: ReadonlyArray<string> | null
  /** `events`: events left out. */
  readonly funnel_correlation_exclude_event_names?: ReadonlyArray<string> | null
  /** `event_with_properties`: event properties left out. */
  readonly funnel_correlation_event_exclude_property_names?: ReadonlyArray<string> | null
}

/** The parameters of `sightline.query.funnelCorrelationPersons`: a correlation row's `success_people_url` / `failure_people_url`. */
export interface FunnelCorrelationPersonsParams extends FunnelCorrelationParams {
  /** true: those who converted; false: those who did not. Default both. */
  readonly funnel_correlation_person_converted?: boolean | null
  /** `events` and `event_with_properties`: the row's event (`id`: its name) and, for the latter, its property filter. */
  readonly funnel_correlation_person_entity?: { readonly id: string; readonly type?: 'events' | null; readonly properties?: PropertiesParam } | null
  /** `properties`: the row's property values (only `exact`). */
  readonly funnel_correlation_property_values?: ReadonlyArray<{
    readonly key: string
    readonly value: PropertyFilterValue
    readonly type?: 'person' | 'group' | null
    readonly operator?: 'exact' | null
  }> | null
}

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
