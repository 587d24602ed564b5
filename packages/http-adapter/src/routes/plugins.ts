import type { Actor, Organization, UpdatePluginInput } from '@sightline/core'
import { principalOf, visibleOrganization } from '../access.js'
import { invalidInput } from '../errors.js'
import { activityPageOf, respondActivity } from '../internal/activity.js'
import { assertStorableText } from '../internal/body.js'
import { noContent, pageOf, respond, respondPage } from '../internal/respond.js'
import { endpoint, type RouteContext } from '../route.js'
import { ActivityLogPage } from '../wire/activity.js'
import { Paginated } from '../wire/common.js'
import {
  PatchedPlugin,
  Plugin,
  PLUGIN_SOURCE_FILES,
  PluginCreate,
  PluginRepository,
  PluginSource,
  PluginSourceUpdate,
  PluginUpdateCheck,
  pluginToWire,
  repositoryEntryToWire,
  UnusedPlugins,
} from '../wire/plugin.js'
import { ACTIVITY_QUERY, LIST_QUERY } from './query.js'

const TAG = 'plugins'

/** The organization of the path, if the caller is a member; otherwise 404. */
const organizationOf = (ctx: RouteContext<unknown>): Promise<Organization> => visibleOrganization(ctx, ctx.params.parent_lookup_organization_id)
/** The route's `:id(\d+)`; core answers 404 for ids no row can have. */
const idOf = (ctx: RouteContext<unknown>): number => Number(ctx.params.id)
const actorOf = (ctx: RouteContext<unknown>): Actor => ({ userId: principalOf(ctx).user.id })

const tagOf = (error: unknown): unknown => (typeof error === 'object' && error !== null ? (error as { _tag?: unknown })._tag : undefined)

/** Core's names for the writeable fields of a body. Values came from JSON.parse: they are JSON. */
const writeableFields = (b: typeof PatchedPlugin.Type): UpdatePluginInput => ({
  pluginType: b.plugin_type,
  description: b.description,
  icon: b.icon,
  configSchema: b.config_schema as UpdatePluginInput['configSchema'],
  tag: b.tag,
  isGlobal: b.is_global,
  capabilities: b.capabilities as UpdatePluginInput['capabilities'],
  metrics: b.metrics as UpdatePluginInput['metrics'],
  publicJobs: b.public_jobs as UpdatePluginInput['publicJobs'],
})

/**
 * Only PostHog's source file names, and a plugin.json whose text can be stored
 * once read: the plugin takes its `name` and `config` from it, and Postgres
 * refuses NUL. A plugin.json that is not JSON is left to core, which refuses it
 * naming `plugin.json`. Core refuses unknown names too; they are checked here
 * first so that `attr` is the name as sent (core's paths come out in
 * snake_case, `Index.ts` as `_index.ts`).
 */
function checkSourceFiles(files: Readonly<Record<string, string | null>>): void {
  const known: ReadonlyArray<string> = PLUGIN_SOURCE_FILES
  const unknown = Object.keys(files).find((name) => !known.includes(name))
  if (unknown !== undefined) throw invalidInput(`"${unknown.slice(0, 200)}" is not a plugin source file; the files are ${known.join(', ')}. Plugin fields are changed with PATCH on the plugin.`, unknown || null)
  const pluginJson = files['plugin.json']
  if (typeof pluginJson !== 'string') return
  let parsed: unknown
  try {
    parsed = JSON.parse(pluginJson)
  } catch {
    return
  }
  assertStorableText({ 'plugin.json': parsed })
}

/** A repository URL without its private token or trailing slash, for comparison. */
const bareUrl = (url: string) => url.split('?')[0]!.replace(/\/+$/, '')

export const list = endpoint({
  summary: "List the organization's plugins, oldest first.",
  tag: TAG,
  access: { scope: 'plugin:read' },
  query: LIST_QUERY,
  responses: { 200: Paginated(Plugin, 'Plugin') },
  async handle(ctx) {
    const organization = await organizationOf(ctx)
    const page = pageOf(ctx)
    const result = await ctx.sightline.plugins.list(organization.id, page)
    return respondPage(ctx, page, result.count, result.results.map(pluginToWire))
  },
})

export const create = endpoint({
  summary: "Install a plugin: from the host's plugin repository (`url`, or a `repository` plugin's `name`), or as source code (`name`).",
  tag: TAG,
  access: { scope: 'plugin:write' },
  body: PluginCreate,
  responses: { 201: Plugin },
  async handle(ctx) {
    const organization = await organizationOf(ctx)
    const b = ctx.body
    let name = b.name
    let pluginType = b.plugin_type
    const byUrl = b.url !== undefined && pluginType !== 'source' && pluginType !== 'local'
    if (byUrl) {
      // PostHog downloads the url; Sightline installs only what the host's repository lists.
      const entry = (await ctx.sightline.plugins.repository()).find((e) => bareUrl(e.url) === bareUrl(b.url!))
      if (!entry) throw invalidInput(`No plugin with URL "${bareUrl(b.url!)}" in the plugin repository.`, 'url', 'does_not_exist')
      name = entry.name
      pluginType = 'repository'
    }
    if (name === undefined) throw invalidInput('This field is required.', 'name', 'required')
    try {
      const plugin = await ctx.sightline.plugins.create(
        organization.id,
        { ...writeableFields(b), pluginType, name },
        actorOf(ctx),
      )
      return respond(ctx, pluginToWire(plugin), 201)
    } catch (error) {
      // PostHog's words for a second install of the same URL, on the field the client sent.
      if (byUrl && tagOf(error) === 'ConflictError') throw invalidInput(`Plugin from URL "${bareUrl(b.url!)}" already installed!`, 'url', 'unique')
      throw error
    }
  },
})

export const retrieve = endpoint({
  summary: 'Read a plugin.',
  tag: TAG,
  access: { scope: 'plugin:read' },
  responses: { 200: Plugin },
  async handle(ctx) {
    const organization = await organizationOf(ctx)
    return respond(ctx, pluginToWire(await ctx.sightline.plugins.get(organization.id, idOf(ctx))))
  },
})

export const update = endpoint({
  summary: "Change a plugin's writeable fields (the URL stays the one installed from).",
  tag: TAG,
  access: { scope: 'plugin:write' },
  body: PatchedPlugin,
  responses: { 200: Plugin },
  async handle(ctx) {
    const organization = await organizationOf(ctx)
    const b = ctx.body
    const plugin = await ctx.sightline.plugins.update(
      organization.id,
      idOf(ctx),
      { ...writeableFields(b), name: b.name },
      actorOf(ctx),
    )
    return respond(ctx, pluginToWire(plugin))
  },
})

export const remove = endpoint({
  summary: 'Uninstall a plugin, with its source files and its configs in every project. A global plugin must be made local first.',
  tag: TAG,
  access: { scope: 'plugin:write' },
  responses: { 204: null },
  async handle(ctx) {
    const organization = await organizationOf(ctx)
    try {
      await ctx.sightline.plugins.delete(organization.id, idOf(ctx), actorOf(ctx))
    } catch (error) {
      // Core's one refusal of a delete; PostHog's words.
      if (tagOf(error) === 'ConflictError') throw invalidInput('This plugin is marked as global! Make it local before uninstallation', 'is_global')
      throw error
    }
    return noContent()
  },
})

export const checkForUpdates = endpoint({
  summary: "Look the plugin up in the host's plugin repository and record its newest tag as `latest_tag`.",
  tag: TAG,
  access: { scope: 'plugin:read' },
  responses: { 200: PluginUpdateCheck },
  async handle(ctx) {
    const organization = await organizationOf(ctx)
    const plugin = pluginToWire(await ctx.sightline.plugins.checkForUpdates(organization.id, idOf(ctx)))
    return respond(ctx, { ...plugin, plugin })
  },
})

export const source = endpoint({
  summary: "The plugin's source files, `{ filename: source }`.",
  tag: TAG,
  access: { scope: 'plugin:read' },
  responses: { 200: PluginSource },
  async handle(ctx) {
    const organization = await organizationOf(ctx)
    return respond(ctx, await ctx.sightline.plugins.source(organization.id, idOf(ctx)))
  },
})

export const updateSource = endpoint({
  summary: "Write source files (`{ filename: source }`, null deletes one; names: plugin.json, index.ts, index.js, frontend.tsx, site.ts, any other key is a 400 naming it); the plugin takes `name` and `config` from its plugin.json. Answers every file.",
  tag: TAG,
  access: { scope: 'plugin:write' },
  body: PluginSourceUpdate,
  responses: { 200: PluginSource },
  async handle(ctx) {
    const organization = await organizationOf(ctx)
    // Every key is a file name, except the key that may carry the caller's personal API key.
    const { personal_api_key: _key, ...files } = ctx.body
    checkSourceFiles(files)
    return respond(ctx, await ctx.sightline.plugins.updateSource(organization.id, idOf(ctx), files, actorOf(ctx)))
  },
})

export const upgrade = endpoint({
  summary: "Move the plugin to the tag the last `check_for_updates` found. The body is validated and ignored, as PostHog ignores it.",
  tag: TAG,
  access: { scope: 'plugin:write' },
  body: PatchedPlugin,
  responses: { 200: Plugin },
  async handle(ctx) {
    const organization = await organizationOf(ctx)
    return respond(ctx, pluginToWire(await ctx.sightline.plugins.upgrade(organization.id, idOf(ctx), actorOf(ctx))))
  },
})

export const activity = endpoint({
  summary: "The organization's plugin and plugin config activity, newest first.",
  tag: TAG,
  access: { scope: 'plugin:read' },
  query: ACTIVITY_QUERY,
  responses: { 200: ActivityLogPage },
  async handle(ctx) {
    const organization = await organizationOf(ctx)
    const page = activityPageOf(ctx)
    const result = await ctx.sightline.plugins.activity(organization.id, { limit: page.limit, offset: page.offset })
    return respondActivity(ctx, page, result)
  },
})

export const repository = endpoint({
  summary: "The host's plugin repository: the plugins that can be installed by `url`.",
  tag: TAG,
  access: { scope: 'plugin:read' },
  responses: { 200: PluginRepository },
  async handle(ctx) {
    await organizationOf(ctx)
    return respond(ctx, (await ctx.sightline.plugins.repository()).map(repositoryEntryToWire))
  },
})

export const unused = endpoint({
  summary: "Ids of the organization's plugins that no project enables, ascending.",
  tag: TAG,
  access: { scope: 'plugin:read' },
  responses: { 200: UnusedPlugins },
  async handle(ctx) {
    const organization = await organizationOf(ctx)
    return respond(ctx, await ctx.sightline.plugins.unused(organization.id))
  },
})
