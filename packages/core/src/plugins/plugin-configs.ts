import type { Selectable } from 'kysely'
import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { ConflictError, NotFoundError } from '../errors.js'
import type { ActivityChange } from '../model/activity.js'
import type { Actor } from '../model/actor.js'
import { CreatePluginConfigInput, UpdatePluginConfigInput, type PluginConfig } from '../model/plugin.js'
import { recordActivity } from '../services/activity-log.js'
import type { PluginConfigsTable } from '../storage.js'
import { nowIso } from '../time/timestamp.js'
import { decodeOrThrow } from '../util/decode.js'
import { sameJson } from './plugin-json.js'
import { findPlugin, isRowId, pluginConfigFromRow, projectOrganization } from './plugin-rows.js'
import { configChanges, keepSecrets, secretKeys } from './secrets.js'
import { projectPluginWriter } from './write.js'

type Db = EngineContext['db']

/** A config row with what masking and activity entries need from its plugin. */
type ConfigRow = Selectable<PluginConfigsTable> & { plugin_name: string; plugin_config_schema: unknown }

export function pluginConfigsService(ctx: EngineContext) {
  const write = projectPluginWriter(ctx)

  const find = async (db: Db, projectId: number, id: number): Promise<ConfigRow> => {
    if (!isRowId(id)) throw new NotFoundError('plugin config', id)
    const row = await db
      .selectFrom('plugin_configs')
      .innerJoin('plugins', 'plugins.id', 'plugin_configs.plugin_id')
      .selectAll('plugin_configs')
      .select(['plugins.name as plugin_name', 'plugins.config_schema as plugin_config_schema'])
      .where('plugin_configs.project_id', '=', projectId)
      .where('plugin_configs.id', '=', id)
      .executeTakeFirst()
    if (!row) throw new NotFoundError('plugin config', id)
    return row
  }

  return {
    /**
     * Configures a plugin of the project's organization in the project (a
     * plugin of another organization is `NotFoundError`); one config per
     * project and plugin (`ConflictError`). Logged as `enabled` when created
     * enabled (as PostHog), else `created`.
     */
    async create(projectId: number, input: CreatePluginConfigInput, actor?: Actor): Promise<PluginConfig> {
      const c = decodeOrThrow(CreatePluginConfigInput, input, 'invalid plugin config')
      return write(projectId, 'create plugin config', async (trx) => {
        const organizationId = await projectOrganization(trx, projectId)
        const plugin = await findPlugin(trx, organizationId, c.pluginId)
        const taken = await trx.selectFrom('plugin_configs').select('id').where('project_id', '=', projectId).where('plugin_id', '=', plugin.id).executeTakeFirst()
        if (taken) throw new ConflictError(`plugin ${plugin.id} is already configured in project ${projectId} (config ${taken.id})`, 'pluginId')
        const now = nowIso(ctx.clock)
        const config = c.config ?? {}
        const row = await trx
          .insertInto('plugin_configs')
          .values({ project_id: projectId, plugin_id: plugin.id, enabled: c.enabled ?? false, order: c.order ?? 0, config: JSON.stringify(config), created_at: now, updated_at: now })
          .returningAll()
          .executeTakeFirstOrThrow()
        await recordActivity(trx, ctx.clock, {
          organizationId,
          projectId,
          actor,
          scope: 'PluginConfig',
          itemId: row.id,
          activity: row.enabled ? 'enabled' : 'created',
          name: plugin.name,
          changes: configChanges({}, config, secretKeys(plugin.config_schema)),
        })
        return pluginConfigFromRow(row, plugin.config_schema)
      })
    },

    /** The project's plugin configs, in processing order (`order`, then plugin id). */
    async list(projectId: number): Promise<PluginConfig[]> {
      ctx.assertOpen()
      return runStorage('list plugin configs', async () => {
        await projectOrganization(ctx.db, projectId)
        const rows = await ctx.db
          .selectFrom('plugin_configs')
          .innerJoin('plugins', 'plugins.id', 'plugin_configs.plugin_id')
          .selectAll('plugin_configs')
          .select('plugins.config_schema as plugin_config_schema')
          .where('plugin_configs.project_id', '=', projectId)
          .orderBy('plugin_configs.order')
          .orderBy('plugin_configs.plugin_id')
          .execute()
        return rows.map((r) => pluginConfigFromRow(r, r.plugin_config_schema))
      })
    },

    /** The config, or `NotFoundError` (also for a config of another project). */
    async get(projectId: number, id: number): Promise<PluginConfig> {
      ctx.assertOpen()
      return runStorage('get plugin config', async () => {
        await projectOrganization(ctx.db, projectId)
        const row = await find(ctx.db, projectId, id)
        return pluginConfigFromRow(row, row.plugin_config_schema)
      })
    },

    /**
     * Changes `enabled`, `order` and `config`; the plugin cannot change. Logged
     * as PostHog: `config_updated` (key by key, secrets masked), `enabled` or
     * `disabled`, and `order_changed`, one entry each.
     */
    async update(projectId: number, id: number, input: UpdatePluginConfigInput, actor?: Actor): Promise<PluginConfig> {
      const patch = decodeOrThrow(UpdatePluginConfigInput, input, 'invalid plugin config update')
      return write(projectId, 'update plugin config', async (trx) => {
        const organizationId = await projectOrganization(trx, projectId)
        const before = await find(trx, projectId, id)
        const secrets = secretKeys(before.plugin_config_schema)
        const config = patch.config === undefined ? before.config : keepSecrets(patch.config, before.config, secrets)
        // A patch that changes nothing writes nothing: no new `updated_at`, no activity entry.
        if ((patch.enabled ?? before.enabled) === before.enabled && (patch.order ?? before.order) === before.order && sameJson(config, before.config)) {
          return pluginConfigFromRow(before, before.plugin_config_schema)
        }
        await trx
          .updateTable('plugin_configs')
          .set({
            ...(patch.enabled !== undefined && { enabled: patch.enabled }),
            ...(patch.order !== undefined && { order: patch.order }),
            ...(patch.config !== undefined && { config: JSON.stringify(config) }),
            updated_at: nowIso(ctx.clock),
          })
          .where('id', '=', id)
          .execute()
        const after = await find(trx, projectId, id)
        const log = (activity: string, changes: ActivityChange[]) =>
          recordActivity(trx, ctx.clock, { organizationId, projectId, actor, scope: 'PluginConfig', itemId: id, activity, name: after.plugin_name, changes })
        const changed = configChanges(before.config, after.config, secrets)
        if (changed.length > 0) await log('config_updated', changed)
        if (after.enabled !== before.enabled) await log(after.enabled ? 'enabled' : 'disabled', [])
        if (after.order !== before.order) await log('order_changed', [{ type: 'PluginConfig', action: 'changed', field: 'order', before: before.order, after: after.order }])
        return pluginConfigFromRow(after, after.plugin_config_schema)
      })
    },

    /** Removes the plugin from the project. */
    async delete(projectId: number, id: number, actor?: Actor): Promise<void> {
      await write(projectId, 'delete plugin config', async (trx) => {
        const organizationId = await projectOrganization(trx, projectId)
        const row = await find(trx, projectId, id)
        await trx.deleteFrom('plugin_configs').where('id', '=', id).execute()
        await recordActivity(trx, ctx.clock, {
          organizationId,
          projectId,
          actor,
          scope: 'PluginConfig',
          itemId: id,
          activity: 'deleted',
          name: row.plugin_name,
          changes: [{ type: 'PluginConfig', action: 'deleted' }],
        })
      })
    },
  }
}

export type PluginConfigsService = ReturnType<typeof pluginConfigsService>
