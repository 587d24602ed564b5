import { Schema } from 'effect'
import { jsonResponse, notFound } from '../errors.js'
import { endpoint, type RouteContext } from '../route.js'

/**
 * PostHog's remote configuration, which posthog-js loads at start in place of
 * `/decide/` (`RemoteConfigLoader`): the script `/array/:token/config.js`,
 * then, failing it, the JSON `/array/:token/config`. Answered as PostHog's
 * `RemoteConfig.build_config()` answers for a project with nothing enabled,
 * so the client turns nothing on and, told there are no feature flags
 * (`hasFeatureFlags: false`), does not ask `/flags/` for them; compression
 * and the capture endpoint are what capture reads. `defaultIdentifiedOnly` is
 * false: Sightline keeps a person for every distinct id.
 */
const configOf = (token: string) => ({
  token,
  supportedCompression: ['gzip', 'gzip-js'],
  hasFeatureFlags: false,
  captureDeadClicks: false,
  capturePerformance: false,
  autocapture_opt_out: false,
  autocaptureExceptions: false,
  analytics: { endpoint: '/i/v0/e/' },
  elementsChainAsString: true,
  sessionRecording: false,
  heatmaps: false,
  surveys: false,
  defaultIdentifiedOnly: false,
  siteApps: [],
})

const RemoteConfig = Schema.Struct({
  token: Schema.String,
  supportedCompression: Schema.Array(Schema.String),
  hasFeatureFlags: Schema.Boolean,
  captureDeadClicks: Schema.Boolean,
  capturePerformance: Schema.Boolean,
  autocapture_opt_out: Schema.Boolean,
  autocaptureExceptions: Schema.Boolean,
  analytics: Schema.Struct({ endpoint: Schema.String }),
  elementsChainAsString: Schema.Boolean,
  sessionRecording: Schema.Boolean,
  heatmaps: Schema.Boolean,
  surveys: Schema.Boolean,
  defaultIdentifiedOnly: Schema.Boolean,
  siteApps: Schema.Array(Schema.Unknown),
}).annotate({ identifier: 'RemoteConfig', description: "PostHog's remote config for a project with nothing enabled (Sightline has no flags, recordings, surveys, heatmaps or site apps)." })

/** The project of the path's token, or the 404 PostHog answers for a token with no config. */
async function configFor(ctx: RouteContext<unknown>) {
  const token = ctx.params.token ?? ''
  if (!(await ctx.sightline.projects.getByApiToken(token))) throw notFound()
  return configOf(token)
}

export const json = endpoint({
  summary: "posthog-js's remote config as JSON, as PostHog answers for a project with nothing enabled. The token in the path names the project; no key.",
  tag: 'feature flags',
  access: 'public',
  cors: true,
  errors: { 404: 'No project has this token.' },
  responses: { 200: RemoteConfig },
  async handle(ctx) {
    return jsonResponse(200, await configFor(ctx))
  },
})

export const script = endpoint({
  summary: "posthog-js's remote config as the script it loads first: it sets `window._POSTHOG_REMOTE_CONFIG[token]` to `{config, siteApps: []}`, the config as `/array/:token/config` answers it.",
  tag: 'feature flags',
  access: 'public',
  cors: true,
  mediaType: 'application/javascript',
  errors: { 404: 'No project has this token.' },
  responses: { 200: Schema.String },
  async handle(ctx) {
    const config = await configFor(ctx)
    // JSON text is a JavaScript expression; `<` escaped so the text can never close a script element.
    const value = JSON.stringify({ config, siteApps: [] }).replaceAll('<', '\\u003c')
    const key = JSON.stringify(config.token).replaceAll('<', '\\u003c')
    const js = `(function(){window._POSTHOG_REMOTE_CONFIG=window._POSTHOG_REMOTE_CONFIG||{};window._POSTHOG_REMOTE_CONFIG[${key}]=${value};})();\n`
    return new Response(js, { status: 200, headers: { 'content-type': 'application/javascript; charset=utf-8' } })
  },
})
