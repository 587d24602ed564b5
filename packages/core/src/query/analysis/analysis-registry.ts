/**
 * The one list of analyses. `sightline.query` (services/query.ts), the
 * insight planner (insights/insight-plan.ts), the HTTP routes and the
 * OpenAPI document (through `ANALYSES`, analyses.ts) all read it: an
 * analysis added here is a library method, an insight type, two routes, a
 * persons route and their schemas.
 */
import type { EngineContext } from '../../context.js'
import { correlationActors, runFunnelCorrelation, type FunnelCorrelationResponse } from '../correlation/index.js'
import { decodeCorrelationRequest } from '../correlation/decode-correlation-params.js'
import type { FunnelCorrelationParams, FunnelCorrelationPersonsParams } from '../correlation/correlation-request.js'
import { funnelActors, runFunnel, type FunnelResponse } from '../funnels/index.js'
import { decodeFunnelRequest, type FunnelParams, type FunnelPersonsParams } from '../funnels/params/decode-funnel-params.js'
import type { PathPersonsParams } from '../paths/path-actors.js'
import { pathActors, runPaths, type PathsResponse } from '../paths/index.js'
import { decodePathsRequest, type PathsParams } from '../paths/paths-request.js'
import type { RetentionPersonsParams } from '../retention/retention-actors.js'
import { retentionActors, runRetention, type RetentionResponse } from '../retention/index.js'
import { decodeRetentionRequest, type RetentionParams } from '../retention/retention-request.js'
import type { ActorsPage, ActorsResult } from '../actors/actor-details.js'
import type { TrendPersonsParams } from '../trends/point-params.js'
import { runTrend, type TrendResponse } from '../trends/run-trend.js'
import { trendActors } from '../trends/trend-actors.js'
import { decodeTrendRequest, trendPeriodsInput, type TrendParams } from '../trends/trend-request.js'
import { retentionWindow } from '../retention/retention-window.js'
import { singleRange, type InsightDates } from './insight-dates.js'

/** PostHog's insight types (`insight` of a saved insight's filters). */
export type InsightType = 'TRENDS' | 'STICKINESS' | 'LIFECYCLE' | 'FUNNELS' | 'RETENTION' | 'PATHS'

/** The persons behind one point of an analysis: what its result's people URLs answer. */
export interface AnalysisPersonsEntry<Name extends string = string, Params = unknown> {
  /** Its `sightline.query` method. */
  readonly name: Name
  /** Who the list holds, after "The persons " (the route's summary). */
  readonly who: string
  /** Its route under `/api/projects/:project_id/`, answered to GET (PostHog's people URLs are GETs). */
  readonly path: string
  /** The exported type of its parameters, by name: its schema in the OpenAPI document. */
  readonly paramsType: string
  /** Checks `params` itself (ValidationError naming the field); `Params` is what library callers are typed with. */
  readonly run: (ctx: EngineContext, projectId: number, params: unknown, page: ActorsPage) => Promise<ActorsResult>
  /** Never set: carries `Params` for the types derived from the registry. */
  readonly params?: Params
}

/** One analysis: PostHog's legacy parameters in, PostHog's response out. */
export interface AnalysisEntry<
  Name extends string = string,
  Params = unknown,
  Response = unknown,
  Request = unknown,
  Persons extends AnalysisPersonsEntry = AnalysisPersonsEntry,
  Insights extends ReadonlyArray<InsightType> = ReadonlyArray<InsightType>,
> {
  /** Its `sightline.query` method. */
  readonly name: Name
  /** What it computes, after "Compute " (the routes' summaries). */
  readonly summary: string
  /** Its route under `/api/projects/:project_id/` and the methods it answers: POST takes the parameters as a JSON body, GET as a query string. */
  readonly http: { readonly path: string; readonly methods: ReadonlyArray<'GET' | 'POST'> }
  /** The exported types of its parameters and response, by name: their schemas in the OpenAPI document. */
  readonly types: { readonly params: string; readonly response: string }
  /** The saved-insight types it computes; none: not a saved insight. */
  readonly insightTypes: Insights
  /** Reads and checks the parameters (ValidationError naming the field). */
  readonly decode: (params: unknown) => Request
  /**
   * The dates a saved insight of it reads, from its decoded parameters: the
   * insight planner resolves them into the insight's range, expiry and refresh
   * basis. Null for an analysis without insight types; one with insight types
   * fails to compile without it.
   */
  readonly insightDates: Insights extends readonly [] ? null : (request: Request) => InsightDates
  /** Computes it; checks `params` itself (`Params` is what library callers are typed with). */
  readonly run: (ctx: EngineContext, projectId: number, params: unknown) => Promise<Response>
  readonly persons: Persons
  /** Never set: carries `Params` for the types derived from the registry. */
  readonly params?: Params
}

/** Types an entry by its library parameter types; the rest is inferred. */
const entry =
  <Params, PersonsParams>() =>
  <Name extends string, Response, Request, PersonsName extends string, const Insights extends ReadonlyArray<InsightType>>(
    e: AnalysisEntry<Name, Params, Response, Request, AnalysisPersonsEntry<PersonsName, PersonsParams>, Insights>,
  ): AnalysisEntry<Name, Params, Response, Request, AnalysisPersonsEntry<PersonsName, PersonsParams>, Insights> =>
    Object.freeze({ ...e, http: Object.freeze(e.http), types: Object.freeze(e.types), persons: Object.freeze(e.persons) })

/** Every analysis, in the order the OpenAPI document lists their schemas. */
export const ANALYSIS_REGISTRY = Object.freeze({
  funnel: entry<FunnelParams, FunnelPersonsParams>()({
    name: 'funnel',
    summary: 'a funnel (steps, trends or time to convert)',
    http: { path: 'insights/funnel/', methods: ['GET', 'POST'] },
    types: { params: 'FunnelParams', response: 'FunnelResponse' },
    insightTypes: ['FUNNELS'],
    decode: decodeFunnelRequest,
    insightDates: (r) => ({ kind: 'funnels', range: singleRange(r.interval, r) }),
    run: (ctx, projectId, params): Promise<FunnelResponse> => runFunnel(ctx, projectId, params),
    persons: { name: 'funnelPersons', who: 'who reached, or dropped off at, a step of a funnel', path: 'persons/funnel/', paramsType: 'FunnelPersonsParams', run: funnelActors },
  }),
  trend: entry<TrendParams, TrendPersonsParams>()({
    name: 'trend',
    summary: 'a trend, stickiness or lifecycle analysis',
    http: { path: 'insights/trend/', methods: ['GET', 'POST'] },
    types: { params: 'TrendParams', response: 'TrendResponse' },
    insightTypes: ['TRENDS', 'STICKINESS', 'LIFECYCLE'],
    decode: decodeTrendRequest,
    insightDates: (r) => ({ kind: r.insight === 'STICKINESS' ? 'stickiness' : r.insight === 'LIFECYCLE' ? 'lifecycle' : 'trends', range: trendPeriodsInput(r) }),
    run: (ctx, projectId, params): Promise<TrendResponse> => runTrend(ctx, projectId, params),
    persons: { name: 'trendPersons', who: 'behind a point of a trend, stickiness or lifecycle series', path: 'persons/trends/', paramsType: 'TrendPersonsParams', run: trendActors },
  }),
  retention: entry<RetentionParams, RetentionPersonsParams>()({
    name: 'retention',
    summary: 'a retention table (cohorts by period and their returns)',
    http: { path: 'insights/retention/', methods: ['GET', 'POST'] },
    types: { params: 'RetentionParams', response: 'RetentionResponse' },
    insightTypes: ['RETENTION'],
    decode: decodeRetentionRequest,
    insightDates: (r) => ({ kind: 'retention', interval: r.period, dateFrom: r.dateFrom, dateTo: r.dateTo, window: (context) => retentionWindow(r, context) }),
    run: (ctx, projectId, params): Promise<RetentionResponse> => runRetention(ctx, projectId, params),
    persons: { name: 'retentionPersons', who: 'of a retention cohort, or of one of its return periods', path: 'persons/retention/', paramsType: 'RetentionPersonsParams', run: retentionActors },
  }),
  paths: entry<PathsParams, PathPersonsParams>()({
    name: 'paths',
    summary: 'the paths users take (weighted edges between path nodes)',
    http: { path: 'insights/path/', methods: ['GET', 'POST'] },
    types: { params: 'PathsParams', response: 'PathsResponse' },
    insightTypes: ['PATHS'],
    decode: decodePathsRequest,
    // Paths resolve their range as a day interval (reference §14.1).
    insightDates: (r) => ({ kind: 'paths', range: singleRange('day', r) }),
    run: (ctx, projectId, params): Promise<PathsResponse> => runPaths(ctx, projectId, params),
    persons: { name: 'pathPersons', who: 'who passed through a path node or edge, or dropped off after it', path: 'persons/path/', paramsType: 'PathPersonsParams', run: pathActors },
  }),
  funnelCorrelation: entry<FunnelCorrelationParams, FunnelCorrelationPersonsParams>()({
    name: 'funnelCorrelation',
    summary: 'which events and properties go with converting through a funnel (odds ratios)',
    http: { path: 'insights/funnel/correlation/', methods: ['GET', 'POST'] },
    types: { params: 'FunnelCorrelationParams', response: 'FunnelCorrelationResponse' },
    insightTypes: [],
    decode: decodeCorrelationRequest,
    insightDates: null,
    run: (ctx, projectId, params): Promise<FunnelCorrelationResponse> => runFunnelCorrelation(ctx, projectId, params),
    persons: {
      name: 'funnelCorrelationPersons',
      who: 'who converted, or dropped off, with a correlated event or property',
      path: 'persons/funnel/correlation/',
      paramsType: 'FunnelCorrelationPersonsParams',
      run: correlationActors,
    },
  }),
})

type Registry = typeof ANALYSIS_REGISTRY

/** The analyses' `sightline.query` methods. */
export type AnalysisName = keyof Registry
/** The persons lists' `sightline.query` methods. */
export type AnalysisPersonsName = Registry[AnalysisName]['persons']['name']
/** The analyses that compute saved insights. */
export type InsightAnalysisName = { [N in AnalysisName]: Registry[N]['insightTypes'] extends readonly [] ? never : N }[AnalysisName]

/** The library parameters, response and decoded request of analysis `N`. */
export type AnalysisParamsOf<N extends AnalysisName> = NonNullable<Registry[N]['params']>
export type AnalysisResponseOf<N extends AnalysisName> = Awaited<ReturnType<Registry[N]['run']>>
export type AnalysisRequestOf<N extends AnalysisName> = ReturnType<Registry[N]['decode']>

/** The library parameters of persons list `P`. */
export type AnalysisPersonsParamsOf<P extends AnalysisPersonsName> = NonNullable<Extract<Registry[AnalysisName]['persons'], { readonly name: P }>['params']>

/** The analysis that computes saved insights of `type`; undefined for a type none computes. */
export function analysisOfInsight(type: string): Registry[InsightAnalysisName] | undefined {
  for (const analysis of Object.values(ANALYSIS_REGISTRY)) {
    if ((analysis.insightTypes as ReadonlyArray<string>).includes(type)) return analysis as Registry[InsightAnalysisName]
  }
  return undefined
}

/**
 * The dates a saved insight computed by `analysis` reads, from the insight's
 * parameters (decoded by the analysis: ValidationError naming the field).
 */
export function insightDatesOf(analysis: Registry[InsightAnalysisName], params: unknown): InsightDates {
  // Each entry's insightDates reads what its own decode returns; the union of entries cannot say so to the compiler.
  const entry = analysis as unknown as { decode(params: unknown): unknown; insightDates(request: unknown): InsightDates }
  return entry.insightDates(entry.decode(params))
}
