import { Schema } from 'effect'
import { principalOf } from '../access.js'
import { invalidPayload, readCapturePayload } from '../capture/payload.js'
import { checkTokenShape, findToken, invalidToken } from '../capture/token.js'
import { invalidInput, jsonResponse } from '../errors.js'
import { endpoint, type RouteContext } from '../route.js'

/**
 * PostHog's feature-flag endpoints for SDKs, answered as a PostHog project
 * with no feature flags answers them: Sightline has none, and a client such
 * as posthog-node should run quietly rather than log a 404 for every call.
 * The credentials are still checked as PostHog checks them.
 */

/** `/flags/?v=2` (posthog-node 5, posthog-js): each flag's details under `flags`. */
const FlagsV2 = Schema.Struct({
  flags: Schema.Record(Schema.String, Schema.Unknown),
  errorsWhileComputingFlags: Schema.Boolean,
  requestId: Schema.String,
}).annotate({ identifier: 'FlagsResponse', description: 'PostHog /flags v2: always `flags: {}` (Sightline has no feature flags).' })

/** `/flags/` without `v`, or `v=1`: the legacy values and payloads. */
const FlagsLegacy = Schema.Struct({
  featureFlags: Schema.Record(Schema.String, Schema.Unknown),
  featureFlagPayloads: Schema.Record(Schema.String, Schema.Unknown),
  errorsWhileComputingFlags: Schema.Boolean,
  requestId: Schema.String,
}).annotate({ identifier: 'LegacyFlagsResponse', description: 'PostHog /flags without `v` (or `v=1`): always empty (Sightline has no feature flags).' })

/** The definitions server SDKs download for local evaluation. */
const FlagDefinitions = Schema.Struct({
  flags: Schema.Array(Schema.Unknown),
  group_type_mapping: Schema.Record(Schema.String, Schema.String),
  cohorts: Schema.Record(Schema.String, Schema.Unknown),
}).annotate({ identifier: 'FlagDefinitions', description: 'Feature flag definitions for local evaluation: always none (Sightline has no feature flags).' })

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Reads a flags request (`/flags/`, `/decide/`) as capture reads its payload
 * and refuses what PostHog refuses: no token 401, an unknown token 401, no
 * `distinct_id` 400. Nothing else of it matters: there are no flags.
 */
export async function checkFlagsRequest(ctx: RouteContext<unknown>): Promise<void> {
  const method = ctx.request.method.toUpperCase()
  const payload = await readCapturePayload(ctx.request, ctx.url, ctx.raw, ctx.options.maxCaptureBodyBytes)
  const data = payload.data
  const token = checkTokenShape(findToken(method, ctx.query, payload.form, data))
  if (!(await ctx.sightline.projects.getByApiToken(token))) throw invalidToken()
  const distinctId = isObject(data) ? data.distinct_id : undefined
  if (distinctId === undefined || distinctId === null || distinctId === '') {
    throw invalidPayload('The distinct_id field is missing from the request.', 'missing_distinct_id', 'distinct_id')
  }
}

/**
 * `/flags/`: the project token in the body (`token`, `api_key`, `$token`) or,
 * for GET, the query, as capture reads it; JSON, gzip or base64 form data. A
 * request PostHog would refuse is refused the same way (no token 401, unknown
 * token 401, no `distinct_id` 400); any other gets no flags and no error.
 */
export const flags = endpoint({
  summary: 'Feature flags for a person, as PostHog answers for a project without any: `flags: {}` (`?v=2`), or empty `featureFlags` and `featureFlagPayloads` (no `v`). The project token authenticates.',
  tag: 'feature flags',
  access: 'public',
  body: 'raw',
  bodyLimit: 'capture',
  cors: true,
  query: [
    { name: 'v', schema: Schema.String, description: 'The response version: `2` (and later) answers `flags`; none or `1` the legacy `featureFlags`.' },
    { name: 'config', schema: Schema.String, description: 'Accepted and ignored: no configuration fields are added.' },
  ],
  errors: { 401: 'No project token, a malformed one, or one of no project (`code` says which).' },
  responses: { 200: Schema.Union([FlagsV2, FlagsLegacy]) },
  async handle(ctx) {
    await checkFlagsRequest(ctx)
    const version = Number.parseInt(ctx.query.get('v') ?? '', 10)
    const requestId = crypto.randomUUID()
    return jsonResponse(
      200,
      version >= 2
        ? { flags: {}, errorsWhileComputingFlags: false, requestId }
        : { featureFlags: {}, featureFlagPayloads: {}, errorsWhileComputingFlags: false, requestId },
    )
  },
})

/**
 * `/flags/definitions` (posthog-node 5) and `/api/feature_flag/local_evaluation/`
 * (older SDKs): the project named by `?token=`, for a personal API key whose
 * user is a member of its organization. PostHog also takes the project's
 * secret key (`phs_`), which Sightline does not have, and asks for
 * `feature_flag:read`, a scope core does not have: any valid key may read
 * (there is nothing to read). A project of another organization answers as
 * an unknown token does.
 */
export const definitions = endpoint({
  summary: 'Feature flag definitions for local evaluation in server SDKs, as PostHog answers for a project without any: `{ flags: [], group_type_mapping: {}, cohorts: {} }`.',
  tag: 'feature flags',
  access: 'authenticated',
  query: [
    { name: 'token', schema: Schema.String, description: 'The project token (`phc_...`) of the project.' },
    { name: 'send_cohorts', schema: Schema.String, description: 'Accepted; `cohorts` is always present.' },
  ],
  errors: { 401: 'No personal API key, an invalid one, or a token of no project the key can see.' },
  responses: { 200: FlagDefinitions },
  async handle(ctx) {
    const token = ctx.query.get('token')
    if (!token) throw invalidInput('The project token is required as ?token=.', 'token', 'required')
    const project = await ctx.sightline.projects.getByApiToken(token)
    if (!project || !principalOf(ctx).organizationIds.has(project.organizationId)) throw invalidToken()
    return jsonResponse(200, { flags: [], group_type_mapping: {}, cohorts: {} })
  },
})
