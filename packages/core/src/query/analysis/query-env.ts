import type { SqlHooks } from '../../storage.js'
import type { QueryProject } from '../scope/query-project.js'
import type { QueryExtensions } from './query-extensions.js'

/** What every query of one analysis shares: the project, the dialect, actions, cohorts, the clock. */
export interface QueryEnv {
  readonly project: QueryProject
  readonly hooks: SqlHooks
  readonly extensions: QueryExtensions
  /** The engine's clock when the analysis started (HogQL's `now()`). */
  readonly now: Date
}
