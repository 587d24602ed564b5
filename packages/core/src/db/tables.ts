import type { ColumnType, Generated } from 'kysely'

/**
 * The tables Sightline stores, as Kysely sees them. Conventions every adapter
 * meets when reading (see `StorageCapabilities`): integers and counts are
 * `number`, timestamps are ISO 8601 UTC strings with six fractional digits,
 * JSON columns come back parsed. JSON is written as text (`JSON.stringify`).
 */
export interface SightlineDatabase {
  organizations: OrganizationsTable
  organization_memberships: OrganizationMembershipsTable
  projects: ProjectsTable
  users: UsersTable
  personal_api_keys: PersonalApiKeysTable
  persons: PersonsTable
  person_distinct_ids: PersonDistinctIdsTable
  person_distinct_id_overrides: PersonDistinctIdOverridesTable
  personless_distinct_ids: PersonlessDistinctIdsTable
  group_types: GroupTypesTable
  groups: GroupsTable
  events: EventsTable
  event_definitions: EventDefinitionsTable
  property_definitions: PropertyDefinitionsTable
  plugins: PluginsTable
  plugin_source_files: PluginSourceFilesTable
  plugin_configs: PluginConfigsTable
  insights: InsightsTable
  insight_views: InsightViewsTable
  dashboards: DashboardsTable
  dashboard_tiles: DashboardTilesTable
  activity_log: ActivityLogTable
  actions: ActionsTable
  cohorts: CohortsTable
  cohort_people: CohortPeopleTable
  insight_cache: InsightCacheTable
  property_slots: PropertySlotsTable
}

/** A timestamp column: written as an ISO string, read as an ISO string. */
type Timestamp = ColumnType<string, string, string>
/** A JSON column: written as JSON text, read parsed. */
type Json<T> = ColumnType<T, string, string>

export interface OrganizationsTable {
  id: string
  name: string
  created_at: Timestamp
}

export interface OrganizationMembershipsTable {
  organization_id: string
  user_id: number
  /** PostHog's levels: 1 member, 8 admin, 15 owner. */
  level: number
  joined_at: Timestamp
}

export interface ProjectsTable {
  id: Generated<number>
  uuid: string
  organization_id: string
  name: string
  api_token: string
  timezone: string
  week_start_day: number
  test_account_filters: Json<unknown[]>
  /** Null on projects created before migration core_0006: no rules. */
  path_cleaning_filters: Json<unknown[]> | null
  created_at: Timestamp
  updated_at: Timestamp
}

export interface UsersTable {
  id: Generated<number>
  uuid: string
  distinct_id: string
  email: string
  first_name: string
  last_name: string
  is_email_verified: boolean
  created_at: Timestamp
}

export interface PersonalApiKeysTable {
  id: string
  user_id: number
  label: string
  /** sha256 of the secret, hex; the secret itself is never stored. */
  secure_value: string
  mask_value: string
  scopes: Json<string[]>
  created_at: Timestamp
  last_used_at: Timestamp | null
}

export interface PersonsTable {
  id: Generated<number>
  uuid: string
  project_id: number
  properties: Json<Record<string, unknown>>
  is_identified: boolean
  created_at: Timestamp
  /** Bumped on every change, as PostHog's person version. */
  version: number
}

export interface PersonDistinctIdsTable {
  project_id: number
  distinct_id: string
  person_uuid: string
  version: number
}

/**
 * The distinct ids whose person changed after events were stored with another
 * one in `events.person_id` (a merge moved them, or a personless distinct id
 * got a person): PostHog's `person_distinct_id_overrides`. Small; emptied into
 * `events.person_id` by `squashPersonOverrides`.
 */
export interface PersonDistinctIdOverridesTable {
  project_id: number
  distinct_id: string
  person_id: string
}

/**
 * Distinct ids with stored events but no person (`$process_person_profile:
 * false`): PostHog's `posthog_personlessdistinctid`. When one gets a person,
 * capture writes an override for it, since its events hold no person.
 */
export interface PersonlessDistinctIdsTable {
  project_id: number
  distinct_id: string
}

export interface GroupTypesTable {
  project_id: number
  group_type: string
  group_type_index: number
  name_singular: string | null
  name_plural: string | null
}

export interface GroupsTable {
  project_id: number
  group_type_index: number
  group_key: string
  properties: Json<Record<string, unknown>>
  created_at: Timestamp
  version: number
}

export interface EventsTable {
  uuid: string
  project_id: number
  event: string
  distinct_id: string
  timestamp: Timestamp
  properties: Json<Record<string, unknown>>
  /** Group keys by group type index; '' when the event has no group of that type (as PostHog). */
  group_0: string
  group_1: string
  group_2: string
  group_3: string
  group_4: string
  session_id: string | null
  inserted_at: Timestamp
  /** PostHog's autocapture elements chain (`tag.class:attr="v";...`), '' when the event has none. */
  elements_chain: string
  /**
   * The person of `distinct_id` when the event was stored (PostHog's persons-on-events), null when
   * the distinct id had none (a personless event). Read through `person_distinct_id_overrides`,
   * which holds the distinct ids whose person changed since: see `PERSON_UUID`.
   */
  person_id: string | null
  /** The hot properties' text (see materialized-properties.ts), written by the storage from `properties`. */
  mp_current_url: string | null
  mp_pathname: string | null
  mp_host: string | null
  mp_referrer: string | null
  mp_referring_domain: string | null
  mp_browser: string | null
  mp_os: string | null
  mp_device_type: string | null
  mp_event_type: string | null
  mp_utm_source: string | null
  mp_utm_medium: string | null
  mp_utm_campaign: string | null
  mp_screen_name: string | null
  /** The numeric hot properties (`MATERIALIZED_NUMBERS`), written by the storage from `properties`. */
  mpn_screen_width: number | null
  mpn_screen_height: number | null
  mpn_viewport_width: number | null
  mpn_viewport_height: number | null
  /** The promotion pool (property-slots.ts): per project, a promoted property's text or number. */
  [slot: `ps_text_${number}`]: string | null
  [slot: `ps_num_${number}`]: number | null
}

/** A project's promoted property (property-slots.ts): which slot column holds it, and whether queries may read it. */
export interface PropertySlotsTable {
  project_id: number
  /** 'String' | 'Numeric'. */
  type: string
  /** 1..PROPERTY_SLOT_POOL. */
  slot: number
  key: string
  /** 'backfilling' | 'ready'. */
  state: string
  /** A fresh uuid per promotion: a backfill of an earlier promotion of the same slot stops when it sees another. */
  generation: string
  /** The latest event time stored at promotion, in epoch microseconds (null: no events); the backfill fills events up to it. */
  backfill_to_us: ColumnType<number | string | bigint, number | null, number | null> | null
  /** Events up to this time (epoch microseconds) are filled; null: none yet. */
  backfilled_through_us: ColumnType<number | string | bigint, number | null, number | null> | null
  created_at: Timestamp
}

export interface EventDefinitionsTable {
  id: string
  project_id: number
  name: string
  created_at: Timestamp
  last_seen_at: Timestamp
  last_updated_at: Timestamp
  tags: Json<string[]>
  description: string | null
  post_to_slack: boolean
}

export interface PropertyDefinitionsTable {
  id: string
  project_id: number
  name: string
  /** 1 event, 2 person, 3 group (PostHog's PropertyDefinition.Type). */
  type: number
  /** The group type index for group properties, -1 otherwise (a plain value keeps the unique key simple on both databases). */
  group_type_index: number
  /** 'String' | 'Numeric' | 'Boolean' | 'DateTime', or null while unknown. */
  property_type: string | null
  is_numerical: boolean
  last_seen_at: Timestamp
}

export interface PluginsTable {
  id: Generated<number>
  organization_id: string
  /** 'local' | 'custom' | 'repository' | 'source' */
  plugin_type: string
  name: string
  description: string
  url: string
  icon: string
  config_schema: Json<Record<string, unknown>>
  tag: string
  latest_tag: string | null
  latest_tag_checked_at: Timestamp | null
  is_global: boolean
  capabilities: Json<Record<string, unknown>>
  metrics: Json<Record<string, unknown>>
  public_jobs: Json<Record<string, unknown>>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface PluginSourceFilesTable {
  plugin_id: number
  /** 'plugin.json' | 'index.ts' | 'frontend.tsx' | 'site.ts' | ... */
  filename: string
  source: string
  updated_at: Timestamp
}

export interface PluginConfigsTable {
  id: Generated<number>
  project_id: number
  plugin_id: number
  enabled: boolean
  order: number
  config: Json<Record<string, unknown>>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface InsightsTable {
  id: Generated<number>
  project_id: number
  short_id: string
  name: string | null
  derived_name: string | null
  description: string | null
  filters: Json<Record<string, unknown>>
  query: Json<Record<string, unknown> | null>
  order: number | null
  deleted: boolean
  favorited: boolean
  saved: boolean
  tags: Json<string[]>
  is_sample: boolean
  created_at: Timestamp
  created_by: number | null
  updated_at: Timestamp
  last_modified_at: Timestamp
  last_modified_by: number | null
  last_refresh: Timestamp | null
}

export interface InsightViewsTable {
  project_id: number
  insight_id: number
  user_id: number
  last_viewed_at: Timestamp
}

export interface DashboardsTable {
  id: Generated<number>
  project_id: number
  name: string
  description: string
  /** Filter overrides applied to every tile (date range, properties), PostHog's dashboard `filters`. */
  filters: Json<Record<string, unknown>>
  deleted: boolean
  created_at: Timestamp
  created_by: number | null
  /** Added by core_0008 as nullable columns (DuckDB cannot add NOT NULL ones); filled there and always written since. */
  pinned: boolean
  /** Trimmed, lower-cased and deduplicated, as an insight's. */
  tags: Json<string[]>
}

export interface DashboardTilesTable {
  id: Generated<number>
  dashboard_id: number
  /** Null on a text tile (core_0009). */
  insight_id: number | null
  /** PostHog's tile layouts by breakpoint, e.g. `{ sm: { x, y, w, h } }`. */
  layouts: Json<Record<string, unknown>>
  color: string | null
  deleted: boolean
  created_at: Timestamp
  /** A text tile's markdown (PostHog's `Text.body`); null on an insight tile. The text's id is the tile's. */
  text_body: ColumnType<string | null, string | null | undefined, string | null>
  text_created_by: ColumnType<number | null, number | null | undefined, number | null>
  text_last_modified_at: ColumnType<string | null, string | null | undefined, string | null>
  text_last_modified_by: ColumnType<number | null, number | null | undefined, number | null>
}

export interface ActivityLogTable {
  id: Generated<number>
  organization_id: string
  project_id: number | null
  user_id: number | null
  /** PostHog's scopes: 'Plugin', 'Insight', 'EventDefinition', 'Project', 'Dashboard', ... */
  scope: string
  item_id: string
  /** 'created' | 'updated' | 'deleted' | PostHog's other verbs ('exported', 'upgraded', ...) */
  activity: string
  /** `{ name, changes: [{ type, action, field, before, after }], ... }` as PostHog's ActivityDetail. */
  detail: Json<Record<string, unknown>>
  created_at: Timestamp
}

export interface ActionsTable {
  id: Generated<number>
  project_id: number
  name: string | null
  description: string
  tags: Json<string[]>
  post_to_slack: boolean
  slack_message_format: string
  /** PostHog's `steps_json`: every step with all its fields, nulls included. */
  steps: Json<unknown[]>
  deleted: boolean
  created_at: Timestamp
  created_by: number | null
  updated_at: Timestamp
  /** DEPRECATED in PostHog: the creation time, kept for its list order. */
  last_calculated_at: Timestamp
  pinned_at: Timestamp | null
}

export interface CohortsTable {
  id: Generated<number>
  project_id: number
  name: string | null
  description: string
  /** PostHog's legacy `groups`: evaluated when `filters` holds no criterion, as PostHog's `Cohort.properties` reads them. */
  groups: Json<unknown[]>
  /** `{ properties: { type, values } }`: the criteria of a dynamic cohort. */
  filters: Json<Record<string, unknown>>
  is_static: boolean
  deleted: boolean
  created_at: Timestamp
  created_by: number | null
}

/** The persons of a static cohort. */
export interface CohortPeopleTable {
  project_id: number
  cohort_id: number
  person_uuid: string
}

/**
 * Computed insight results by project and cache key (see `insights/insight-cache.ts`).
 * A row without `last_refresh` holds only a claim: nothing computed yet.
 */
export interface InsightCacheTable {
  project_id: number
  /** Hex SHA-256 of what was computed: params, time zone, week start, test-account filters. */
  cache_key: string
  /** The computation allowed to store a result here; null once stored. */
  claim: string | null
  /** The analysis' `result`. */
  result: Json<unknown> | null
  last_refresh: Timestamp | null
  next_allowed_client_refresh: Timestamp | null
  /** PostHog's staleness by age (default and lazy thresholds); null: never stale by age. */
  stale_at: Timestamp | null
  lazy_stale_at: Timestamp | null
  /** When the relative dates resolve differently: the row no longer answers; null: never. */
  expires_at: Timestamp | null
  /** Events captured with timestamps in this range delete the row; null: unbounded on that side. */
  range_from: Timestamp | null
  range_to: Timestamp | null
  /** Captures that merge persons delete the row. */
  on_merge: boolean
  /** Captures that change person or group properties delete the row. */
  on_person_change: boolean
}

/** The row shape handed to `StorageDriver.insertEvents`: what is written, in column order. */
export interface EventRow {
  readonly uuid: string
  readonly project_id: number
  readonly event: string
  readonly distinct_id: string
  /** ISO 8601 UTC with six fractional digits. */
  readonly timestamp: string
  /** JSON text. */
  readonly properties: string
  readonly group_0: string
  readonly group_1: string
  readonly group_2: string
  readonly group_3: string
  readonly group_4: string
  readonly session_id: string | null
  readonly inserted_at: string
  readonly elements_chain: string
  /** The distinct id's person once the whole batch is applied; null when it has none. */
  readonly person_id: string | null
}

/** The columns of `EventRow`, in the order adapters write them. */
export const EVENT_COLUMNS = [
  'uuid',
  'project_id',
  'event',
  'distinct_id',
  'timestamp',
  'properties',
  'group_0',
  'group_1',
  'group_2',
  'group_3',
  'group_4',
  'session_id',
  'inserted_at',
  // Last: the column was added by a later migration, and DuckDB's Appender follows table order.
  'elements_chain',
  'person_id',
] as const satisfies ReadonlyArray<keyof EventRow>
