import type { EngineContext } from '../../context.js'
import { ValidationError } from '../../errors.js'
import { prepareQueryExtensions, type QueryExtensions } from '../analysis/query-extensions.js'
import type { CohortCatalog } from '../cohorts/load-cohorts.js'
import { resolveDateRange, type ResolvedDateRange } from '../dates/resolve-date-range.js'
import { earliestEvent } from '../scope/earliest-event.js'
import { loadQueryProject, type QueryProject } from '../scope/query-project.js'
import type { FunnelRequest } from './funnel-request.js'

/** Everything a funnel reads besides its events: settings, actions, cohorts, the resolved range. */
export interface FunnelEnv {
  readonly project: QueryProject
  readonly extensions: QueryExtensions
  readonly range: ResolvedDateRange
  readonly actionNames: ReadonlyMap<number, string | null>
  /** Cohort breakdowns: the cohorts, for their membership tests; null otherwise. */
  readonly cohorts: CohortCatalog | null
  readonly cohortNames: ReadonlyMap<number, string | null>
  readonly now: Date
}

/**
 * Loads the project (NotFoundError when missing), the actions the steps and
 * exclusions name (ValidationError at their path when unknown), the cohorts
 * of a cohort breakdown (ValidationError at `breakdown` when unknown), and
 * resolves the date range in the project's zone (`date_from: "all"` starts
 * at the project's earliest event).
 */
export async function funnelEnv(ctx: EngineContext, projectId: number, request: FunnelRequest): Promise<FunnelEnv> {
  const project = await loadQueryProject(ctx, projectId)
  const actions = [
    ...request.steps.filter((s) => s.kind === 'actions').map((s) => ({ id: s.actionId!, path: ['actions', s.index] as Array<string | number> })),
    ...request.exclusions.filter((x) => x.entity.kind === 'actions').map((x) => ({ id: x.entity.actionId!, path: ['exclusions', x.entity.index] as Array<string | number> })),
  ]
  const extensions = await prepareQueryExtensions(ctx, project, { actions })
  const actionNames = new Map(actions.map((a) => [a.id, extensions.actionName(a.id)] as const))

  const cohortIds = (request.breakdown?.dims[0]?.type === 'cohort' ? request.breakdown.dims[0].cohorts : []).filter((c): c is number => c !== 'all')
  let cohorts: CohortCatalog | null = null
  if (request.breakdown?.dims[0]?.type === 'cohort') {
    // The extensions loaded every cohort of the project (and what they name).
    cohorts = extensions.cohorts
    const missing = cohortIds.find((id) => !cohorts!.cohorts.has(id))
    if (missing !== undefined) throw new ValidationError([{ path: ['breakdown'], message: `Cohort ${missing} does not exist in this project` }], { context: 'invalid breakdown' })
  }
  const cohortNames = new Map(cohortIds.map((id) => [id, cohorts?.cohorts.get(id)?.name ?? null] as const))

  const now = ctx.clock()
  const range = await resolveDateRange(
    { dateFrom: request.dateFrom, dateTo: request.dateTo, explicitDate: request.explicitDate, interval: request.interval },
    {
      timezone: project.timezone,
      weekStartDay: project.weekStartDay,
      now,
      earliestEvent: earliestEvent(ctx, project.id),
    },
  )
  return { project, extensions, range, actionNames, cohorts, cohortNames, now }
}
