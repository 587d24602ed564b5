import type { Kysely } from 'kysely'
import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import type { ActivityChange, ActivityEntry } from '../model/activity.js'
import type { Actor } from '../model/actor.js'
import { DEFAULT_PAGE_SIZE, PageOptions, type Page } from '../model/page.js'
import type { SightlineDatabase } from '../storage.js'
import { nowIso } from '../time/timestamp.js'
import { decodeOrThrow } from '../util/decode.js'

/** What one write records. */
export interface ActivityRecord {
  readonly organizationId: string
  readonly projectId: number | null
  readonly actor?: Actor
  readonly scope: string
  readonly itemId: string | number
  readonly activity: string
  readonly name: string | null
  readonly changes?: ReadonlyArray<ActivityChange>
  /** Further detail fields (PostHog adds e.g. `short_id` for insights). */
  readonly extra?: Readonly<Record<string, unknown>>
}

/**
 * Records an entry through `db`, which should be the transaction of the change
 * itself, so that a change and its log entry are written together or not at all.
 */
export async function recordActivity(db: Kysely<SightlineDatabase>, clock: () => Date, entry: ActivityRecord): Promise<void> {
  await db
    .insertInto('activity_log')
    .values({
      organization_id: entry.organizationId,
      project_id: entry.projectId,
      user_id: entry.actor?.userId ?? null,
      scope: entry.scope,
      item_id: String(entry.itemId),
      activity: entry.activity,
      detail: JSON.stringify({ ...entry.extra, name: entry.name, changes: entry.changes ?? [] }),
      created_at: nowIso(clock),
    })
    .execute()
}

/**
 * The field-level changes between two versions of a record, for the fields
 * listed (in that order). Values are compared as JSON.
 */
export function diffFields<T extends Record<string, unknown>>(type: string, before: T, after: T, fields: ReadonlyArray<keyof T & string>): ActivityChange[] {
  const changes: ActivityChange[] = []
  for (const field of fields) {
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) {
      changes.push({ type, action: 'changed', field, before: before[field], after: after[field] })
    }
  }
  return changes
}

export function activityLogService(ctx: EngineContext) {
  return {
    /**
     * Entries newest first, filtered by organization, project, scope and item.
     * `limit` defaults to 100.
     */
    async list(
      filter: { organizationId?: string; projectId?: number; scope?: string | ReadonlyArray<string>; itemId?: string | number },
      page: PageOptions = {},
    ): Promise<Page<ActivityEntry>> {
      ctx.assertOpen()
      const { limit = DEFAULT_PAGE_SIZE, offset = 0 } = decodeOrThrow(PageOptions, page, 'invalid page')
      let query = ctx.db.selectFrom('activity_log')
      if (filter.organizationId !== undefined) query = query.where('organization_id', '=', filter.organizationId)
      if (filter.projectId !== undefined) query = query.where('project_id', '=', filter.projectId)
      if (typeof filter.scope === 'string') query = query.where('scope', '=', filter.scope)
      else if (filter.scope !== undefined && filter.scope.length > 0) query = query.where('scope', 'in', [...filter.scope])
      if (filter.itemId !== undefined) query = query.where('item_id', '=', String(filter.itemId))
      return runStorage('list activity', async () => {
        const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
        const rows = await query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute()
        return {
          count: Number(total.n),
          results: rows.map((r) => ({
            id: r.id,
            organizationId: r.organization_id,
            projectId: r.project_id,
            userId: r.user_id,
            scope: r.scope,
            itemId: r.item_id,
            activity: r.activity,
            detail: r.detail as ActivityEntry['detail'],
            createdAt: r.created_at,
          })),
        }
      })
    },
  }
}

export type ActivityLogService = ReturnType<typeof activityLogService>
