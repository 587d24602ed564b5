import type { Kysely } from 'kysely'
import type { SightlineDatabase } from '../storage.js'
import { isRowId } from './tiles.js'

/** What an insight looks like on one dashboard: the dashboard's filter overrides and the tile's look. */
export interface TileContext {
  readonly dashboardFilters: Record<string, unknown>
  readonly layouts: Record<string, unknown>
  readonly color: string | null
}

/**
 * The insight's tile on the project's dashboard `dashboardId`, or null when
 * the insight is not shown there (no tile, a removed tile, a deleted or
 * unknown dashboard): PostHog then answers as if no dashboard was named.
 */
export async function findTileContext(db: Kysely<SightlineDatabase>, projectId: number, dashboardId: number, insightId: number): Promise<TileContext | null> {
  if (!isRowId(dashboardId)) return null
  const row = await db
    .selectFrom('dashboard_tiles as t')
    .innerJoin('dashboards as d', 'd.id', 't.dashboard_id')
    .select(['t.layouts', 't.color', 'd.filters'])
    .where('t.dashboard_id', '=', dashboardId)
    .where('t.insight_id', '=', insightId)
    .where('t.deleted', '=', false)
    .where('d.deleted', '=', false)
    .where('d.project_id', '=', projectId)
    .orderBy('t.id')
    .executeTakeFirst()
  return row ? { dashboardFilters: row.filters, layouts: row.layouts, color: row.color } : null
}
