import type { Expression } from 'kysely'
import type { SqlHooks } from '../../storage.js'

/** Where a cohort's membership is asked from. */
export interface CohortScope {
  /** The person of the row being filtered: a person uuid, or any text that is none (a personless distinct id). */
  readonly personId: Expression<string>
  readonly projectId: number
  /** "Now" of behavioral criteria: the engine clock. */
  readonly now: Date
  readonly hooks: SqlHooks
}
