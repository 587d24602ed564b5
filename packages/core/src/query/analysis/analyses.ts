import { ANALYSIS_REGISTRY, type AnalysisName, type AnalysisPersonsName, type InsightType } from './analysis-registry.js'

/**
 * An analysis as adapters see it: plain data, no runner. The HTTP adapter
 * mounts its routes from it (each under `/api/projects/:project_id/`,
 * calling `sightline.query[name]`), and the OpenAPI generator names its
 * schemas from it.
 */
export interface AnalysisDescription {
  /** Its `sightline.query` method. */
  readonly name: AnalysisName
  /** What it computes, after "Compute ". */
  readonly summary: string
  /** Its route under `/api/projects/:project_id/`; POST takes the parameters as a JSON body, GET as a query string. */
  readonly http: { readonly path: string; readonly methods: ReadonlyArray<'GET' | 'POST'> }
  /** The names of core's exported types of its parameters and response. */
  readonly types: { readonly params: string; readonly response: string }
  /** The saved-insight types it computes (PostHog's `insight`); empty: none. */
  readonly insightTypes: ReadonlyArray<InsightType>
  /** The persons behind one point of its result (its people URLs): a GET route under `/api/projects/:project_id/`. */
  readonly persons: { readonly name: AnalysisPersonsName; readonly who: string; readonly path: string; readonly paramsType: string }
}

/** Every analysis `sightline.query` runs, in one order (the OpenAPI document's). */
export const ANALYSES: ReadonlyArray<AnalysisDescription> = Object.freeze(
  Object.values(ANALYSIS_REGISTRY).map(
    (a): AnalysisDescription =>
      Object.freeze({
        name: a.name,
        summary: a.summary,
        http: a.http,
        types: a.types,
        insightTypes: a.insightTypes,
        persons: Object.freeze({ name: a.persons.name, who: a.persons.who, path: a.persons.path, paramsType: a.persons.paramsType }),
      }),
  ),
)
