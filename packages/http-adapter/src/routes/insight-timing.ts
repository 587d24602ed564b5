import { principalOf, visibleProject } from '../access.js'
import { CSV_REFUSED, refuseCsv } from '../internal/csv.js'
import { respond } from '../internal/respond.js'
import { endpoint } from '../route.js'
import { InsightTiming, InsightTimingResult, nothingComputed } from '../wire/insight-timing.js'

/**
 * `POST /insights/timing/`: the client reports how long an insight took to
 * show. Nothing is stored; the host receives each report that carries a time
 * through the `onInsightTiming` option (a metric, a log line), as PostHog
 * forwards them to its own metrics. A body without `time_to_see_data_ms` (the
 * interface's Insight fields alone) measures nothing and reaches no hook.
 */
export const timing = endpoint({
  summary: "Report how long an insight or dashboard took to show (handed to the host's onInsightTiming hook when it carries `time_to_see_data_ms`).",
  tag: 'insights',
  access: { scope: 'insight:read' },
  body: InsightTiming,
  responses: { 200: InsightTimingResult },
  formats: ['json', 'csv'],
  errors: { 400: CSV_REFUSED },
  async handle(ctx) {
    refuseCsv(ctx.query, 'a timing report')
    const project = await visibleProject(ctx, ctx.params.project_id)
    const report = ctx.options.onInsightTiming
    const ms = ctx.body.time_to_see_data_ms
    if (report && ms !== undefined) {
      try {
        report({ ...ctx.body, time_to_see_data_ms: ms }, { projectId: project.id, userId: principalOf(ctx).user.id })
      } catch (error) {
        // A failing metrics hook must not fail the client's request: it goes where other faults go.
        ctx.options.onError(error, ctx.request)
      }
    }
    return respond(ctx, { ...nothingComputed(project.timezone), success: true })
  },
})
