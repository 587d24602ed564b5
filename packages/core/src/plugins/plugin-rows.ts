import type { Kysely, Selectable } from 'kysely'
import { NotFoundError } from '../errors.js'
import { Plugin, PluginConfig } from '../model/plugin.js'
import type { PluginConfigsTable, PluginsTable, SightlineDatabase } from '../storage.js'
import { dateToMicros, parseTimestamp } from '../time/timestamp.js'
import { decodeOrThrow } from '../util/decode.js'
import { isUuid } from '../util/uuid.js'
import { maskSecrets, secretKeys } from './secrets.js'

type Db = Kysely<SightlineDatabase>

/** Plugin, config and project ids are `integer` columns: any other value names no row (and Postgres would raise a cast error). */
export const isRowId = (id: unknown): id is number => Number.isSafeInteger(id) && (id as number) >= 1 && (id as number) <= 2_147_483_647

/** PostHog's PluginSerializer.get_latest_tag: how long a check that found the installed tag is shown. */
const LATEST_TAG_SHOWN_MICROS = 30 * 60 * 1_000_000

export function pluginFromRow(row: Selectable<PluginsTable>, organizationName: string, now: Date): Plugin {
  const checkedAt = row.latest_tag_checked_at === null ? null : parseTimestamp(row.latest_tag_checked_at)
  // Null once a check that found nothing newer is 30 minutes old, so PostHog's app offers to check again.
  const latestTag =
    row.latest_tag && checkedAt !== null && (row.latest_tag !== row.tag || checkedAt > dateToMicros(now) - LATEST_TAG_SHOWN_MICROS) ? row.latest_tag : null
  return decodeOrThrow(
    Plugin,
    {
      id: row.id,
      organizationId: row.organization_id,
      organizationName,
      pluginType: row.plugin_type,
      name: row.name,
      description: row.description,
      // As PostHog's serializer: a private token in the query string is never shown.
      url: row.url ? row.url.split('?')[0] : null,
      icon: row.icon,
      configSchema: row.config_schema,
      tag: row.tag,
      latestTag,
      isGlobal: row.is_global,
      capabilities: row.capabilities,
      metrics: row.metrics,
      publicJobs: row.public_jobs,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    },
    'stored plugin',
  )
}

/** A stored config as callers see it: secret fields masked with the plugin's config schema. */
export function pluginConfigFromRow(row: Selectable<PluginConfigsTable>, configSchema: unknown): PluginConfig {
  return decodeOrThrow(
    PluginConfig,
    {
      id: row.id,
      projectId: row.project_id,
      pluginId: row.plugin_id,
      enabled: row.enabled,
      order: row.order,
      config: maskSecrets(row.config, secretKeys(configSchema)),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    },
    'stored plugin config',
  )
}

/** The organization's name, or `NotFoundError`. */
export async function organizationName(db: Db, organizationId: string): Promise<string> {
  // A malformed id names nothing; asking the database would only raise a cast error.
  if (typeof organizationId !== 'string' || !isUuid(organizationId)) throw new NotFoundError('organization', String(organizationId))
  const row = await db.selectFrom('organizations').select('name').where('id', '=', organizationId).executeTakeFirst()
  if (!row) throw new NotFoundError('organization', organizationId)
  return row.name
}

/** The organization's plugin; one of another organization is not found, exactly as a missing one. */
export async function findPlugin(db: Db, organizationId: string, id: number): Promise<Selectable<PluginsTable>> {
  if (!isRowId(id)) throw new NotFoundError('plugin', id)
  const row = await db.selectFrom('plugins').selectAll().where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst()
  if (!row) throw new NotFoundError('plugin', id)
  return row
}

/** The organization of the project, or `NotFoundError`. */
export async function projectOrganization(db: Db, projectId: number): Promise<string> {
  if (!isRowId(projectId)) throw new NotFoundError('project', projectId)
  const row = await db.selectFrom('projects').select('organization_id').where('id', '=', projectId).executeTakeFirst()
  if (!row) throw new NotFoundError('project', projectId)
  return row.organization_id
}
