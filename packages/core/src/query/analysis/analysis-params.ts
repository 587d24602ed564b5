/**
 * What every analysis of `sightline.query` takes besides its own parameters:
 * the id that `sightline.query.cancel(projectId, id)` names.
 */
export interface QueryControlParams {
  /** Names the run for `cancel`: text of at most 200 characters. Default: none (the run cannot be cancelled by id). */
  readonly client_query_id?: string | null
}
