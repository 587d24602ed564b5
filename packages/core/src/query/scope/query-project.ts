import type { EngineContext } from '../../context.js'
import { runStorage } from '../../db/run.js'
import { NotFoundError } from '../../errors.js'
import type { WeekStartDay } from '../dates/interval.js'
import { Schema } from 'effect'
import { PathCleaningFilter } from '../../model/project.js'
import { decodeOrThrow } from '../../util/decode.js'
import { slotColumn } from '../../db/property-slots.js'
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
  /** The project's promoted properties whose slot is ready to read (property-slots.ts). Default none. */
  readonly promoted?: PromotedColumns
}

/** Event properties a project promoted, by key: the `events` column of each ready slot. */
export interface PromotedColumns {
  /** `String` slots: the column holding the property's text. */
  readonly text: ReadonlyMap<string, string>
  /** `Numeric` slots: the column holding the property's numeric reading. */
  readonly number: ReadonlyMap<string, string>
}

export const NO_PROMOTED_COLUMNS: PromotedColumns = Object.freeze({ text: new Map(), number: new Map() })

/** Reads the project's query settings; `NotFoundError` when it does not exist. */
export async function loadQueryProject(ctx: EngineContext, projectId: number): Promise<QueryProject> {
  if (!Number.isSafeInteger(projectId)) throw new NotFoundError('project', projectId)
  const [row, slots] = await runStorage('read project settings', () =>
    Promise.all([
      ctx.db
        .selectFrom('projects')
        .select(['id', 'timezone', 'week_start_day', 'test_account_filters', 'path_cleaning_filters'])
        .where('id', '=', projectId)
        .executeTakeFirst(),
      ctx.db.selectFrom('property_slots').select(['key', 'type', 'slot']).where('project_id', '=', projectId).where('state', '=', 'ready').execute(),
    ]),
  )
  if (!row) throw new NotFoundError('project', projectId)
  return {
    id: row.id,
    timezone: row.timezone,
    weekStartDay: row.week_start_day === 1 ? 1 : 0,
    testAccountFilters: decodePropertyFilters(row.test_account_filters ?? []),
    pathCleaningFilters: decodeOrThrow(Schema.Array(PathCleaningFilter), row.path_cleaning_filters ?? [], 'stored path cleaning filters'),
    promoted: promotedColumns(slots),
  }
}

/** The ready slots as the columns queries read (only `ready` ones: a backfilling slot misses older events). */
function promotedColumns(slots: ReadonlyArray<{ key: string; type: string; slot: number }>): PromotedColumns {
  if (slots.length === 0) return NO_PROMOTED_COLUMNS
  const text = new Map<string, string>()
  const number = new Map<string, string>()
  for (const s of slots) {
    if (s.type === 'Numeric') number.set(s.key, slotColumn('Numeric', s.slot))
    else text.set(s.key, slotColumn('String', s.slot))
  }
  return { text, number }
}
