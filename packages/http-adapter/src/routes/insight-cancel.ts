import { Schema } from 'effect'
import { visibleProject } from '../access.js'
import { CSV_REFUSED, refuseCsv } from '../internal/csv.js'
import { respond } from '../internal/respond.js'
import { endpoint } from '../route.js'
import { InsightWrite } from '../wire/insight.js'
import { NothingComputed, nothingComputed } from '../wire/insight-timing.js'

const ClientQueryId = Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(200)))

/**
 * PostHog's body (`client_query_id`) or the interface's (the Insight writeable
 * fields, validated and otherwise ignored). Without `client_query_id` nothing
 * can be named, so nothing is cancelled; other keys are ignored.
 */
const CancelRequest = Schema.Struct({
  ...InsightWrite.fields,
  client_query_id: Schema.optionalKey(ClientQueryId),
}).annotate({ identifier: 'InsightCancelRequest' })

const CancelResponse = Schema.Struct({
  ...NothingComputed,
  client_query_id: Schema.NullOr(Schema.String).annotate({ description: 'The id sent, or null when the body named none.' }),
  cancelled: Schema.Boolean.annotate({ description: 'Whether an analysis with that id was running in the project (and is now stopped).' }),
}).annotate({ identifier: 'InsightCancelResult' })

/**
 * Cancels the project's running analysis started with `client_query_id`. That
 * analysis answers 400 `query_was_cancelled`; its statement is interrupted in
 * the database. An id that is not running is not an error (PostHog answers
 * the same either way): `cancelled` is then false.
 */
export const cancel = endpoint({
  summary: 'Cancel the running analysis started with `client_query_id`; its request answers 400 `query_was_cancelled`. Without `client_query_id` nothing is cancelled.',
  tag: 'insights',
  access: { scope: 'insight:read' },
  body: CancelRequest,
  responses: { 200: CancelResponse },
  formats: ['json', 'csv'],
  errors: { 400: CSV_REFUSED },
  async handle(ctx) {
    refuseCsv(ctx.query, 'a cancel')
    const project = await visibleProject(ctx, ctx.params.project_id)
    const id = ctx.body.client_query_id
    const cancelled = id === undefined ? false : await ctx.sightline.query.cancel(project.id, id)
    return respond(ctx, { ...nothingComputed(project.timezone), client_query_id: id ?? null, cancelled })
  },
})
