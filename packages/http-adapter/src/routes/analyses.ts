/**
 * The analyses' routes, mounted from core's list of analyses (`ANALYSES`):
 * each analysis' path answers GET and POST, its persons path GET, all under
 * `/api/projects/:project_id/`. An analysis added to core's registry is
 * served here without a change.
 */
import { ANALYSES, type ActorsPage, type ActorsResult, type AnalysisDescription, type AnalysisName, type AnalysisPersonsName, type Project } from '@sightline/core'
import { visibleProject } from '../access.js'
import { analysisParamsOf } from '../internal/analysis-params.js'
import { analysisCsvResponse } from '../internal/csv-analyses.js'
import { PEOPLE_URL_KEYS, peoplePage } from '../internal/people-page.js'
import { respond, respondPage } from '../internal/respond.js'
import { coreSchema, endpoint, route, type CoreSchema, type Route, type RouteContext } from '../route.js'
import { AnalysisParams } from '../wire/analysis.js'
import type { AnalysisSchemaName } from '../wire/analysis-schemas.generated.js'
import { CORRELATION_PEOPLE_QUERY, PEOPLE_QUERY } from './query.js'

const TAG = 'insights'
const PROJECT = '/api/projects/:project_id/'
const projectOf = (ctx: RouteContext<unknown>): Promise<Project> => visibleProject(ctx, ctx.params.project_id)

type Analysis = AnalysisName
type Persons = AnalysisPersonsName

/** `sightline.query` as HTTP calls it: the JSON as it came, which each analysis checks itself (its parameter types are for library calls). */
type UntypedQuery = Record<Analysis, (projectId: number, params: unknown) => Promise<{ result: unknown; last_refresh?: unknown }>> &
  Record<Persons, (projectId: number, params: unknown, page: ActorsPage) => Promise<ActorsResult>>
const untypedQuery = (ctx: RouteContext<unknown>): UntypedQuery => ctx.sightline.query as unknown as UntypedQuery

/** What an analysis answers beyond the common errors (interface 8; PostHog's statuses). */
const ANALYSIS_ERRORS = {
  429: 'The project already runs as many analyses as it may at once (throttled).',
  504: 'The analysis ran past the timeout and was stopped.',
} as const

/** Interface 4.2: every insight endpoint takes `format` (`json`, `csv`). */
const FORMATS = ['json', 'csv'] as const

/** The answer as JSON (streamed), or with `?format=csv` as the analysis' table (csv-analyses.ts). */
const answer = (ctx: RouteContext<unknown>, kind: Analysis, body: { result: unknown; last_refresh?: unknown }): Response =>
  ctx.query.get('format') === 'csv' ? analysisCsvResponse(kind, body) : respond(ctx, body)

/**
 * A schema generated from the core type `name` names. The generator's roots
 * are these same names (scripts/analysis-schemas.ts reads `ANALYSES`), so each is one.
 */
const schemaOf = (name: string): CoreSchema => coreSchema(name as AnalysisSchemaName)

/** POST: the parameters are the JSON body. */
function postAnalysis({ name: kind, summary, types }: AnalysisDescription) {
  return endpoint({
    summary: `Compute ${summary} from the parameters in the body.`,
    tag: TAG,
    access: { scope: 'insight:read' },
    body: AnalysisParams,
    params: schemaOf(types.params),
    responses: { 200: schemaOf(types.response) },
    formats: FORMATS,
    errors: ANALYSIS_ERRORS,
    async handle(ctx) {
      const project = await projectOf(ctx)
      return answer(ctx, kind, await untypedQuery(ctx)[kind](project.id, ctx.body))
    },
  })
}

/** GET: the same parameters as a query string, JSON values as their text (PostHog's legacy GET). */
function getAnalysis({ name: kind, summary, types }: AnalysisDescription) {
  return endpoint({
    summary: `Compute ${summary} from the parameters in the query string (JSON values as text).`,
    tag: TAG,
    access: { scope: 'insight:read' },
    params: schemaOf(types.params),
    responses: { 200: schemaOf(types.response) },
    formats: FORMATS,
    errors: ANALYSIS_ERRORS,
    async handle(ctx) {
      const project = await projectOf(ctx)
      return answer(ctx, kind, await untypedQuery(ctx)[kind](project.id, analysisParamsOf(ctx.query)))
    },
  })
}

/** The persons behind one point of an analysis, paginated: what the result's people URLs answer, as JSON or CSV. */
function persons({ name: kind, who, paramsType }: AnalysisDescription['persons']) {
  return endpoint({
    summary: `The persons ${who}, paginated (the result's people URLs).`,
    tag: 'persons',
    access: { scope: 'person:read' },
    query: kind === 'funnelCorrelationPersons' ? CORRELATION_PEOPLE_QUERY : PEOPLE_QUERY,
    params: schemaOf(paramsType),
    // Core's `TrendActor`: a person (its uuid), a personless distinct id, or a group (its key).
    responses: { 200: coreSchema('TrendActor', 'AnalysisPerson') },
    // `format=csv`: the page's persons as records (respond), as PostHog's exporter writes a persons modal.
    formats: FORMATS,
    errors: ANALYSIS_ERRORS,
    async handle(ctx) {
      const project = await projectOf(ctx)
      const { page, keys } = peoplePage(ctx, kind)
      const found = await untypedQuery(ctx)[kind](project.id, analysisParamsOf(ctx.query, PEOPLE_URL_KEYS), page)
      return respondPage(ctx, page, found.count, found.results, keys)
    },
  })
}

/** Every analysis' routes, in core's order: the analysis (its methods), then its persons. */
export const analysisRoutes: ReadonlyArray<Route> = ANALYSES.flatMap((analysis) => [
  ...analysis.http.methods.map((method) => route(method, PROJECT + analysis.http.path, method === 'POST' ? postAnalysis(analysis) : getAnalysis(analysis))),
  route('GET', PROJECT + analysis.persons.path, persons(analysis.persons)),
])
