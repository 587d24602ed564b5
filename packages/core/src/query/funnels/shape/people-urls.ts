import { encodeParams } from '../../actors/encode-params.js'

/** Keys the people URL sets itself; a request's own values for them are replaced. */
const STEP_KEYS = ['funnel_step', 'funnel_step_breakdown']

/** The query string of a funnel's people URL: the request's parameters without the keys the URL sets itself. */
export const funnelUrlQuery = (params: Readonly<Record<string, unknown>>): string => encodeParams(params, STEP_KEYS)

/**
 * The people URL of one step (the legacy SQL path's `converted_people_url` /
 * `dropped_people_url`): the request's parameters plus `funnel_step` (n = the
 * persons who reached 1-based step n; -n = those who dropped off before it)
 * and, with a breakdown, `funnel_step_breakdown` (the series' value, text as
 * is, lists and numbers as JSON). Relative to the API root.
 */
export function peopleUrl(projectId: number, query: string, funnelStep: number, breakdownValue?: unknown): string {
  const extra = new URLSearchParams({ funnel_step: String(funnelStep) })
  if (breakdownValue !== undefined) extra.append('funnel_step_breakdown', typeof breakdownValue === 'string' ? breakdownValue : JSON.stringify(breakdownValue))
  return `/api/projects/${projectId}/persons/funnel/?${query ? `${query}&` : ''}${extra.toString()}`
}
