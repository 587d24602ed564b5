/** Keys the people URL sets itself; a request's own values for them are replaced. */
const STEP_KEYS = ['funnel_step', 'funnel_step_breakdown']

/**
 * PostHog's `urlencode(filter.to_params())`: strings as they are, everything
 * else as JSON; keys without a value are left out.
 */
export function encodeParams(params: Readonly<Record<string, unknown>>): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || STEP_KEYS.includes(key)) continue
    search.append(key, typeof value === 'string' ? value : JSON.stringify(value))
  }
  return search.toString()
}

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
