import type { Kysely, Selectable } from 'kysely'
import { ValidationError } from '../errors.js'
import type { DashboardTile, DashboardTilePatch } from '../model/dashboard.js'
import type { DashboardTilesTable, SightlineDatabase } from '../storage.js'

type Db = Kysely<SightlineDatabase>

/** One change of `update`'s `tiles`, checked: to a shown tile of the dashboard, or a new text tile. */
export type TileChange = { readonly tile: Selectable<DashboardTilesTable> | null; readonly change: DashboardTilePatch }

/**
 * The changes `patches` ask for, each with the dashboard's shown tile it
 * names (by the tile's `id`, or a text's `id`, which is its tile's), or none
 * for a new text tile (`text` and no id), before anything is written. A tile
 * not shown there, a patch naming no tile and bringing no text, or a text for
 * an insight's tile is a `ValidationError` naming it.
 */
export async function tilesToPatch(db: Db, dashboardId: number, patches: ReadonlyArray<DashboardTilePatch>): Promise<TileChange[]> {
  if (patches.length === 0) return []
  const shown = await db.selectFrom('dashboard_tiles').selectAll().where('dashboard_id', '=', dashboardId).where('deleted', '=', false).execute()
  const byId = new Map(shown.map((t) => [t.id, t]))
  const invalid = (path: ReadonlyArray<string | number>, message: string) => new ValidationError([{ path, message }], { context: 'invalid dashboard' })
  return patches.map((change, i) => {
    const id = change.id ?? change.text?.id ?? null
    if (id === null) {
      if (change.text === undefined) throw invalid(['tiles', i, 'id'], 'A tile id is required, except for a new text tile (`text` with its `body`).')
      return { tile: null, change }
    }
    const tile = byId.get(id)
    if (!tile) throw invalid(['tiles', i, 'id'], `Tile ${id} is not on this dashboard.`)
    if (change.text !== undefined && tile.text_body === null) throw invalid(['tiles', i, 'text'], `Tile ${id} shows an insight, not a text.`)
    return { tile, change }
  })
}

/** Writes a tile's new layouts or colour, if any. */
export async function restyle(db: Db, tileId: number, look: { readonly layouts?: DashboardTile['layouts']; readonly color?: string | null }): Promise<void> {
  if (look.layouts === undefined && look.color === undefined) return
  await db
    .updateTable('dashboard_tiles')
    .set({
      ...(look.layouts !== undefined && { layouts: JSON.stringify(look.layouts) }),
      ...(look.color !== undefined && { color: look.color }),
    })
    .where('id', '=', tileId)
    .execute()
}

export const removeTileRow = async (db: Db, tileId: number): Promise<void> => {
  await db.updateTable('dashboard_tiles').set({ deleted: true }).where('id', '=', tileId).execute()
}
