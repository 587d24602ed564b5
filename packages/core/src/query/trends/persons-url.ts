import { isoInZone } from '../dates/bucket-labels.js'
import type { Period } from '../dates/periods.js'
import type { TrendPointParams } from './point-params.js'
import type { TrendRequest, TrendSeries } from './trend-request.js'
import { encodeParams } from '../actors/encode-params.js'

/** A link to the actors behind one point, as PostHog's legacy results carry it (`persons_urls[i]`, `persons`). */
export interface PersonsLink {
  readonly url: string
  /** The keys the link adds to the request: which series and which point. */
  readonly filter: TrendPointParams
}

/** The keys `trendActors` reads to find the clicked point; they replace any the request already had. */
export const POINT_KEYS = ['entity_id', 'entity_type', 'entity_math', 'entity_order', 'target_date', 'breakdown_value', 'compare_label', 'lifecycle_type', 'stickiness_days'] as const

/**
 * The link to the actors of one point: the request's own parameters plus the
 * series (`entity_*`), the bucket (`target_date`, its start as an ISO date-time
 * in the project's zone; absent for a total-value display), the breakdown
 * value and the compared period. Like PostHog's, the URL has no leading
 * slash: `api/projects/{id}/persons/trends/?...`.
 */
export function personsLink(projectId: number, request: TrendRequest, point: Record<string, unknown>): PersonsLink {
  const own = Object.fromEntries(Object.entries(point).filter(([, v]) => v !== undefined && v !== null))
  const filter: TrendPointParams = own
  const base = baseQuery(request)
  const query = encodeParams(own)
  return { url: `api/projects/${projectId}/persons/trends/?${base}${base && query ? '&' : ''}${query}`, filter }
}

// Every point of a result shares the request's part of the query: encoded once per request, not once per point.
const baseQueries = new WeakMap<TrendRequest, string>()

/** The request's parameters without the point keys, `insight` set, encoded (URLSearchParams joins pairs with `&`). */
function baseQuery(request: TrendRequest): string {
  let base = baseQueries.get(request)
  if (base === undefined) {
    const params: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(request.params)) if (!(POINT_KEYS as ReadonlyArray<string>).includes(key)) params[key] = value
    params.insight = request.insight
    base = encodeParams(params)
    baseQueries.set(request, base)
  }
  return base
}

/** The entity keys of a series. */
export function entityKeys(series: TrendSeries): Record<string, unknown> {
  const e = series.entity
  return { entity_id: e.kind === 'actions' ? e.actionId : e.event, entity_type: e.kind, entity_math: series.math, entity_order: e.index }
}

/** The link of a trend point: bucket `bucket` of a row (null: the whole range). */
export function personsUrl(
  projectId: number,
  request: TrendRequest,
  series: TrendSeries,
  period: Period,
  row: { readonly parts: ReadonlyArray<string> },
  bucket: number | null,
): PersonsLink {
  return personsLink(projectId, request, {
    ...entityKeys(series),
    target_date: bucket === null ? undefined : isoInZone(period.timeZone, period.starts[bucket]! * 1000),
    breakdown_value: request.breakdowns.length === 0 ? undefined : request.multiBreakdown ? JSON.stringify(row.parts) : row.parts[0],
    compare_label: period.compareLabel ?? undefined,
  })
}
