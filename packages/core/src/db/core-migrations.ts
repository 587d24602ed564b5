import { sql, type Kysely, type Migration } from 'kysely'
import type { SqlHooks, StorageCapabilities } from '../storage.js'
import { MATERIALIZED_NUMBERS, MATERIALIZED_PROPERTIES_0007, MATERIALIZED_PROPERTIES_0013, type MaterializedProperty } from './materialized-properties.js'
import { slotColumns } from './property-slots.js'

/**
 * Core's schema, as Kysely migrations. Both databases accept the same DDL
 * except for the JSON column type, which comes from the adapter's capabilities.
 * Integer ids come from sequences (`nextval`) because DuckDB has no SERIAL or
 * identity columns and Postgres accepts sequences too.
 *
 * No foreign keys: DuckDB refuses updates of referenced rows, and core keeps
 * references consistent in its services. Event uniqueness and query indexes
 * are the adapters' (see `StorageDriver.migrations`).
 */
export function coreMigrations(capabilities: StorageCapabilities, hooks: SqlHooks): Record<string, Migration> {
  const json = sql.raw(capabilities.jsonColumnType)
  const tstz = sql`timestamptz`
  // Hot properties' text columns, filled for the events stored before with the very expression queries
  // would otherwise read; storages fill them for new events in insertEvents.
  const addHotTextColumns = async (db: Kysely<any>, properties: ReadonlyArray<MaterializedProperty>) => {
    for (const { column } of properties) await db.schema.alterTable('events').addColumn(column, 'text').execute()
    const assignments = properties.map(({ key, column }) => sql`${sql.id(column)} = ${hooks.jsonText(sql.ref('properties'), key)}`)
    await sql`update events set ${sql.join(assignments, sql`, `)}`.execute(db)
  }
  return {
    core_0001_foundation: {
      async up(db: Kysely<any>) {
        for (const seq of ['projects_id_seq', 'users_id_seq', 'persons_id_seq']) {
          await sql`create sequence if not exists ${sql.id(seq)}`.execute(db)
        }
        await db.schema
          .createTable('organizations')
          .addColumn('id', 'uuid', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('created_at', tstz, (c) => c.notNull())
          .execute()
        await db.schema
          .createTable('users')
          .addColumn('id', 'integer', (c) => c.primaryKey().defaultTo(sql`nextval('users_id_seq')`))
          .addColumn('uuid', 'uuid', (c) => c.notNull().unique())
          .addColumn('distinct_id', 'text', (c) => c.notNull())
          .addColumn('email', 'text', (c) => c.notNull().unique())
          .addColumn('first_name', 'text', (c) => c.notNull())
          .addColumn('last_name', 'text', (c) => c.notNull())
          .addColumn('is_email_verified', 'boolean', (c) => c.notNull())
          .addColumn('created_at', tstz, (c) => c.notNull())
          .execute()
        await db.schema
          .createTable('organization_memberships')
          .addColumn('organization_id', 'uuid', (c) => c.notNull())
          .addColumn('user_id', 'integer', (c) => c.notNull())
          .addColumn('level', 'integer', (c) => c.notNull())
          .addColumn('joined_at', tstz, (c) => c.notNull())
          .addPrimaryKeyConstraint('organization_memberships_pk', ['organization_id', 'user_id'])
          .execute()
        await db.schema
          .createTable('projects')
          .addColumn('id', 'integer', (c) => c.primaryKey().defaultTo(sql`nextval('projects_id_seq')`))
          .addColumn('uuid', 'uuid', (c) => c.notNull().unique())
          .addColumn('organization_id', 'uuid', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('api_token', 'text', (c) => c.notNull().unique())
          .addColumn('timezone', 'text', (c) => c.notNull())
          .addColumn('week_start_day', 'integer', (c) => c.notNull())
          .addColumn('test_account_filters', json, (c) => c.notNull())
          .addColumn('created_at', tstz, (c) => c.notNull())
          .addColumn('updated_at', tstz, (c) => c.notNull())
          .execute()
        await db.schema
          .createTable('personal_api_keys')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('user_id', 'integer', (c) => c.notNull())
          .addColumn('label', 'text', (c) => c.notNull())
          .addColumn('secure_value', 'text', (c) => c.notNull().unique())
          .addColumn('mask_value', 'text', (c) => c.notNull())
          .addColumn('scopes', json, (c) => c.notNull())
          .addColumn('created_at', tstz, (c) => c.notNull())
          .addColumn('last_used_at', tstz)
          .execute()
        await db.schema
          .createTable('persons')
          .addColumn('id', 'bigint', (c) => c.primaryKey().defaultTo(sql`nextval('persons_id_seq')`))
          .addColumn('uuid', 'uuid', (c) => c.notNull().unique())
          .addColumn('project_id', 'integer', (c) => c.notNull())
          .addColumn('properties', json, (c) => c.notNull())
          .addColumn('is_identified', 'boolean', (c) => c.notNull())
          .addColumn('created_at', tstz, (c) => c.notNull())
          .addColumn('version', 'integer', (c) => c.notNull())
          .execute()
        await db.schema
          .createTable('person_distinct_ids')
          .addColumn('project_id', 'integer', (c) => c.notNull())
          .addColumn('distinct_id', 'text', (c) => c.notNull())
          .addColumn('person_uuid', 'uuid', (c) => c.notNull())
          .addColumn('version', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('person_distinct_ids_pk', ['project_id', 'distinct_id'])
          .execute()
        await db.schema
          .createTable('group_types')
          .addColumn('project_id', 'integer', (c) => c.notNull())
          .addColumn('group_type', 'text', (c) => c.notNull())
          .addColumn('group_type_index', 'integer', (c) => c.notNull())
          .addColumn('name_singular', 'text')
          .addColumn('name_plural', 'text')
          .addPrimaryKeyConstraint('group_types_pk', ['project_id', 'group_type'])
          .addUniqueConstraint('group_types_index_unique', ['project_id', 'group_type_index'])
          .execute()
        await db.schema
          .createTable('groups')
          .addColumn('project_id', 'integer', (c) => c.notNull())
          .addColumn('group_type_index', 'integer', (c) => c.notNull())
          .addColumn('group_key', 'text', (c) => c.notNull())
          .addColumn('properties', json, (c) => c.notNull())
          .addColumn('created_at', tstz, (c) => c.notNull())
          .addColumn('version', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('groups_pk', ['project_id', 'group_type_index', 'group_key'])
          .execute()
        await db.schema
          .createTable('events')
          .addColumn('uuid', 'uuid', (c) => c.notNull())
          .addColumn('project_id', 'integer', (c) => c.notNull())
          .addColumn('event', 'text', (c) => c.notNull())
          .addColumn('distinct_id', 'text', (c) => c.notNull())
          .addColumn('timestamp', tstz, (c) => c.notNull())
          .addColumn('properties', json, (c) => c.notNull())
          .addColumn('group_0', 'text', (c) => c.notNull())
          .addColumn('group_1', 'text', (c) => c.notNull())
          .addColumn('group_2', 'text', (c) => c.notNull())
          .addColumn('group_3', 'text', (c) => c.notNull())
          .addColumn('group_4', 'text', (c) => c.notNull())
          .addColumn('session_id', 'text')
          .addColumn('inserted_at', tstz, (c) => c.notNull())
          .execute()
        await db.schema
          .createTable('event_definitions')
          .addColumn('id', 'uuid', (c) => c.primaryKey())
          .addColumn('project_id', 'integer', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('created_at', tstz, (c) => c.notNull())
          .addColumn('last_seen_at', tstz, (c) => c.notNull())
          .addColumn('last_updated_at', tstz, (c) => c.notNull())
          .addColumn('tags', json, (c) => c.notNull())
          .addColumn('description', 'text')
          .addColumn('post_to_slack', 'boolean', (c) => c.notNull())
          .addUniqueConstraint('event_definitions_name_unique', ['project_id', 'name'])
          .execute()
        await db.schema
          .createTable('property_definitions')
          .addColumn('id', 'uuid', (c) => c.primaryKey())
          .addColumn('project_id', 'integer', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('type', 'integer', (c) => c.notNull())
          .addColumn('group_type_index', 'integer', (c) => c.notNull())
          .addColumn('property_type', 'text')
          .addColumn('is_numerical', 'boolean', (c) => c.notNull())
          .addColumn('last_seen_at', tstz, (c) => c.notNull())
          .addUniqueConstraint('property_definitions_unique', ['project_id', 'type', 'group_type_index', 'name'])
          .execute()
      },
    },
    core_0002_management: {
      async up(db: Kysely<any>) {
        for (const seq of ['plugins_id_seq', 'plugin_configs_id_seq', 'insights_id_seq', 'dashboards_id_seq', 'dashboard_tiles_id_seq', 'activity_log_id_seq']) {
          await sql`create sequence if not exists ${sql.id(seq)}`.execute(db)
        }
        await db.schema
          .createTable('plugins')
          .addColumn('id', 'integer', (c) => c.primaryKey().defaultTo(sql`nextval('plugins_id_seq')`))
          .addColumn('organization_id', 'uuid', (c) => c.notNull())
          .addColumn('plugin_type', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('description', 'text', (c) => c.notNull())
          .addColumn('url', 'text', (c) => c.notNull())
          .addColumn('icon', 'text', (c) => c.notNull())
          .addColumn('config_schema', json, (c) => c.notNull())
          .addColumn('tag', 'text', (c) => c.notNull())
          .addColumn('latest_tag', 'text')
          .addColumn('latest_tag_checked_at', tstz)
          .addColumn('is_global', 'boolean', (c) => c.notNull())
          .addColumn('capabilities', json, (c) => c.notNull())
          .addColumn('metrics', json, (c) => c.notNull())
          .addColumn('public_jobs', json, (c) => c.notNull())
          .addColumn('created_at', tstz, (c) => c.notNull())
          .addColumn('updated_at', tstz, (c) => c.notNull())
          .execute()
        await db.schema
          .createTable('plugin_source_files')
          .addColumn('plugin_id', 'integer', (c) => c.notNull())
          .addColumn('filename', 'text', (c) => c.notNull())
          .addColumn('source', 'text', (c) => c.notNull())
          .addColumn('updated_at', tstz, (c) => c.notNull())
          .addPrimaryKeyConstraint('plugin_source_files_pk', ['plugin_id', 'filename'])
          .execute()
        await db.schema
          .createTable('plugin_configs')
          .addColumn('id', 'integer', (c) => c.primaryKey().defaultTo(sql`nextval('plugin_configs_id_seq')`))
          .addColumn('project_id', 'integer', (c) => c.notNull())
          .addColumn('plugin_id', 'integer', (c) => c.notNull())
          .addColumn('enabled', 'boolean', (c) => c.notNull())
          .addColumn('order', 'integer', (c) => c.notNull())
          .addColumn('config', json, (c) => c.notNull())
          .addColumn('created_at', tstz, (c) => c.notNull())
          .addColumn('updated_at', tstz, (c) => c.notNull())
          .addUniqueConstraint('plugin_configs_project_plugin', ['project_id', 'plugin_id'])
          .execute()
        await db.schema
          .createTable('insights')
          .addColumn('id', 'integer', (c) => c.primaryKey().defaultTo(sql`nextval('insights_id_seq')`))
          .addColumn('project_id', 'integer', (c) => c.notNull())
          .addColumn('short_id', 'text', (c) => c.notNull())
          .addColumn('name', 'text')
          .addColumn('derived_name', 'text')
          .addColumn('description', 'text')
          .addColumn('filters', json, (c) => c.notNull())
          .addColumn('query', json)
          .addColumn('order', 'integer')
          .addColumn('deleted', 'boolean', (c) => c.notNull())
          .addColumn('favorited', 'boolean', (c) => c.notNull())
          .addColumn('saved', 'boolean', (c) => c.notNull())
          .addColumn('tags', json, (c) => c.notNull())
          .addColumn('is_sample', 'boolean', (c) => c.notNull())
          .addColumn('created_at', tstz, (c) => c.notNull())
          .addColumn('created_by', 'integer')
          .addColumn('updated_at', tstz, (c) => c.notNull())
          .addColumn('last_modified_at', tstz, (c) => c.notNull())
          .addColumn('last_modified_by', 'integer')
          .addColumn('last_refresh', tstz)
          .addUniqueConstraint('insights_project_short_id', ['project_id', 'short_id'])
          .execute()
        await db.schema
          .createTable('insight_views')
          .addColumn('project_id', 'integer', (c) => c.notNull())
          .addColumn('insight_id', 'integer', (c) => c.notNull())
          .addColumn('user_id', 'integer', (c) => c.notNull())
          .addColumn('last_viewed_at', tstz, (c) => c.notNull())
          .addPrimaryKeyConstraint('insight_views_pk', ['insight_id', 'user_id'])
          .execute()
        await db.schema
          .createTable('dashboards')
          .addColumn('id', 'integer', (c) => c.primaryKey().defaultTo(sql`nextval('dashboards_id_seq')`))
          .addColumn('project_id', 'integer', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('description', 'text', (c) => c.notNull())
          .addColumn('filters', json, (c) => c.notNull())
          .addColumn('deleted', 'boolean', (c) => c.notNull())
          .addColumn('created_at', tstz, (c) => c.notNull())
          .addColumn('created_by', 'integer')
          .execute()
        await db.schema
          .createTable('dashboard_tiles')
          .addColumn('id', 'integer', (c) => c.primaryKey().defaultTo(sql`nextval('dashboard_tiles_id_seq')`))
          .addColumn('dashboard_id', 'integer', (c) => c.notNull())
          .addColumn('insight_id', 'integer', (c) => c.notNull())
          .addColumn('layouts', json, (c) => c.notNull())
          .addColumn('color', 'text')
          .addColumn('deleted', 'boolean', (c) => c.notNull())
          .addColumn('created_at', tstz, (c) => c.notNull())
          .execute()
        await db.schema
          .createTable('activity_log')
          .addColumn('id', 'integer', (c) => c.primaryKey().defaultTo(sql`nextval('activity_log_id_seq')`))
          .addColumn('organization_id', 'uuid', (c) => c.notNull())
          .addColumn('project_id', 'integer')
          .addColumn('user_id', 'integer')
          .addColumn('scope', 'text', (c) => c.notNull())
          .addColumn('item_id', 'text', (c) => c.notNull())
          .addColumn('activity', 'text', (c) => c.notNull())
          .addColumn('detail', json, (c) => c.notNull())
          .addColumn('created_at', tstz, (c) => c.notNull())
          .execute()
      },
    },
    core_0003_elements_chain: {
      async up(db: Kysely<any>) {
        // Added last: DuckDB's Appender writes values in table column order (see EVENT_COLUMNS).
        // Two statements: DuckDB refuses constraints in ADD COLUMN, and SET NOT NULL works there while events has no index.
        await db.schema.alterTable('events').addColumn('elements_chain', 'text', (c) => c.defaultTo('')).execute()
        await db.schema.alterTable('events').alterColumn('elements_chain', (c) => c.setNotNull()).execute()
      },
    },
    core_0004_actions_cohorts: {
      async up(db: Kysely<any>) {
        for (const seq of ['actions_id_seq', 'cohorts_id_seq']) {
          await sql`create sequence if not exists ${sql.id(seq)}`.execute(db)
        }
        await db.schema
          .createTable('actions')
          .addColumn('id', 'integer', (c) => c.primaryKey().defaultTo(sql`nextval('actions_id_seq')`))
          .addColumn('project_id', 'integer', (c) => c.notNull())
          .addColumn('name', 'text')
          .addColumn('description', 'text', (c) => c.notNull())
          .addColumn('tags', json, (c) => c.notNull())
          .addColumn('post_to_slack', 'boolean', (c) => c.notNull())
          .addColumn('slack_message_format', 'text', (c) => c.notNull())
          .addColumn('steps', json, (c) => c.notNull())
          .addColumn('deleted', 'boolean', (c) => c.notNull())
          .addColumn('created_at', tstz, (c) => c.notNull())
          .addColumn('created_by', 'integer')
          .addColumn('updated_at', tstz, (c) => c.notNull())
          .addColumn('last_calculated_at', tstz, (c) => c.notNull())
          .addColumn('pinned_at', tstz)
          .execute()
        await db.schema
          .createTable('cohorts')
          .addColumn('id', 'integer', (c) => c.primaryKey().defaultTo(sql`nextval('cohorts_id_seq')`))
          .addColumn('project_id', 'integer', (c) => c.notNull())
          .addColumn('name', 'text')
          .addColumn('description', 'text', (c) => c.notNull())
          .addColumn('groups', json, (c) => c.notNull())
          .addColumn('filters', json, (c) => c.notNull())
          .addColumn('is_static', 'boolean', (c) => c.notNull())
          .addColumn('deleted', 'boolean', (c) => c.notNull())
          .addColumn('created_at', tstz, (c) => c.notNull())
          .addColumn('created_by', 'integer')
          .execute()
        await db.schema
          .createTable('cohort_people')
          .addColumn('project_id', 'integer', (c) => c.notNull())
          .addColumn('cohort_id', 'integer', (c) => c.notNull())
          .addColumn('person_uuid', 'uuid', (c) => c.notNull())
          .addPrimaryKeyConstraint('cohort_people_pk', ['cohort_id', 'person_uuid'])
          .execute()
      },
    },
    core_0005_insight_cache: {
      async up(db: Kysely<any>) {
        // Computed insight results, shared by every engine on the database. `claim` names the
        // computation that may store the row's result; capture deletes rows it makes stale.
        await db.schema
          .createTable('insight_cache')
          .addColumn('project_id', 'integer', (c) => c.notNull())
          .addColumn('cache_key', 'text', (c) => c.notNull())
          .addColumn('claim', 'text')
          .addColumn('result', json)
          .addColumn('last_refresh', tstz)
          .addColumn('next_allowed_client_refresh', tstz)
          .addColumn('stale_at', tstz)
          .addColumn('lazy_stale_at', tstz)
          .addColumn('expires_at', tstz)
          .addColumn('range_from', tstz)
          .addColumn('range_to', tstz)
          .addColumn('on_merge', 'boolean', (c) => c.notNull())
          .addColumn('on_person_change', 'boolean', (c) => c.notNull())
          .addPrimaryKeyConstraint('insight_cache_pk', ['project_id', 'cache_key'])
          .execute()
      },
    },
    core_0006_path_cleaning: {
      async up(db: Kysely<any>) {
        // Nullable: DuckDB cannot add a NOT NULL column; null reads as no rules.
        await db.schema.alterTable('projects').addColumn('path_cleaning_filters', json).execute()
      },
    },
    core_0007_materialized_properties: {
      async up(db: Kysely<any>) {
        // The hot properties' columns (materialized-properties.ts).
        await addHotTextColumns(db, MATERIALIZED_PROPERTIES_0007)
      },
    },
    core_0008_dashboard_pinned_tags: {
      async up(db: Kysely<any>) {
        // PostHog's dashboard `pinned` and `tags`. Nullable (DuckDB cannot add a NOT NULL column), filled here
        // for the dashboards stored before and always written by core since.
        await db.schema.alterTable('dashboards').addColumn('pinned', 'boolean').execute()
        await db.schema.alterTable('dashboards').addColumn('tags', json).execute()
        await db.updateTable('dashboards').set({ pinned: false, tags: '[]' }).execute()
      },
    },
    core_0009_text_tiles: {
      async up(db: Kysely<any>) {
        // PostHog's text tiles: a tile shows an insight or a text. Sightline keeps the text on its tile
        // (one text per tile; the text's id is the tile's), so a text tile has no insight.
        await db.schema.alterTable('dashboard_tiles').alterColumn('insight_id', (c) => c.dropNotNull()).execute()
        await db.schema.alterTable('dashboard_tiles').addColumn('text_body', 'text').execute()
        await db.schema.alterTable('dashboard_tiles').addColumn('text_created_by', 'integer').execute()
        await db.schema.alterTable('dashboard_tiles').addColumn('text_last_modified_at', tstz).execute()
        await db.schema.alterTable('dashboard_tiles').addColumn('text_last_modified_by', 'integer').execute()
      },
    },
    core_0010_persons_on_events: {
      async up(db: Kysely<any>) {
        // PostHog's persons-on-events: each event carries its person, so analyses need not join the
        // distinct-id table; the few distinct ids whose person changes later are overridden at read.
        await db.schema.alterTable('events').addColumn('person_id', 'uuid').execute()
        await db.schema
          .createTable('person_distinct_id_overrides')
          .addColumn('project_id', 'integer', (c) => c.notNull())
          .addColumn('distinct_id', 'text', (c) => c.notNull())
          .addColumn('person_id', 'uuid', (c) => c.notNull())
          .addPrimaryKeyConstraint('person_distinct_id_overrides_pk', ['project_id', 'distinct_id'])
          .execute()
        await db.schema
          .createTable('personless_distinct_ids')
          .addColumn('project_id', 'integer', (c) => c.notNull())
          .addColumn('distinct_id', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('personless_distinct_ids_pk', ['project_id', 'distinct_id'])
          .execute()
        // The events stored before: each gets its distinct id's person as it is now, so nothing needs an
        // override; those of distinct ids without a person are recorded as personless.
        await sql`update events set person_id = pdi.person_uuid from person_distinct_ids as pdi
          where pdi.project_id = events.project_id and pdi.distinct_id = events.distinct_id`.execute(db)
        await sql`insert into personless_distinct_ids (project_id, distinct_id)
          select distinct project_id, distinct_id from events where person_id is null`.execute(db)
      },
    },
    core_0011_materialized_numbers: {
      async up(db: Kysely<any>) {
        // The numeric hot properties' double columns (MATERIALIZED_NUMBERS), filled for the events stored
        // before with the numeric reading queries would otherwise make; storages fill them at insert.
        for (const { column } of MATERIALIZED_NUMBERS) await db.schema.alterTable('events').addColumn(column, sql`float8`).execute()
        const assignments = MATERIALIZED_NUMBERS.map(
          ({ key, column }) => sql`${sql.id(column)} = ${hooks.textToDouble(hooks.jsonText(sql.ref('properties'), key))}`,
        )
        await sql`update events set ${sql.join(assignments, sql`, `)}`.execute(db)
      },
    },
    core_0012_property_slots: {
      async up(db: Kysely<any>) {
        // The pool of columns projects promote their own properties into (property-slots.ts). Empty at
        // first: a slot is read only once its backfill has filled it, so no event needs a value now.
        for (const column of slotColumns('String')) await db.schema.alterTable('events').addColumn(column, 'text').execute()
        for (const column of slotColumns('Numeric')) await db.schema.alterTable('events').addColumn(column, sql`float8`).execute()
        await db.schema
          .createTable('property_slots')
          .addColumn('project_id', 'integer', (c) => c.notNull())
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('slot', 'integer', (c) => c.notNull())
          .addColumn('key', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('generation', 'text', (c) => c.notNull())
          .addColumn('backfill_to_us', 'bigint')
          .addColumn('backfilled_through_us', 'bigint')
          .addColumn('created_at', tstz, (c) => c.notNull())
          .addPrimaryKeyConstraint('property_slots_pk', ['project_id', 'type', 'slot'])
          .addUniqueConstraint('property_slots_key', ['project_id', 'type', 'key'])
          .execute()
      },
    },
    core_0013_screen_name: {
      async up(db: Kysely<any>) {
        // `$screen_name` (MATERIALIZED_PROPERTIES_0013), filled for the events stored before as 0007 did.
        await addHotTextColumns(db, MATERIALIZED_PROPERTIES_0013)
      },
    },
  }
}
