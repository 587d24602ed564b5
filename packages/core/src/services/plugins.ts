import type { Selectable } from 'kysely'
import type { PluginRepositoryEntry, SightlineConfig } from '../config.js'
import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { organizationWrites } from '../db/write-retries.js'
import { ConflictError, ValidationError } from '../errors.js'
import type { ActivityEntry } from '../model/activity.js'
import type { Actor } from '../model/actor.js'
import { DEFAULT_PAGE_SIZE, PageOptions, type Page } from '../model/page.js'
import { CreatePluginInput, PluginSourceUpdate, UpdatePluginInput, type Plugin } from '../model/plugin.js'
import { readPluginJson, sameJson } from '../plugins/plugin-json.js'
import { findPlugin, organizationName, pluginFromRow } from '../plugins/plugin-rows.js'
import { assertKnownSourceFiles, writeSourceFiles } from '../plugins/source-files.js'
import { writer } from '../plugins/write.js'
import type { PluginsTable } from '../storage.js'
import { nowIso } from '../time/timestamp.js'
import { decodeOrThrow } from '../util/decode.js'
import { activityLogService, diffFields, recordActivity } from './activity-log.js'

export { pluginConfigsService, type PluginConfigsService } from '../plugins/plugin-configs.js'

type Db = EngineContext['db']

/** The fields a plugin update can change, in the order activity entries list them. */
const PLUGIN_FIELDS = ['pluginType', 'name', 'description', 'icon', 'configSchema', 'tag', 'isGlobal', 'capabilities', 'metrics', 'publicJobs'] as const

const withoutToken = (url: string) => url.split('?')[0]!

export function pluginsService(ctx: EngineContext, config: SightlineConfig) {
  const write = writer(ctx)
  const activityLog = activityLogService(ctx)

  /** The repository entry a plugin is a release of: by URL, else by name. Code written in place or loaded from disk has none. */
  const repositoryEntry = (row: Selectable<PluginsTable>): PluginRepositoryEntry | undefined => {
    if (row.plugin_type === 'source' || row.plugin_type === 'local') return undefined
    const url = row.url ? withoutToken(row.url) : undefined
    return config.pluginRepository.find((e) => url !== undefined && withoutToken(e.url) === url) ?? config.pluginRepository.find((e) => e.name === row.name)
  }

  const reread = async (trx: Db, organizationId: string, orgName: string, id: number, now: Date) =>
    pluginFromRow(await findPlugin(trx, organizationId, id), orgName, now)

  return {
    /** The organization's plugins, oldest first, a page at a time. */
    async list(organizationId: string, page: PageOptions = {}): Promise<Page<Plugin>> {
      ctx.assertOpen()
      const { limit = DEFAULT_PAGE_SIZE, offset = 0 } = decodeOrThrow(PageOptions, page, 'invalid page')
      return runStorage('list plugins', async () => {
        const orgName = await organizationName(ctx.db, organizationId)
        const query = ctx.db.selectFrom('plugins').where('organization_id', '=', organizationId)
        const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
        const rows = await query.selectAll().orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute()
        const now = ctx.clock()
        return { count: Number(total.n), results: rows.map((r) => pluginFromRow(r, orgName, now)) }
      })
    },

    /**
     * Installs a plugin. A `repository` plugin must name an entry of the plugin
     * repository (else `ValidationError` on `name`) and may be installed once
     * per organization (else `ConflictError`).
     */
    async create(organizationId: string, input: CreatePluginInput, actor?: Actor): Promise<Plugin> {
      const p = decodeOrThrow(CreatePluginInput, input, 'invalid plugin')
      const pluginType = p.pluginType ?? 'source'
      const entry = pluginType === 'repository' ? config.pluginRepository.find((e) => e.name === p.name) : undefined
      if (pluginType === 'repository' && !entry) {
        throw new ValidationError([{ path: ['name'], message: `no plugin named ${JSON.stringify(p.name)} in the plugin repository` }], { context: 'invalid plugin' })
      }
      return write(organizationWrites(organizationId), 'create plugin', async (trx) => {
        const orgName = await organizationName(trx, organizationId)
        if (entry) {
          const urls = await trx.selectFrom('plugins').select('url').where('organization_id', '=', organizationId).where('url', '<>', '').execute()
          if (urls.some((r) => withoutToken(r.url) === withoutToken(entry.url))) {
            throw new ConflictError(`the plugin from ${withoutToken(entry.url)} is already installed`, 'name')
          }
        }
        const now = ctx.clock()
        const row = await trx
          .insertInto('plugins')
          .values({
            organization_id: organizationId,
            plugin_type: pluginType,
            name: p.name,
            description: p.description ?? entry?.description ?? '',
            url: entry?.url ?? '',
            icon: p.icon ?? entry?.icon ?? '',
            config_schema: JSON.stringify(p.configSchema ?? {}),
            tag: p.tag ?? entry?.tag ?? '',
            latest_tag: null,
            latest_tag_checked_at: null,
            is_global: p.isGlobal ?? false,
            capabilities: JSON.stringify(p.capabilities ?? {}),
            metrics: JSON.stringify(p.metrics ?? {}),
            public_jobs: JSON.stringify(p.publicJobs ?? {}),
            created_at: nowIso(() => now),
            updated_at: nowIso(() => now),
          })
          .returningAll()
          .executeTakeFirstOrThrow()
        await recordActivity(trx, ctx.clock, {
          organizationId,
          projectId: null,
          actor,
          scope: 'Plugin',
          itemId: row.id,
          activity: 'installed',
          name: row.name,
          changes: [{ type: 'Plugin', action: 'created' }],
        })
        return reread(trx, organizationId, orgName, row.id, now)
      })
    },

    /** The plugin, or `NotFoundError` (also for a plugin of another organization). */
    async get(organizationId: string, id: number): Promise<Plugin> {
      ctx.assertOpen()
      return runStorage('get plugin', async () => {
        const orgName = await organizationName(ctx.db, organizationId)
        return pluginFromRow(await findPlugin(ctx.db, organizationId, id), orgName, ctx.clock())
      })
    },

    /** Changes the writeable fields; records the changed fields in the activity log. The URL stays the one installed from. */
    async update(organizationId: string, id: number, input: UpdatePluginInput, actor?: Actor): Promise<Plugin> {
      const patch = decodeOrThrow(UpdatePluginInput, input, 'invalid plugin update')
      return write(organizationWrites(organizationId), 'update plugin', async (trx) => {
        const orgName = await organizationName(trx, organizationId)
        const now = ctx.clock()
        const before = pluginFromRow(await findPlugin(trx, organizationId, id), orgName, now)
        // A patch that changes nothing writes nothing: no new `updated_at`, no activity entry.
        if (PLUGIN_FIELDS.every((field) => patch[field] === undefined || sameJson(patch[field], before[field]))) return before
        await trx
          .updateTable('plugins')
          .set({
            ...(patch.pluginType !== undefined && { plugin_type: patch.pluginType }),
            ...(patch.name !== undefined && { name: patch.name }),
            ...(patch.description !== undefined && { description: patch.description }),
            ...(patch.icon !== undefined && { icon: patch.icon }),
            ...(patch.configSchema !== undefined && { config_schema: JSON.stringify(patch.configSchema) }),
            ...(patch.tag !== undefined && { tag: patch.tag }),
            ...(patch.isGlobal !== undefined && { is_global: patch.isGlobal }),
            ...(patch.capabilities !== undefined && { capabilities: JSON.stringify(patch.capabilities) }),
            ...(patch.metrics !== undefined && { metrics: JSON.stringify(patch.metrics) }),
            ...(patch.publicJobs !== undefined && { public_jobs: JSON.stringify(patch.publicJobs) }),
            updated_at: nowIso(() => now),
          })
          .where('id', '=', id)
          .execute()
        const after = await reread(trx, organizationId, orgName, id, now)
        const changes = diffFields('Plugin', before as never, after as never, PLUGIN_FIELDS)
        if (changes.length > 0) {
          await recordActivity(trx, ctx.clock, { organizationId, projectId: null, actor, scope: 'Plugin', itemId: id, activity: 'updated', name: after.name, changes })
        }
        return after
      })
    },

    /**
     * Uninstalls the plugin with its source files and its configs in every
     * project. A global plugin must be made local first (`ConflictError`), as PostHog.
     */
    async delete(organizationId: string, id: number, actor?: Actor): Promise<void> {
      await write(organizationWrites(organizationId), 'delete plugin', async (trx) => {
        await organizationName(trx, organizationId)
        const row = await findPlugin(trx, organizationId, id)
        if (row.is_global) throw new ConflictError('this plugin is marked as global: make it local before uninstalling it', 'isGlobal')
        await trx.deleteFrom('plugin_source_files').where('plugin_id', '=', id).execute()
        await trx.deleteFrom('plugin_configs').where('plugin_id', '=', id).execute()
        await trx.deleteFrom('plugins').where('id', '=', id).execute()
        await recordActivity(trx, ctx.clock, {
          organizationId,
          projectId: null,
          actor,
          scope: 'Plugin',
          itemId: id,
          activity: 'uninstalled',
          name: row.name,
          changes: [{ type: 'Plugin', action: 'deleted' }],
        })
      })
    },

    /**
     * Looks the plugin up in the plugin repository (by URL, else by name) and
     * records the entry's tag as `latestTag`, or null when there is none
     * (always for `source` and `local` plugins). Not an edit: no activity entry.
     */
    async checkForUpdates(organizationId: string, id: number): Promise<Plugin> {
      return write(organizationWrites(organizationId), 'check plugin for updates', async (trx) => {
        const orgName = await organizationName(trx, organizationId)
        const row = await findPlugin(trx, organizationId, id)
        const now = ctx.clock()
        // As PostHog, this bookkeeping leaves `updated_at` alone.
        await trx
          .updateTable('plugins')
          .set({ latest_tag: repositoryEntry(row)?.tag ?? null, latest_tag_checked_at: nowIso(() => now) })
          .where('id', '=', id)
          .execute()
        return reread(trx, organizationId, orgName, id, now)
      })
    },

    /** The plugin's source files, `{ filename: source }`, by file name. */
    async source(organizationId: string, id: number): Promise<Record<string, string>> {
      ctx.assertOpen()
      return runStorage('read plugin source', async () => {
        await organizationName(ctx.db, organizationId)
        await findPlugin(ctx.db, organizationId, id)
        const files = await ctx.db.selectFrom('plugin_source_files').select(['filename', 'source']).where('plugin_id', '=', id).orderBy('filename').execute()
        return Object.fromEntries(files.map((f) => [f.filename, f.source]))
      })
    },

    /**
     * Writes source files (null deletes one) and returns all of them. As
     * PostHog, the plugin then takes `name` and `config` (as its config schema)
     * from its plugin.json, which must be a JSON object (`ValidationError` naming
     * `plugin.json`). Only PostHog's file names are files (`PLUGIN_SOURCE_FILES`):
     * any other key is a `ValidationError` naming it, and nothing is written.
     * The changes are one `source_updated` activity entry.
     */
    async updateSource(organizationId: string, id: number, files: PluginSourceUpdate, actor?: Actor): Promise<Record<string, string>> {
      assertKnownSourceFiles(files)
      const edits = decodeOrThrow(PluginSourceUpdate, files, 'invalid plugin source')
      const pluginJsonEdit = edits['plugin.json']
      if (typeof pluginJsonEdit === 'string') readPluginJson(pluginJsonEdit) // refused before anything is written
      return write(organizationWrites(organizationId), 'update plugin source', async (trx) => {
        await organizationName(trx, organizationId)
        const row = await findPlugin(trx, organizationId, id)
        const now = nowIso(ctx.clock)
        const { sources, changes } = await writeSourceFiles(trx, id, edits, now)
        // As PostHog, the plugin follows its plugin.json whenever it has one, whichever file changed.
        const pluginJson = sources.get('plugin.json')
        const fromJson = pluginJson ? readPluginJson(pluginJson) : {}
        const name = fromJson.name !== undefined && fromJson.name !== row.name ? fromJson.name : undefined
        const configSchema = fromJson.configSchema !== undefined && !sameJson(fromJson.configSchema, row.config_schema) ? fromJson.configSchema : undefined
        if (name !== undefined) changes.push({ type: 'Plugin', action: 'changed', field: 'name', before: row.name, after: name })
        if (configSchema !== undefined) changes.push({ type: 'Plugin', action: 'changed', field: 'configSchema', before: row.config_schema, after: configSchema })
        if (changes.length > 0) {
          await trx
            .updateTable('plugins')
            .set({ ...(name !== undefined && { name }), ...(configSchema !== undefined && { config_schema: JSON.stringify(configSchema) }), updated_at: now })
            .where('id', '=', id)
            .execute()
          await recordActivity(trx, ctx.clock, { organizationId, projectId: null, actor, scope: 'Plugin', itemId: id, activity: 'source_updated', name: name ?? row.name, changes })
        }
        return Object.fromEntries([...sources].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      })
    },

    /**
     * Moves the plugin to the tag the last `checkForUpdates` found, with an
     * `upgraded` activity entry. Unchanged when there is nothing newer, and
     * always for `source` and `local` plugins (as PostHog).
     */
    async upgrade(organizationId: string, id: number, actor?: Actor): Promise<Plugin> {
      return write(organizationWrites(organizationId), 'upgrade plugin', async (trx) => {
        const orgName = await organizationName(trx, organizationId)
        const row = await findPlugin(trx, organizationId, id)
        const now = ctx.clock()
        const target = row.latest_tag
        if (row.plugin_type === 'source' || row.plugin_type === 'local' || !target || target === row.tag) return pluginFromRow(row, orgName, now)
        await trx.updateTable('plugins').set({ tag: target, updated_at: nowIso(() => now) }).where('id', '=', id).execute()
        await recordActivity(trx, ctx.clock, {
          organizationId,
          projectId: null,
          actor,
          scope: 'Plugin',
          itemId: id,
          activity: 'upgraded',
          name: row.name,
          changes: [{ type: 'Plugin', action: 'changed', field: 'tag', before: row.tag, after: target }],
        })
        return reread(trx, organizationId, orgName, id, now)
      })
    },

    /** The plugin repository: the catalogue given as `pluginRepository` to `createSightline`. */
    async repository(): Promise<PluginRepositoryEntry[]> {
      ctx.assertOpen()
      return config.pluginRepository.map((entry) => ({ ...entry }))
    },

    /** Ids of the organization's plugins that no project enables, ascending. */
    async unused(organizationId: string): Promise<number[]> {
      ctx.assertOpen()
      return runStorage('list unused plugins', async () => {
        await organizationName(ctx.db, organizationId)
        const rows = await ctx.db
          .selectFrom('plugins')
          .select('id')
          .where('organization_id', '=', organizationId)
          .where('id', 'not in', (eb) => eb.selectFrom('plugin_configs').select('plugin_id').where('enabled', '=', true))
          .orderBy('id')
          .execute()
        return rows.map((r) => r.id)
      })
    },

    /** The organization's plugin and plugin config activity, newest first. */
    async activity(organizationId: string, page: PageOptions = {}): Promise<Page<ActivityEntry>> {
      ctx.assertOpen()
      await runStorage('find organization', () => organizationName(ctx.db, organizationId))
      return activityLog.list({ organizationId, scope: ['Plugin', 'PluginConfig'] }, page)
    },
  }
}

export type PluginsService = ReturnType<typeof pluginsService>
