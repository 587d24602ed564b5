import { Schema } from 'effect'
import { visibleProject } from '../access.js'
import { CSV_REFUSED, refuseCsv } from '../internal/csv.js'
import { respond } from '../internal/respond.js'
import { endpoint } from '../route.js'

/** PostHog's body: `client_query_id` is required; other insight fields are accepted and ignored. */
const CancelRequest = Schema.Struct({
  client_query_id: Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(200))),
}).annotate({ identifier: 'InsightCancelRequest' })

const CancelResponse = Schema.Struct({
  client_query_id: Schema.String,
  cancelled: Schema.Boolean.annotate({ description: 'Whether an analysis with that id was running in the project (and is now stopped).' }),
}).annotate({ identifier: 'InsightCancelResult' })

/**
 * Cancels the project's running analysis started with `client_query_id`. That
 * analysis answers 400 `query_was_cancelled`; its statement is interrupted in
 * the database. An id that is not running is not an error (PostHog answers
 * the same either way): `cancelled` is then false.
 */
export const cancel = endpoint({
  summary: 'Cancel the running analysis started with `client_query_id`; its request answers 400 `query_was_cancelled`.',
  tag: 'insights',
  access: { scope: 'insight:read' },
  body: CancelRequest,
  responses: { 200: CancelResponse },
  formats: ['json', 'csv'],
  errors: { 400: CSV_REFUSED },
  async handle(ctx) {
    refuseCsv(ctx.query, 'a cancel')
    const project = await visibleProject(ctx, ctx.params.project_id)
    const cancelled = await ctx.sightline.query.cancel(project.id, ctx.body.client_query_id)
    return respond(ctx, { client_query_id: ctx.body.client_query_id, cancelled })
  },
})
