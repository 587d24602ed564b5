/** The columns `core_0007_materialized_properties` added: fixed, since a migration never changes. */
export const MATERIALIZED_PROPERTIES_0007: ReadonlyArray<MaterializedProperty> = Object.freeze([
  { key: '$current_url', column: 'mp_current_url' },
  { key: '$pathname', column: 'mp_pathname' },
  { key: '$host', column: 'mp_host' },
  { key: '$referrer', column: 'mp_referrer' },
  { key: '$referring_domain', column: 'mp_referring_domain' },
  { key: '$browser', column: 'mp_browser' },
  { key: '$os', column: 'mp_os' },
  { key: '$device_type', column: 'mp_device_type' },
  { key: '$event_type', column: 'mp_event_type' },
  { key: 'utm_source', column: 'mp_utm_source' },
  { key: 'utm_medium', column: 'mp_utm_medium' },
  { key: 'utm_campaign', column: 'mp_utm_campaign' },
] as const)

/**
 * The columns `core_0013_screen_name` added: a mobile app's screen, which
 * paths name `$screen` events by (reading it from the JSON was a sixth of a
 * path over every event at 10M events on DuckDB).
 */
export const MATERIALIZED_PROPERTIES_0013: ReadonlyArray<MaterializedProperty> = Object.freeze([{ key: '$screen_name', column: 'mp_screen_name' }] as const)

/**
 * Event properties that nearly every product sends, stored a second time in
 * text columns of `events` (PostHog's materialized columns): analyses read
 * the column instead of parsing each row's JSON (a top-10 `$pathname`
 * breakdown over 1M events: 84 -> 16 ms on DuckDB).
 *
 * The contract, for every storage: each column holds exactly
 * `SqlHooks.jsonText(properties, key)` of its row, null included. Storages
 * fill the columns in `insertEvents` with that same database expression (a
 * second spelling could differ on numbers or nested values), and core's
 * migration fills them for events stored before. Reading the column or the
 * JSON is then the same answer; `eventScope` picks the column. Each
 * migration adds its own list's columns.
 */
export const MATERIALIZED_PROPERTIES: ReadonlyArray<MaterializedProperty> = Object.freeze([...MATERIALIZED_PROPERTIES_0007, ...MATERIALIZED_PROPERTIES_0013])

export interface MaterializedProperty {
  /** The event property's key. */
  readonly key: string
  /** Its column in `events`: a fixed identifier, never user text. */
  readonly column: string
}

/**
 * Hot properties that are numbers (screen and viewport sizes), stored a
 * second time as doubles: percentiles, sums and numeric filters read the
 * column instead of parsing each row's text (PostHog's materialized columns
 * of a numeric definition).
 *
 * The contract, for every storage: each column holds exactly
 * `SqlHooks.textToDouble(SqlHooks.jsonText(properties, key))` of its row,
 * the numeric reading queries would otherwise make (null for a missing key,
 * booleans, nested values and texts that do not spell a number). Filled as
 * `MATERIALIZED_PROPERTIES` are: by the storage at insert, with the
 * database's own expression, and by core's migration for older events.
 */
export const MATERIALIZED_NUMBERS: ReadonlyArray<MaterializedProperty> = Object.freeze([
  { key: '$screen_width', column: 'mpn_screen_width' },
  { key: '$screen_height', column: 'mpn_screen_height' },
  { key: '$viewport_width', column: 'mpn_viewport_width' },
  { key: '$viewport_height', column: 'mpn_viewport_height' },
] as const)

const BY_KEY = new Map(MATERIALIZED_PROPERTIES.map((p) => [p.key, p.column]))
const NUMBER_BY_KEY = new Map(MATERIALIZED_NUMBERS.map((p) => [p.key, p.column]))

/** The `events` text column holding property `key`, or null when it has none. */
export function materializedColumn(key: string): string | null {
  return BY_KEY.get(key) ?? null
}

/** The `events` double column holding the numeric reading of property `key`, or null when it has none. */
export function materializedNumberColumn(key: string): string | null {
  return NUMBER_BY_KEY.get(key) ?? null
}
