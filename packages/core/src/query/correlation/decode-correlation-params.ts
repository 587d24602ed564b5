import { ValidationError } from '../../errors.js'
import { decodeOrThrow } from '../../util/decode.js'
import { PropertyFilters } from '../filters/property-filters.js'
import { normalizeProperties } from '../series/series.js'
import { decodeFunnelRequest } from '../funnels/params/decode-funnel-params.js'
import { readLegacyParams } from '../funnels/params/legacy-values.js'
import type { CorrelationActorsRequest, CorrelationRequest, CorrelationType, FunnelCorrelationPersonsParams } from './correlation-request.js'

const TYPES: ReadonlyArray<CorrelationType> = ['events', 'properties', 'event_with_properties']

const invalid = (key: string | ReadonlyArray<string | number>, message: string): ValidationError =>
  new ValidationError([{ path: typeof key === 'string' ? [key] : [...key], message }], { context: 'invalid funnel correlation parameters' })

/** A JSON-valued key as the body gives it, or as JSON text (a GET query or PostHog's own URLs). */
type Key = keyof FunnelCorrelationPersonsParams

function jsonValue(params: Readonly<Record<string, unknown>>, key: Key): unknown {
  const v = params[key]
  if (typeof v !== 'string' || !/^\s*[[{"]/.test(v)) return v
  try {
    return JSON.parse(v)
  } catch {
    throw invalid(key, 'is not valid JSON')
  }
}

/** A list of names (PostHog's `json.loads` of the key); absent, null or '' is empty. */
function names(params: Readonly<Record<string, unknown>>, key: Key): string[] {
  const v = jsonValue(params, key)
  if (v === undefined || v === null || v === '') return []
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw invalid(key, 'is a list of names')
  return v as string[]
}

/** True when the request names no step at all (PostHog answers no correlations, not an error). */
export function hasNoSteps(input: unknown): boolean {
  const params = readLegacyParams(input)
  const empty = (v: unknown) => v === undefined || v === null || (Array.isArray(v) && v.length === 0)
  return empty(params.events) && empty(params.actions)
}

/**
 * Reads a legacy `/insights/funnel/correlation/` request: the funnel as
 * `decodeFunnelRequest` reads it (its breakdown and view are validated, then
 * dropped: correlation splits the whole funnel), plus
 * `funnel_correlation_type` (default `events`) and the name lists.
 * ValidationError naming the field: an unknown type, a list that is not of
 * names, `properties` without `funnel_correlation_names`,
 * `event_with_properties` without `funnel_correlation_event_names` (PostHog's messages).
 */
export function decodeCorrelationRequest(input: unknown): CorrelationRequest {
  // Aggregated by a HogQL expression, the actors are its values (see actorEvents, actorPropertiesJoin).
  const decoded = decodeFunnelRequest(input)
  const funnel = { ...decoded, breakdown: null, viz: 'steps' as const }
  const params = decoded.params
  const rawType = params.funnel_correlation_type
  const type = (rawType === undefined || rawType === null || rawType === '' ? 'events' : rawType) as CorrelationType
  if (!TYPES.includes(type)) throw invalid('funnel_correlation_type', `unknown correlation type ${JSON.stringify(rawType)}; use one of ${TYPES.join(', ')}`)
  const request: CorrelationRequest = {
    funnel,
    type,
    propertyNames: names(params, 'funnel_correlation_names'),
    excludePropertyNames: names(params, 'funnel_correlation_exclude_names'),
    eventNames: names(params, 'funnel_correlation_event_names'),
    excludeEventNames: names(params, 'funnel_correlation_exclude_event_names'),
    excludeEventPropertyNames: names(params, 'funnel_correlation_event_exclude_property_names'),
    params,
  }
  if (type === 'properties' && request.propertyNames.length === 0) {
    throw invalid('funnel_correlation_names', 'Property Correlation expects atleast one Property to run correlation on')
  }
  if (type === 'event_with_properties' && request.eventNames.length === 0) {
    throw invalid('funnel_correlation_event_names', 'Event Property Correlation expects atleast one event name to run correlation on')
  }
  return request
}

const scalarText = (v: unknown): string | null =>
  typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'boolean' ? String(v) : null

/**
 * A correlation request plus the people keys of its URLs:
 * `funnel_correlation_person_converted` ("true" in any case is true, any
 * other text false, absent both), and `funnel_correlation_person_entity`
 * (`{id, type: "events", properties?}`, events and event_with_properties) or
 * `funnel_correlation_property_values` (`[{key, value, type?, operator?}]`,
 * properties; only `exact`). ValidationError naming the field.
 */
export function decodeCorrelationActorsRequest(input: unknown): CorrelationActorsRequest {
  const request = decodeCorrelationRequest(input)
  const params = request.params
  const rawConverted = params.funnel_correlation_person_converted
  const converted =
    rawConverted === undefined || rawConverted === null || rawConverted === ''
      ? null
      : typeof rawConverted === 'boolean'
        ? rawConverted
        : String(rawConverted).toLowerCase() === 'true'
  if (request.type === 'properties') {
    const raw = jsonValue(params, 'funnel_correlation_property_values')
    if (!Array.isArray(raw) || raw.length === 0) throw invalid('funnel_correlation_property_values', 'Property Correlation expects atleast one Property to get persons for')
    const propertyValues = raw.map((p, i) => {
      const path = ['funnel_correlation_property_values', i]
      if (typeof p !== 'object' || p === null || typeof (p as { key?: unknown }).key !== 'string') throw invalid(path, 'is {key, value, type, operator}')
      const { key, value, operator, type } = p as Record<string, unknown>
      if (operator !== undefined && operator !== null && operator !== 'exact') throw invalid([...path, 'operator'], 'only exact values name a correlation row')
      if (type !== undefined && type !== null && type !== 'person' && type !== 'group') throw invalid([...path, 'type'], 'is person or group')
      const values = (Array.isArray(value) ? value : [value]).map(scalarText)
      if (values.length === 0 || values.some((v) => v === null)) throw invalid([...path, 'value'], 'is a text, a number, a boolean or a list of them')
      return { key: key as string, values: values as string[] }
    })
    return { ...request, converted, entity: null, propertyValues }
  }
  const raw = jsonValue(params, 'funnel_correlation_person_entity')
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid('funnel_correlation_person_entity', 'No entity for persons specified')
  const { id, type, properties } = raw as Record<string, unknown>
  if (typeof id !== 'string' || id === '') throw invalid(['funnel_correlation_person_entity', 'id'], 'is the event name')
  if (type !== undefined && type !== null && type !== 'events') throw invalid(['funnel_correlation_person_entity', 'type'], 'is events')
  const filters = decodeOrThrow(PropertyFilters, normalizeProperties(properties), 'invalid property filters', ['funnel_correlation_person_entity', 'properties'])
  return { ...request, converted, entity: { event: id, properties: filters }, propertyValues: [] }
}
