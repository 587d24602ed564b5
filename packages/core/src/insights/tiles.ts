import type { Kysely } from 'kysely'
import { ValidationError } from '../errors.js'
import type { ActivityChange } from '../model/activity.js'
import type { SightlineDatabase } from '../storage.js'

type Db = Kysely<SightlineDatabase>

/** Integer ids are stored in 32-bit columns: a larger number names no row (and Postgres would refuse to compare it). */
export const isRowId = (id: unknown): id is number => Number.isInteger(id) && (id as number) >= 1 && (id as number) <= 2_147_483_647

/** A dashboard as the activity log describes it (PostHog's `describe_change`). */
export interface DashboardRef {
  readonly id: number
  readonly name: string
}

/**
 * The project's dashboards named by `ids` (deleted ones included), in the order
 * given, without repeats. An id naming no dashboard of the project is a
 * `ValidationError` on `dashboards`, worded as PostHog's.
 */
export async function resolveDashboards(db: Db, projectId: number, ids: ReadonlyArray<number>): Promise<Array<DashboardRef & { deleted: boolean }>> {
  const unique = [...new Set(ids)]
  const missing = (id: number) =>
    new ValidationError([{ path: ['dashboards'], message: `Invalid pk "${id}" - object does not exist.` }], { context: 'invalid insight' })
  const bad = unique.find((id) => !isRowId(id))
  if (bad !== undefined) throw missing(bad)
  if (unique.length === 0) return []
  const rows = await db.selectFrom('dashboards').select(['id', 'name', 'deleted']).where('project_id', '=', projectId).where('id', 'in', unique).execute()
  const byId = new Map(rows.map((r) => [r.id, r]))
  const unknown = unique.find((id) => !byId.has(id))
  if (unknown !== undefined) throw missing(unknown)
  return unique.map((id) => byId.get(id)!)
}

/** The dashboards showing the insight (a tile not removed, a dashboard not deleted), by id. */
export async function dashboardsShowing(db: Db, projectId: number, insightId: number): Promise<DashboardRef[]> {
  return db
    .selectFrom('dashboard_tiles as t')
    .innerJoin('dashboards as d', 'd.id', 't.dashboard_id')
    .select(['d.id', 'd.name'])
    .distinct()
    .where('t.insight_id', '=', insightId)
    .where('t.deleted', '=', false)
    .where('d.deleted', '=', false)
    .where('d.project_id', '=', projectId)
    .orderBy('d.id')
    .execute()
}

/**
 * Puts the insight on the dashboard: restores its removed tile there if it has
 * one (PostHog keeps one tile per dashboard and insight), or adds a tile.
 * A tile already shown is left as it is and reported as `live`.
 */
export async function putTile(
  db: Db,
  now: string,
  dashboardId: number,
  insightId: number,
  look: { layouts?: Record<string, unknown>; color?: string | null } = {},
): Promise<{ tileId: number; was: 'live' | 'removed' | 'absent' }> {
  const existing = await db
    .selectFrom('dashboard_tiles')
    .select(['id', 'deleted'])
    .where('dashboard_id', '=', dashboardId)
    .where('insight_id', '=', insightId)
    .orderBy('deleted')
    .orderBy('id')
    .executeTakeFirst()
  if (existing && !existing.deleted) return { tileId: existing.id, was: 'live' }
  if (existing) {
    await db
      .updateTable('dashboard_tiles')
      .set({
        deleted: false,
        ...(look.layouts !== undefined && { layouts: JSON.stringify(look.layouts) }),
        ...(look.color !== undefined && { color: look.color }),
      })
      .where('id', '=', existing.id)
      .execute()
    return { tileId: existing.id, was: 'removed' }
  }
  const row = await db
    .insertInto('dashboard_tiles')
    .values({
      dashboard_id: dashboardId,
      insight_id: insightId,
      layouts: JSON.stringify(look.layouts ?? {}),
      color: look.color ?? null,
      deleted: false,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { tileId: row.id, was: 'absent' }
}

/** PostHog's synthetic `dashboards` change of an insight: the dashboards before and after, as `{ id, name }`. */
export const dashboardsChange = (before: ReadonlyArray<DashboardRef>, after: ReadonlyArray<DashboardRef>): ActivityChange => ({
  type: 'Insight',
  action: 'changed',
  field: 'dashboards',
  before: before.map(({ id, name }) => ({ id, name })),
  after: after.map(({ id, name }) => ({ id, name })),
})

/**
 * Puts the insight on exactly the `wanted` dashboards that are not deleted
 * (the deprecated `dashboards` field): adds or restores tiles, removes the
 * others. Returns the activity change, or null when the set is unchanged.
 */
export async function placeOnDashboards(
  db: Db,
  now: string,
  projectId: number,
  insightId: number,
  wanted: ReadonlyArray<DashboardRef & { deleted: boolean }>,
): Promise<ActivityChange | null> {
  const before = await dashboardsShowing(db, projectId, insightId)
  const after = wanted.filter((d) => !d.deleted)
  const beforeIds = new Set(before.map((d) => d.id))
  const afterIds = new Set(after.map((d) => d.id))
  if (before.length === after.length && after.every((d) => beforeIds.has(d.id))) return null
  for (const d of after) if (!beforeIds.has(d.id)) await putTile(db, now, d.id, insightId)
  const removed = before.filter((d) => !afterIds.has(d.id)).map((d) => d.id)
  if (removed.length > 0) {
    await db
      .updateTable('dashboard_tiles')
      .set({ deleted: true })
      .where('insight_id', '=', insightId)
      .where('dashboard_id', 'in', removed)
      .where('deleted', '=', false)
      .execute()
  }
  return dashboardsChange(before, after)
}
