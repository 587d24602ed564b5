import type { Kysely, Selectable } from 'kysely'
import type { DashboardTile } from '../model/dashboard.js'
import type { DashboardTilesTable, SightlineDatabase } from '../storage.js'
import { userSummaries } from './rows.js'

type Db = Kysely<SightlineDatabase>
type TileRow = Selectable<DashboardTilesTable>

/**
 * Stored tiles as `DashboardTile`s: an insight tile with `text` null, a text
 * tile (PostHog's `Text`, kept on its tile: the text's id is the tile's) with
 * its body and the users who wrote and last changed it.
 */
export async function tilesFromRows(db: Db, rows: ReadonlyArray<TileRow>): Promise<DashboardTile[]> {
  const users = await userSummaries(db, rows.flatMap((t) => [t.text_created_by, t.text_last_modified_by]))
  const user = (id: number | null) => (id !== null && users.get(id)) || null
  return rows.map((t) => ({
    id: t.id,
    dashboardId: t.dashboard_id,
    insightId: t.insight_id,
    text:
      t.text_body === null
        ? null
        : { id: t.id, body: t.text_body, createdBy: user(t.text_created_by), lastModifiedAt: t.text_last_modified_at ?? t.created_at, lastModifiedBy: user(t.text_last_modified_by) },
    layouts: t.layouts,
    color: t.color,
    deleted: t.deleted,
  }))
}

/** Adds a text tile to the dashboard, written by `userId` (PostHog: `last_modified_at` now, `last_modified_by` none yet). */
export async function insertTextTile(
  db: Db,
  now: string,
  dashboardId: number,
  text: { readonly body: string; readonly userId: number | null },
  look: { readonly layouts?: Record<string, unknown>; readonly color?: string | null; readonly deleted?: boolean },
): Promise<number> {
  const row = await db
    .insertInto('dashboard_tiles')
    .values({
      dashboard_id: dashboardId,
      insight_id: null,
      layouts: JSON.stringify(look.layouts ?? {}),
      color: look.color ?? null,
      deleted: look.deleted ?? false,
      created_at: now,
      text_body: text.body,
      text_created_by: text.userId,
      text_last_modified_at: now,
      text_last_modified_by: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** A text tile's new body, changed now by `userId`. */
export async function rewriteText(db: Db, now: string, tileId: number, body: string, userId: number | null): Promise<void> {
  await db.updateTable('dashboard_tiles').set({ text_body: body, text_last_modified_at: now, text_last_modified_by: userId }).where('id', '=', tileId).execute()
}
