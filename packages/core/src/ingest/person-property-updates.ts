import type { Properties } from '../model/json.js'

/** `$set`, `$set_once` and `$unset` of one event, ready to apply to a person. */
export interface PersonPropertyUpdates {
  readonly set: Readonly<Properties>
  readonly setOnce: Readonly<Properties>
  readonly unset: ReadonlyArray<string>
}

export const NO_UPDATES: PersonPropertyUpdates = { set: {}, setOnce: {}, unset: [] }

/**
 * Event properties PostHog copies onto the person: the latest value as `$set`
 * (unless the event `$set`s the key itself) and the first one as
 * `$set_once` `$initial_<key>` (persons/person-property-utils.ts).
 */
const EVENT_TO_PERSON_PROPERTY_LIST = [
  '$app_build', '$app_name', '$app_namespace', '$app_version',
  '$browser', '$browser_version', '$device_type', '$current_url', '$pathname',
  '$os', '$os_name', '$os_version', '$referring_domain', '$referrer',
  '$screen_height', '$screen_width', '$viewport_height', '$viewport_width', '$raw_user_agent',
  'utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_name', 'utm_term',
  'gclid', 'gad_source', 'gclsrc', 'dclid', 'gbraid', 'wbraid', 'fbclid', 'msclkid', 'twclid',
  'li_fat_id', 'mc_cid', 'igshid', 'ttclid', 'rdt_cid', 'irclid', '_kx', 'epik', 'qclid', 'sccid',
]
/** Each copied key with its `$initial_` key (`$os_name` shares `$initial_os`), computed once. */
const EVENT_TO_PERSON_PROPERTIES = new Map(
  EVENT_TO_PERSON_PROPERTY_LIST.map((key) => [key, `$initial_${(key === '$os_name' ? '$os' : key).replace('$', '')}`]),
)
const NO_AUTOMATIC_PROPERTIES = new Set(['$snapshot', '$performance_event'])

/**
 * Properties that change on every page view and are not worth a person write
 * on their own (PostHog's FILTERED_PERSON_UPDATE_PROPERTIES,
 * common/persons/person-property-utils.ts). They still change the person held
 * in memory, and are written with the next change that is worth a write.
 */
const FILTERED_PERSON_UPDATE_PROPERTIES = new Set([
  '$current_url', '$pathname', '$referring_domain', '$referrer',
  '$screen_height', '$screen_width', '$viewport_height', '$viewport_width',
  '$browser', '$browser_version', '$device_type', '$raw_user_agent', '$os', '$os_name', '$os_version',
  '$geoip_postal_code', '$geoip_time_zone', '$geoip_latitude', '$geoip_longitude', '$geoip_accuracy_radius',
  '$geoip_subdivision_1_code', '$geoip_subdivision_1_name', '$geoip_subdivision_2_code', '$geoip_subdivision_2_name',
  '$geoip_subdivision_3_code', '$geoip_subdivision_3_name', '$geoip_continent_code', '$geoip_continent_name',
  '$geoip_country_code',
])

const isObject = (v: unknown): v is Properties => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Reads an event's person property updates, adding PostHog's automatic ones. */
export function personPropertyUpdates(event: string, properties: Properties): PersonPropertyUpdates {
  const set: Properties = isObject(properties.$set) ? { ...properties.$set } : {}
  const setOnce: Properties = isObject(properties.$set_once) ? { ...properties.$set_once } : {}
  const rawUnset = properties.$unset
  const unset = Array.isArray(rawUnset)
    ? rawUnset.filter((k): k is string => typeof k === 'string')
    : isObject(rawUnset)
      ? Object.keys(rawUnset)
      : []
  if (!NO_AUTOMATIC_PROPERTIES.has(event)) {
    const isServer = properties.$is_server === true
    for (const key in properties) {
      const initial = EVENT_TO_PERSON_PROPERTIES.get(key)
      if (initial === undefined) continue
      if (isServer && (key === '$os' || key === '$os_version')) continue
      const value = properties[key]
      if (!(key in set)) set[key] = value
      if (value !== null && value !== undefined && !(initial in setOnce)) setOnce[initial] = value
    }
  }
  return { set, setOnce, unset }
}

/** The outcome of applying one event's updates to a person. */
export interface AppliedUpdates {
  /** The new properties, or the same object when nothing changed. */
  readonly properties: Properties
  /** Whether a changed key is worth a write (not only FILTERED_PERSON_UPDATE_PROPERTIES). */
  readonly significant: boolean
}

/**
 * Applies updates to a person's properties in PostHog's order
 * (persons/person-update.ts): `$set_once` for keys the person did not have,
 * then `$set`, then `$unset`.
 */
export function applyPersonPropertyUpdates(properties: Properties, updates: PersonPropertyUpdates): AppliedUpdates {
  let next: Properties | undefined
  let significant = false
  const write = (key: string, value: unknown) => {
    next ??= { ...properties }
    next[key] = value
    if (!FILTERED_PERSON_UPDATE_PROPERTIES.has(key)) significant = true
  }
  for (const key in updates.setOnce) {
    if (!(key in properties)) write(key, updates.setOnce[key])
  }
  for (const key in updates.set) {
    const value = updates.set[key]
    if (!(key in properties) || !sameJson(properties[key], value)) write(key, value)
  }
  for (const key of updates.unset) {
    if (key in (next ?? properties)) {
      next ??= { ...properties }
      delete next[key]
      significant = true
    }
  }
  return { properties: next ?? properties, significant }
}

/** Properties of a person created by an event: `{...$set_once, ...$set}` (no `$unset`). */
export function initialPersonProperties(updates: PersonPropertyUpdates): Properties {
  return { ...updates.setOnce, ...updates.set }
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  return JSON.stringify(a) === JSON.stringify(b)
}
