import type { Kysely, Selectable } from 'kysely'
import { NotFoundError } from '../errors.js'
import { Dashboard } from '../model/dashboard.js'
import type { DashboardsTable, DashboardTilesTable, SightlineDatabase } from '../storage.js'
import { decodeOrThrow } from '../util/decode.js'
import { userSummaries } from './rows.js'
import { tilesFromRows } from './text-tiles.js'
import { isRowId } from './tiles.js'

type Db = Kysely<SightlineDatabase>
export type DashboardRow = Selectable<DashboardsTable>

/** The project's dashboard that is not deleted, or `NotFoundError`. */
export async function findDashboard(db: Db, projectId: number, id: number): Promise<DashboardRow> {
  if (!isRowId(id)) throw new NotFoundError('dashboard', id)
  const row = await db.selectFrom('dashboards').selectAll().where('project_id', '=', projectId).where('id', '=', id).where('deleted', '=', false).executeTakeFirst()
  if (!row) throw new NotFoundError('dashboard', id)
  return row
}


/** The dashboard's tile that is not removed, or `NotFoundError`. */
export async function findTile(db: Db, dashboardId: number, tileId: number): Promise<Selectable<DashboardTilesTable>> {
  if (!isRowId(tileId)) throw new NotFoundError('dashboard tile', tileId)
  const row = await db.selectFrom('dashboard_tiles').selectAll().where('dashboard_id', '=', dashboardId).where('id', '=', tileId).where('deleted', '=', false).executeTakeFirst()
  if (!row) throw new NotFoundError('dashboard tile', tileId)
  return row
}

/**
 * Stored rows as `Dashboard`s with their shown tiles (PostHog's `dashboard_queryset`: tiles of deleted
 * insights hidden; text tiles, which have no insight, shown), by insight order (text tiles last), then id.
 */
export async function toDashboards(db: Db, rows: ReadonlyArray<DashboardRow>): Promise<Dashboard[]> {
  if (rows.length === 0) return []
  const tileRows = await db
    .selectFrom('dashboard_tiles as t')
    .leftJoin('insights as i', 'i.id', 't.insight_id')
    .selectAll('t')
    .where(
      't.dashboard_id',
      'in',
      rows.map((r) => r.id),
    )
    .where('t.deleted', '=', false)
    .where((eb) => eb.or([eb('t.insight_id', 'is', null), eb('i.deleted', '=', false)]))
    .orderBy('i.order', (ob) => ob.asc().nullsLast())
    .orderBy('t.id')
    .execute()
  const tiles = await tilesFromRows(db, tileRows)
  const users = await userSummaries(
    db,
    rows.map((r) => r.created_by),
  )
  return rows.map((r) =>
    decodeOrThrow(
      Dashboard,
      {
        id: r.id,
        name: r.name,
        description: r.description,
        filters: r.filters,
        createdAt: r.created_at,
        createdBy: (r.created_by !== null && users.get(r.created_by)) || null,
        pinned: r.pinned,
        tags: r.tags,
        deleted: r.deleted,
        tiles: tiles.filter((t) => t.dashboardId === r.id),
      },
      'stored dashboard',
    ),
  )
}
