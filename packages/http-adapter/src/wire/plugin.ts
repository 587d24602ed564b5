import { Schema } from 'effect'
import type { Plugin as CorePlugin, PluginRepositoryEntry as CoreRepositoryEntry } from '@sightline/core'
import { Url, Uuid } from './common.js'

const PluginType = Schema.Literals(['local', 'custom', 'repository', 'source'])
/** A free-form JSON object (interface 2.2's "free-form key/value map"). */
const FreeForm = Schema.Record(Schema.String, Schema.Unknown)
/** plugin.json's array of fields, or the older object keyed by field: PostHog stores either. */
const ConfigSchema = Schema.Union([FreeForm, Schema.Array(Schema.Unknown)])

/** Interface 2.2, field for field, and PostHog's `hog_function_migration_available`. */
export const Plugin = Schema.Struct({
  id: Schema.Int,
  plugin_type: PluginType,
  name: Schema.String,
  description: Schema.String,
  url: Schema.NullOr(Url).annotate({ description: 'Where a repository plugin comes from, without any private token; null for the others.' }),
  icon: Schema.String,
  config_schema: ConfigSchema,
  tag: Schema.String,
  latest_tag: Schema.NullOr(Schema.String).annotate({ description: 'The newest tag the last `check_for_updates` found; null until checked.' }),
  is_global: Schema.Boolean,
  organization_id: Uuid,
  organization_name: Schema.String,
  capabilities: FreeForm,
  metrics: FreeForm,
  public_jobs: FreeForm,
  hog_function_migration_available: Schema.Boolean.annotate({ description: 'PostHog: a Hog function can replace this plugin. Always false here.' }),
}).annotate({ identifier: 'Plugin' })
export type WirePlugin = typeof Plugin.Type

const Name = Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(200)))
const writeable = {
  plugin_type: Schema.optionalKey(PluginType),
  description: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isMaxLength(10_000)))),
  icon: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isMaxLength(800)))),
  config_schema: Schema.optionalKey(ConfigSchema),
  tag: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isMaxLength(200)))),
  is_global: Schema.optionalKey(Schema.Boolean),
  capabilities: Schema.optionalKey(FreeForm),
  metrics: Schema.optionalKey(FreeForm),
  public_jobs: Schema.optionalKey(FreeForm),
}

/**
 * POST body: the writeable fields, and PostHog's `url`. PostHog's app installs
 * with `{ url, plugin_type: 'repository' }` and no name: the url names an entry
 * of the host's plugin repository. Without a url, `name` is required.
 */
export const PluginCreate = Schema.Struct({
  ...writeable,
  name: Schema.optionalKey(Name),
  url: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(800))).annotate({ format: 'uri' })),
}).annotate({ identifier: 'PluginCreateRequest' })

/** PATCH body (also what `upgrade` documents and ignores): the writeable fields; read-only and unknown fields are ignored. */
export const PatchedPlugin = Schema.Struct({ ...writeable, name: Schema.optionalKey(Name) }).annotate({ identifier: 'PatchedPluginRequest' })

/**
 * `check_for_updates`: the plugin (the interface's answer) and the same object
 * under `plugin` (PostHog's answer, which its app reads as `plugin.latest_tag`).
 */
export const PluginUpdateCheck = Schema.Struct({ ...Plugin.fields, plugin: Plugin }).annotate({ identifier: 'PluginUpdateCheck' })

/**
 * The file names a plugin's source holds, as PostHog's PluginSourceFile rows
 * (and index.js, which its plugin server loads); core refuses any other.
 */
export const PLUGIN_SOURCE_FILES = ['plugin.json', 'index.ts', 'index.js', 'frontend.tsx', 'site.ts'] as const
const FILE_NAMES = PLUGIN_SOURCE_FILES.map((f) => `\`${f}\``).join(', ')

/** `source/`: the plugin's files, `{ filename: source }`, as PostHog (not the Plugin the interface lists). */
export const PluginSource = Schema.Record(Schema.String, Schema.String).annotate({
  identifier: 'PluginSource',
  description: `The source files by name (${FILE_NAMES}).`,
})

/**
 * `update_source/` body: `{ filename: source }`, null deleting a file, as
 * PostHog. The names are checked by the endpoint: a key schema with a check
 * would silently drop the names it refuses instead of refusing them.
 */
export const PluginSourceUpdate = Schema.Record(Schema.String, Schema.NullOr(Schema.String)).annotate({
  identifier: 'PatchedPluginSourceRequest',
  description: `Files to write by name, null deleting one. The names are ${FILE_NAMES}; any other key (a Plugin field such as \`description\`) is a 400 naming it, and nothing is written. \`personal_api_key\` is the caller's key, not a file.`,
})

/** An entry of `repository/`: the host's plugin catalogue (PostHog's plugins.json entries). */
export const PluginRepositoryEntry = Schema.Struct({
  name: Schema.String,
  url: Url,
  description: Schema.String,
  icon: Schema.String,
  tag: Schema.String,
  maintainer: Schema.optionalKey(Schema.String),
  type: Schema.optionalKey(Schema.Literals(['data_in', 'data_out', 'transformation', 'other'])),
}).annotate({ identifier: 'PluginRepositoryEntry' })

export const PluginRepository = Schema.Array(PluginRepositoryEntry).annotate({ identifier: 'PluginRepository' })

/** `unused/`: ids of the organization's plugins no project enables, as PostHog. */
export const UnusedPlugins = Schema.Array(Schema.Int).annotate({ identifier: 'UnusedPluginIds' })

export const pluginToWire = (p: CorePlugin): WirePlugin => ({
  id: p.id,
  plugin_type: p.pluginType,
  name: p.name,
  description: p.description,
  url: p.url,
  icon: p.icon,
  config_schema: p.configSchema as WirePlugin['config_schema'],
  tag: p.tag,
  latest_tag: p.latestTag,
  is_global: p.isGlobal,
  organization_id: p.organizationId,
  organization_name: p.organizationName,
  capabilities: p.capabilities,
  metrics: p.metrics,
  public_jobs: p.publicJobs,
  hog_function_migration_available: false,
})

export const repositoryEntryToWire = (e: CoreRepositoryEntry): typeof PluginRepositoryEntry.Type => ({
  name: e.name,
  url: e.url,
  description: e.description,
  icon: e.icon,
  tag: e.tag,
  ...(e.maintainer !== undefined && { maintainer: e.maintainer }),
  ...(e.type !== undefined && { type: e.type }),
})
