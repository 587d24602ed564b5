/** PostHog's constants (`FunnelCorrelation`): the prior added to each cell, and the significance floor. */
export const PRIOR_COUNT = 1
export const MIN_PERSON_COUNT = 25
export const MIN_PERSON_PERCENTAGE = 0.02
/** Rows returned per correlation type (success, failure). */
export const TOP_N = 10

/** One contingency row: its name and how many converting and non-converting actors have it. */
export interface Contingency {
  readonly name: string
  readonly success: number
  readonly failure: number
}

export interface RankedRow extends Contingency {
  readonly oddsRatio: number
  readonly correlationType: 'success' | 'failure'
}

/**
 * `get_entity_odds_ratio`: (s + 1)(F - f + 1) / ((S - s + 1)(f + 1)), with
 * S and F the totals; above 1 is a success correlation, otherwise failure.
 */
export function oddsRatio(row: Contingency, successTotal: number, failureTotal: number): RankedRow {
  const odds = ((row.success + PRIOR_COUNT) * (failureTotal - row.failure + PRIOR_COUNT)) / ((successTotal - row.success + PRIOR_COUNT) * (row.failure + PRIOR_COUNT))
  return { ...row, oddsRatio: odds, correlationType: odds > 1 ? 'success' : 'failure' }
}

/** `are_results_insignificant`: fewer actors than min(25, 2% of all actors). */
export const isInsignificant = (row: Contingency, total: number): boolean => row.success + row.failure < Math.min(MIN_PERSON_COUNT, MIN_PERSON_PERCENTAGE * total)

const byName = (a: Contingency, b: Contingency): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)

/**
 * PostHog's `_run` after the query: no successes or no failures gives no rows
 * and `skewed` true; otherwise `skewed` when one total is more than 10 times
 * the other, insignificant rows dropped, and the 10 strongest success
 * correlations (odds ratio descending) then the 10 strongest failure ones
 * (ascending). Ties go by name in code-point order (PostHog keeps the
 * database's order, which it leaves open).
 */
export function rankCorrelations(rows: ReadonlyArray<Contingency>, successTotal: number, failureTotal: number): { rows: RankedRow[]; skewed: boolean } {
  if (successTotal === 0 || failureTotal === 0) return { rows: [], skewed: true }
  const skewed = successTotal / failureTotal > 10 || failureTotal / successTotal > 10
  const ranked = rows.filter((r) => !isInsignificant(r, successTotal + failureTotal)).map((r) => oddsRatio(r, successTotal, failureTotal))
  const success = ranked.filter((r) => r.correlationType === 'success').sort((a, b) => b.oddsRatio - a.oddsRatio || byName(a, b))
  const failure = ranked.filter((r) => r.correlationType === 'failure').sort((a, b) => a.oddsRatio - b.oddsRatio || byName(a, b))
  return { rows: [...success.slice(0, TOP_N), ...failure.slice(0, TOP_N)], skewed }
}
