import type { ActorsPage, ActorsResult, Project } from '@sightline/core'
import { visibleProject } from '../access.js'
import { analysisParamsOf } from '../internal/analysis-params.js'
import { analysisCsvResponse, type AnalysisKind } from '../internal/csv-analyses.js'
import { PEOPLE_URL_KEYS, peoplePage, type PeopleList } from '../internal/people-page.js'
import { respond, respondPage } from '../internal/respond.js'
import { coreSchema, endpoint, type CoreSchema, type RouteContext } from '../route.js'
import { AnalysisParams } from '../wire/analysis.js'
import { CORRELATION_PEOPLE_QUERY, PEOPLE_QUERY } from './query.js'

const TAG = 'insights'
const projectOf = (ctx: RouteContext<unknown>): Promise<Project> => visibleProject(ctx, ctx.params.project_id)

type Analysis = AnalysisKind
type Persons = PeopleList

/** `sightline.query` as HTTP calls it: the JSON as it came, which each analysis checks itself (its parameter types are for library calls). */
type UntypedQuery = Record<Analysis, (projectId: number, params: unknown) => Promise<{ result: unknown; last_refresh?: unknown }>> &
  Record<Persons, (projectId: number, params: unknown, page: ActorsPage) => Promise<ActorsResult>>
const untypedQuery = (ctx: RouteContext<unknown>): UntypedQuery => ctx.sightline.query as unknown as UntypedQuery

/** What an analysis answers beyond the common errors (interface 8; PostHog's statuses). */
const ANALYSIS_ERRORS = {
  429: 'The project already runs as many analyses as it may at once (throttled).',
  504: 'The analysis ran past the timeout and was stopped.',
} as const

const DESCRIBED: Record<Analysis, string> = {
  funnel: 'a funnel (steps, trends or time to convert)',
  trend: 'a trend, stickiness or lifecycle analysis',
  retention: 'a retention table (cohorts by period and their returns)',
  paths: 'the paths users take (weighted edges between path nodes)',
  funnelCorrelation: 'which events and properties go with converting through a funnel (odds ratios)',
}

/** Each analysis' parameters and answer, as core's types state them (generated into the document). */
const SCHEMAS: Record<Analysis, { readonly params: CoreSchema; readonly response: CoreSchema }> = {
  funnel: { params: coreSchema('FunnelParams'), response: coreSchema('FunnelResponse') },
  trend: { params: coreSchema('TrendParams'), response: coreSchema('TrendResponse') },
  retention: { params: coreSchema('RetentionParams'), response: coreSchema('RetentionResponse') },
  paths: { params: coreSchema('PathsParams'), response: coreSchema('PathsResponse') },
  funnelCorrelation: { params: coreSchema('FunnelCorrelationParams'), response: coreSchema('FunnelCorrelationResponse') },
}
const PERSONS_PARAMS: Record<Persons, CoreSchema> = {
  funnelPersons: coreSchema('FunnelPersonsParams'),
  trendPersons: coreSchema('TrendPersonsParams'),
  retentionPersons: coreSchema('RetentionPersonsParams'),
  pathPersons: coreSchema('PathPersonsParams'),
  funnelCorrelationPersons: coreSchema('FunnelCorrelationPersonsParams'),
}

/** Interface 4.2: every insight endpoint takes `format` (`json`, `csv`). */
const FORMATS = ['json', 'csv'] as const

/** The answer as JSON (streamed), or with `?format=csv` as the analysis' table (csv-analyses.ts). */
const answer = (ctx: RouteContext<unknown>, kind: Analysis, body: { result: unknown; last_refresh?: unknown }): Response =>
  ctx.query.get('format') === 'csv' ? analysisCsvResponse(kind, body) : respond(ctx, body)

/** POST: the parameters are the JSON body. */
function postAnalysis(kind: Analysis) {
  return endpoint({
    summary: `Compute ${DESCRIBED[kind]} from the parameters in the body.`,
    tag: TAG,
    access: { scope: 'insight:read' },
    body: AnalysisParams,
    params: SCHEMAS[kind].params,
    responses: { 200: SCHEMAS[kind].response },
    formats: FORMATS,
    errors: ANALYSIS_ERRORS,
    async handle(ctx) {
      const project = await projectOf(ctx)
      return answer(ctx, kind, await untypedQuery(ctx)[kind](project.id, ctx.body))
    },
  })
}

/** GET: the same parameters as a query string, JSON values as their text (PostHog's legacy GET). */
function getAnalysis(kind: Analysis) {
  return endpoint({
    summary: `Compute ${DESCRIBED[kind]} from the parameters in the query string (JSON values as text).`,
    tag: TAG,
    access: { scope: 'insight:read' },
    params: SCHEMAS[kind].params,
    responses: { 200: SCHEMAS[kind].response },
    formats: FORMATS,
    errors: ANALYSIS_ERRORS,
    async handle(ctx) {
      const project = await projectOf(ctx)
      return answer(ctx, kind, await untypedQuery(ctx)[kind](project.id, analysisParamsOf(ctx.query)))
    },
  })
}

/** The persons behind one point of an analysis, paginated: what the result's people URLs answer, as JSON or CSV. */
function persons(kind: Persons, what: string) {
  return endpoint({
    summary: `The persons ${what}, paginated (the result's people URLs).`,
    tag: 'persons',
    access: { scope: 'person:read' },
    query: kind === 'funnelCorrelationPersons' ? CORRELATION_PEOPLE_QUERY : PEOPLE_QUERY,
    params: PERSONS_PARAMS[kind],
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

export const funnelPost = postAnalysis('funnel')
export const funnelGet = getAnalysis('funnel')
export const trendPost = postAnalysis('trend')
export const trendGet = getAnalysis('trend')
export const funnelPersons = persons('funnelPersons', 'who reached, or dropped off at, a step of a funnel')
export const trendPersons = persons('trendPersons', 'behind a point of a trend, stickiness or lifecycle series')
export const retentionGet = getAnalysis('retention')
export const retentionPost = postAnalysis('retention')
export const pathsGet = getAnalysis('paths')
export const pathsPost = postAnalysis('paths')
export const funnelCorrelationGet = getAnalysis('funnelCorrelation')
export const funnelCorrelationPost = postAnalysis('funnelCorrelation')
export const retentionPersons = persons('retentionPersons', 'of a retention cohort, or of one of its return periods')
export const pathPersons = persons('pathPersons', 'who passed through a path node or edge, or dropped off after it')
export const funnelCorrelationPersons = persons('funnelCorrelationPersons', 'who converted, or dropped off, with a correlated event or property')
