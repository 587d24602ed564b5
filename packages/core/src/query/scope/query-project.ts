import type { EngineContext } from '../../context.js'
import { runStorage } from '../../db/run.js'
import { NotFoundError } from '../../errors.js'
import type { WeekStartDay } from '../dates/interval.js'
import { Schema } from 'effect'
import { PathCleaningFilter } from '../../model/project.js'
import { decodeOrThrow } from '../../util/decode.js'
import { decodePropertyFilters, type PropertyFilters } from '../filters/property-filters.js'

/** The project settings that change an analysis' answer (PostHog's team settings). */
export interface QueryProject {
  readonly id: number
  /** IANA zone: buckets and date strings are local to it. */
  readonly timezone: string
  readonly weekStartDay: WeekStartDay
  /** Applied to every event when a query sets `filter_test_accounts`. */
  readonly testAccountFilters: PropertyFilters
  /** The project's path cleaning rules, in order (paths with `path_replacements`); validated when written. */
  readonly pathCleaningFilters: ReadonlyArray<{ readonly alias: string; readonly regex: string }>
}

/** Reads the project's query settings; `NotFoundError` when it does not exist. */
export async function loadQueryProject(ctx: EngineContext, projectId: number): Promise<QueryProject> {
  if (!Number.isSafeInteger(projectId)) throw new NotFoundError('project', projectId)
  const row = await runStorage('read project settings', () =>
    ctx.db
      .selectFrom('projects')
      .select(['id', 'timezone', 'week_start_day', 'test_account_filters', 'path_cleaning_filters'])
      .where('id', '=', projectId)
      .executeTakeFirst(),
  )
  if (!row) throw new NotFoundError('project', projectId)
  return {
    id: row.id,
    timezone: row.timezone,
    weekStartDay: row.week_start_day === 1 ? 1 : 0,
    testAccountFilters: decodePropertyFilters(row.test_account_filters ?? []),
    pathCleaningFilters: decodeOrThrow(Schema.Array(PathCleaningFilter), row.path_cleaning_filters ?? [], 'stored path cleaning filters'),
  }
}
