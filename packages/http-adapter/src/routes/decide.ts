import { Schema } from 'effect'
import { jsonResponse } from '../errors.js'
import { endpoint } from '../route.js'
import { checkFlagsRequest } from './flags.js'

/**
 * PostHog's `/decide/`, which SDKs older than `/flags/` call (older posthog-js
 * and posthog-node, posthog-python, posthog-ruby ...): the
 * client's remote configuration and its feature flags. Answered as PostHog
 * answers for a project with nothing enabled, so such a client runs quietly
 * and turns nothing on: no flags, no session recording, no surveys, no
 * heatmaps, no site apps, no performance or exception capture; autocapture
 * stays the client's choice, and compression is what capture reads.
 */
const CONFIG = {
  config: { enable_collect_everything: true },
  toolbarParams: {},
  isAuthenticated: false,
  supportedCompression: ['gzip', 'gzip-js'],
  sessionRecording: false,
  capturePerformance: false,
  autocapture_opt_out: false,
  autocaptureExceptions: false,
  heatmaps: false,
  surveys: false,
  siteApps: [],
} as const

const Decide = Schema.Struct({
  config: Schema.Struct({ enable_collect_everything: Schema.Boolean }),
  toolbarParams: Schema.Record(Schema.String, Schema.Unknown),
  isAuthenticated: Schema.Boolean,
  supportedCompression: Schema.Array(Schema.String),
  sessionRecording: Schema.Boolean,
  capturePerformance: Schema.Boolean,
  autocapture_opt_out: Schema.Boolean,
  autocaptureExceptions: Schema.Boolean,
  heatmaps: Schema.Boolean,
  surveys: Schema.Boolean,
  siteApps: Schema.Array(Schema.Unknown),
  flags: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown)),
  featureFlags: Schema.optionalKey(Schema.Union([Schema.Array(Schema.String), Schema.Record(Schema.String, Schema.Unknown)])),
  featureFlagPayloads: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown)),
  errorsWhileComputingFlags: Schema.optionalKey(Schema.Boolean),
  requestId: Schema.optionalKey(Schema.String),
}).annotate({
  identifier: 'DecideResponse',
  description: 'PostHog /decide for a project with nothing enabled. The flags by `v`: 4 and later `flags: {}`; 3 `featureFlags: {}` and `featureFlagPayloads: {}`; 2 `featureFlags: {}`; none or 1 `featureFlags: []` (the list of enabled keys).',
})

/** The flags part of the answer, by the version the client asks for (PostHog's `decide.py`, v4 as the flags service). */
function flagsOf(version: number): Record<string, unknown> {
  if (version >= 4) return { flags: {}, errorsWhileComputingFlags: false, requestId: crypto.randomUUID() }
  if (version === 3) return { featureFlags: {}, featureFlagPayloads: {}, errorsWhileComputingFlags: false }
  if (version === 2) return { featureFlags: {} }
  return { featureFlags: [] }
}

export const decide = endpoint({
  summary: "PostHog's /decide for older SDKs, as PostHog answers for a project with nothing enabled: no feature flags, no recording, surveys, heatmaps or site apps. The project token authenticates, as on /flags/.",
  tag: 'feature flags',
  access: 'public',
  body: 'raw',
  bodyLimit: 'capture',
  cors: true,
  query: [{ name: 'v', schema: Schema.String, description: 'The response version (see the answer); none is 1.' }],
  errors: { 401: 'No project token, a malformed one, or one of no project (`code` says which).' },
  responses: { 200: Decide },
  async handle(ctx) {
    await checkFlagsRequest(ctx)
    const version = Number.parseInt(ctx.query.get('v') ?? '', 10)
    return jsonResponse(200, { ...CONFIG, ...flagsOf(version) })
  },
})
