import { encodeParams } from '../actors/encode-params.js'

/** The keys `retentionActors` reads to find the clicked row or cell; a link replaces any the request already had. */
export const CELL_KEYS = ['selected_interval', 'return_interval', 'breakdown_value'] as const

/** Which actors a people URL asks for: row `selectedInterval`, optionally its value `returnInterval`, of a breakdown value. */
export interface RetentionCellRef {
  readonly selectedInterval: number
  readonly returnInterval?: number
  readonly breakdownValue?: string
}

/**
 * `/api/projects/{id}/persons/retention/?<request>&selected_interval=i`
 * (PostHog's `/api/person/retention/` under the project, with its
 * `selected_interval` for the cohort row), plus `return_interval=k` for one
 * value of the row (Sightline's) and `breakdown_value` for a breakdown row.
 * Request parameters are echoed as PostHog's `encode_get_request_params`
 * writes them: strings as they are, everything else as JSON.
 */
export function retentionPeopleUrl(projectId: number, params: Readonly<Record<string, unknown>>, cell: RetentionCellRef): string {
  const echoed: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(params)) if (!(CELL_KEYS as ReadonlyArray<string>).includes(key)) echoed[key] = value
  echoed.selected_interval = cell.selectedInterval
  if (cell.returnInterval !== undefined) echoed.return_interval = cell.returnInterval
  if (cell.breakdownValue !== undefined) echoed.breakdown_value = cell.breakdownValue
  return `/api/projects/${projectId}/persons/retention/?${encodeParams(echoed)}`
}
