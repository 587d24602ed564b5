import { Schema } from 'effect'
import { OrganizationId } from './ids.js'

/** PostHog's `Plugin.PluginType`: where the plugin's code comes from. */
export const PluginType = Schema.Literals(['local', 'custom', 'repository', 'source'])
export type PluginType = typeof PluginType.Type

/**
 * A plugin's config fields, in either of PostHog's two forms: the array of
 * plugin.json (`[{ key, name, type, default, required, secret }]`) or the
 * older object keyed by field (`{ [key]: { name, type, ... } }`).
 */
export const PluginConfigSchema = Schema.Union([Schema.JsonObject, Schema.Array(Schema.Json)])
export type PluginConfigSchema = typeof PluginConfigSchema.Type

/** What `PluginConfig.config` shows instead of a secret field's value (PostHog's SECRET_FIELD_VALUE). */
export const PLUGIN_SECRET_FIELD_VALUE = '**************** POSTHOG SECRET FIELD ****************'

/** An installed plugin of an organization (PostHog's Plugin). */
export const Plugin = Schema.Struct({
  id: Schema.Int,
  organizationId: OrganizationId,
  organizationName: Schema.String,
  pluginType: PluginType,
  name: Schema.String,
  description: Schema.String,
  /** Where the code comes from (the repository entry's URL), without any `?private_token=...`; null for plugins not installed from the repository. */
  url: Schema.NullOr(Schema.String),
  icon: Schema.String,
  configSchema: PluginConfigSchema,
  /** The installed version ('' when unversioned). */
  tag: Schema.String,
  /**
   * The newest version the last `checkForUpdates` found. As PostHog, null until
   * checked, and null again 30 minutes after a check that found the installed tag.
   */
  latestTag: Schema.NullOr(Schema.String),
  isGlobal: Schema.Boolean,
  capabilities: Schema.JsonObject,
  metrics: Schema.JsonObject,
  publicJobs: Schema.JsonObject,
  createdAt: Schema.String,
  updatedAt: Schema.String,
})
export type Plugin = typeof Plugin.Type

const Name = Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(200)))
const Description = Schema.String.pipe(Schema.check(Schema.isMaxLength(10_000)))
const Icon = Schema.String.pipe(Schema.check(Schema.isMaxLength(800)))
const Tag = Schema.String.pipe(Schema.check(Schema.isMaxLength(200)))

/** The writeable fields of a plugin (interface 2.2). */
const writeable = {
  /** Default `source`: without a URL to install from, a plugin is coded in place. */
  pluginType: Schema.optional(PluginType),
  description: Schema.optional(Description),
  icon: Schema.optional(Icon),
  configSchema: Schema.optional(PluginConfigSchema),
  tag: Schema.optional(Tag),
  isGlobal: Schema.optional(Schema.Boolean),
  capabilities: Schema.optional(Schema.JsonObject),
  metrics: Schema.optional(Schema.JsonObject),
  publicJobs: Schema.optional(Schema.JsonObject),
}

/**
 * A plugin to install. A `repository` plugin names an entry of the plugin
 * repository, whose URL it takes and whose description, icon and tag fill
 * the fields not given.
 */
export const CreatePluginInput = Schema.Struct({ ...writeable, name: Name })
export type CreatePluginInput = typeof CreatePluginInput.Type

export const UpdatePluginInput = Schema.Struct({ ...writeable, name: Schema.optional(Name) })
export type UpdatePluginInput = typeof UpdatePluginInput.Type

/** Source files to write, by file name (`plugin.json`, `index.ts`, `frontend.tsx`, `site.ts`); null deletes the file. */
export const PluginSourceUpdate = Schema.Record(Schema.String, Schema.NullOr(Schema.String)).pipe(
  // Checked on the record, not on its key schema: Effect drops keys that fail a key check instead of refusing them.
  Schema.check(
    Schema.makeFilter((files: Record<string, string | null>) => {
      const bad = Object.keys(files).find((name) => name.length < 1 || name.length > 200)
      return bad === undefined || `file names are 1 to 200 characters, got ${JSON.stringify(bad.slice(0, 40))}`
    }),
  ),
)
export type PluginSourceUpdate = typeof PluginSourceUpdate.Type

/** A plugin enabled (or not) in a project, with its settings (PostHog's PluginConfig). */
export const PluginConfig = Schema.Struct({
  id: Schema.Int,
  projectId: Schema.Int,
  pluginId: Schema.Int,
  enabled: Schema.Boolean,
  /** Position in the project's processing chain; lists sort by it. */
  order: Schema.Int,
  /** The settings; fields the plugin's config schema marks `secret` read as `PLUGIN_SECRET_FIELD_VALUE`. */
  config: Schema.JsonObject,
  createdAt: Schema.String,
  updatedAt: Schema.String,
})
export type PluginConfig = typeof PluginConfig.Type

const Order = Schema.Int.pipe(Schema.check(Schema.isInt32()))

export const CreatePluginConfigInput = Schema.Struct({
  pluginId: Schema.Int,
  /** Default false. */
  enabled: Schema.optional(Schema.Boolean),
  /** Default 0, as PostHog's app. */
  order: Schema.optional(Order),
  /** Default `{}`. */
  config: Schema.optional(Schema.JsonObject),
})
export type CreatePluginConfigInput = typeof CreatePluginConfigInput.Type

/**
 * `config` replaces the settings, except that a secret field sent as null,
 * left out, or sent back as `PLUGIN_SECRET_FIELD_VALUE` keeps its stored value.
 */
export const UpdatePluginConfigInput = Schema.Struct({
  enabled: Schema.optional(Schema.Boolean),
  order: Schema.optional(Order),
  config: Schema.optional(Schema.JsonObject),
})
export type UpdatePluginConfigInput = typeof UpdatePluginConfigInput.Type
