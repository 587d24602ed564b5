import type { Kysely, Selectable } from 'kysely'
import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { projectWrites, writeTransaction } from '../db/write-retries.js'
import { ConflictError, NotFoundError, ValidationError } from '../errors.js'
import { changesBetween } from '../insights/changes.js'
import { displayName, findInsightRow, findProject, userSummaries, type ProjectInfo } from '../insights/rows.js'
import { insertTextTile, rewriteText, tilesFromRows } from '../insights/text-tiles.js'
import { dashboardsChange, dashboardsShowing, isRowId, putTile } from '../insights/tiles.js'
import type { ActivityChange } from '../model/activity.js'
import type { Actor } from '../model/actor.js'
import {
  AddDashboardTileInput,
  CreateDashboardInput,
  Dashboard,
  UpdateDashboardInput,
  UpdateDashboardTileInput,
  type DashboardTile,
  type DashboardTilePatch,
} from '../model/dashboard.js'
import { DEFAULT_PAGE_SIZE, PageOptions, type Page } from '../model/page.js'
import type { DashboardsTable, DashboardTilesTable, SightlineDatabase } from '../storage.js'
import { nowIso } from '../time/timestamp.js'
import { decodeOrThrow } from '../util/decode.js'
import { normalizeTags } from '../util/tags.js'
import { recordActivity } from './activity-log.js'

type Db = Kysely<SightlineDatabase>
type DashboardRow = Selectable<DashboardsTable>

const tileFromRow = async (db: Db, t: Selectable<DashboardTilesTable>): Promise<DashboardTile> => (await tilesFromRows(db, [t]))[0]!

function checkActor(actor: Actor | undefined): void {
  if (actor !== undefined && !isRowId(actor.userId)) {
    throw new ValidationError([{ path: ['actor', 'userId'], message: 'expected the id of a user' }], { context: 'invalid actor' })
  }
}

/** The project's dashboard that is not deleted, or `NotFoundError`. */
async function findDashboard(db: Db, projectId: number, id: number): Promise<DashboardRow> {
  if (!isRowId(id)) throw new NotFoundError('dashboard', id)
  const row = await db.selectFrom('dashboards').selectAll().where('project_id', '=', projectId).where('id', '=', id).where('deleted', '=', false).executeTakeFirst()
  if (!row) throw new NotFoundError('dashboard', id)
  return row
}

/** The dashboard's tile that is not removed, or `NotFoundError`. */
async function findTile(db: Db, dashboardId: number, tileId: number): Promise<Selectable<DashboardTilesTable>> {
  if (!isRowId(tileId)) throw new NotFoundError('dashboard tile', tileId)
  const row = await db.selectFrom('dashboard_tiles').selectAll().where('dashboard_id', '=', dashboardId).where('id', '=', tileId).where('deleted', '=', false).executeTakeFirst()
  if (!row) throw new NotFoundError('dashboard tile', tileId)
  return row
}

/**
 * Stored rows as `Dashboard`s with their shown tiles (PostHog's `dashboard_queryset`: tiles of deleted
 * insights hidden; text tiles, which have no insight, shown), by insight order (text tiles last), then id.
 */
async function toDashboards(db: Db, rows: ReadonlyArray<DashboardRow>): Promise<Dashboard[]> {
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

/** One change of `update`'s `tiles`, checked: to a shown tile of the dashboard, or a new text tile. */
type TileChange = { readonly tile: Selectable<DashboardTilesTable> | null; readonly change: DashboardTilePatch }

/**
 * The changes `patches` ask for, each with the dashboard's shown tile it
 * names (by the tile's `id`, or a text's `id`, which is its tile's), or none
 * for a new text tile (`text` and no id), before anything is written. A tile
 * not shown there, a patch naming no tile and bringing no text, or a text for
 * an insight's tile is a `ValidationError` naming it.
 */
async function tilesToPatch(db: Db, dashboardId: number, patches: ReadonlyArray<DashboardTilePatch>): Promise<TileChange[]> {
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
async function restyle(db: Db, tileId: number, look: { readonly layouts?: DashboardTile['layouts']; readonly color?: string | null }): Promise<void> {
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

const removeTileRow = async (db: Db, tileId: number): Promise<void> => {
  await db.updateTable('dashboard_tiles').set({ deleted: true }).where('id', '=', tileId).execute()
}

export function dashboardsService(ctx: EngineContext) {
  const record = (db: Db, project: ProjectInfo, row: DashboardRow, actor: Actor | undefined, activity: string, changes: ActivityChange[]) =>
    recordActivity(db, ctx.clock, { organizationId: project.organizationId, projectId: project.id, actor, scope: 'Dashboard', itemId: row.id, activity, name: row.name, changes })

  /**
   * Moves the insight onto or off a dashboard, recording it on the insight as
   * PostHog does when its `dashboards` change.
   */
  const retile = async (db: Db, project: ProjectInfo, insightId: number, actor: Actor | undefined, move: () => Promise<void>) => {
    const before = await dashboardsShowing(db, project.id, insightId)
    await move()
    const after = await dashboardsShowing(db, project.id, insightId)
    const insight = await findInsightRow(db, project.id, insightId, { includeDeleted: true })
    await recordActivity(db, ctx.clock, {
      organizationId: project.organizationId,
      projectId: project.id,
      actor,
      scope: 'Insight',
      itemId: insightId,
      activity: 'updated',
      name: displayName(insight),
      changes: [dashboardsChange(before, after)],
      extra: { short_id: insight.short_id },
    })
  }

  /** Removes a tile: an insight's leaves the dashboard as its `dashboards` change (logged on it); a text's just goes. */
  const dropTile = (db: Db, project: ProjectInfo, tile: Selectable<DashboardTilesTable>, actor: Actor | undefined) =>
    tile.insight_id === null ? removeTileRow(db, tile.id) : retile(db, project, tile.insight_id, actor, () => removeTileRow(db, tile.id))

  /** Marks the dashboard and its tiles deleted (the insights stay) and records it. */
  const softDelete = async (db: Db, project: ProjectInfo, row: DashboardRow, actor: Actor | undefined) => {
    await db.updateTable('dashboards').set({ deleted: true }).where('id', '=', row.id).execute()
    await db.updateTable('dashboard_tiles').set({ deleted: true }).where('dashboard_id', '=', row.id).where('deleted', '=', false).execute()
    await record(db, project, row, actor, 'deleted', [{ type: 'Dashboard', action: 'changed', field: 'deleted', before: false, after: true }])
  }

  /**
   * PostHog's undelete (`PATCH {deleted: false}` of a deleted dashboard,
   * `_undo_delete_related_tiles`): the dashboard and every tile it ever had
   * are shown again, tiles removed before the deletion too, and the tiles'
   * deleted insights are restored (PostHog's bulk update, which logs nothing
   * for them). A dashboard that is not deleted is left as it is; one that does
   * not exist is a `NotFoundError`.
   */
  const undelete = async (db: Db, project: ProjectInfo, id: number, actor: Actor | undefined) => {
    if (!isRowId(id)) throw new NotFoundError('dashboard', id)
    const row = await db.selectFrom('dashboards').selectAll().where('project_id', '=', project.id).where('id', '=', id).executeTakeFirst()
    if (!row) throw new NotFoundError('dashboard', id)
    if (!row.deleted) return
    await db.updateTable('dashboards').set({ deleted: false }).where('id', '=', row.id).execute()
    await db.updateTable('dashboard_tiles').set({ deleted: false }).where('dashboard_id', '=', row.id).execute()
    const insightIds = db.selectFrom('dashboard_tiles').select('insight_id').where('dashboard_id', '=', row.id)
    await db.updateTable('insights').set({ deleted: false }).where('project_id', '=', project.id).where('id', 'in', insightIds).where('deleted', '=', true).execute()
    await record(db, project, row, actor, 'updated', [{ type: 'Dashboard', action: 'changed', field: 'deleted', before: true, after: false }])
  }

  const write = <T>(projectId: number, what: string, fn: (trx: Db) => Promise<T>) => writeTransaction(ctx, projectWrites(projectId), what, fn)

  return {
    /** Creates a dashboard (no tiles yet). */
    async create(projectId: number, input: CreateDashboardInput, actor?: Actor): Promise<Dashboard> {
      ctx.assertOpen()
      const d = decodeOrThrow(CreateDashboardInput, input, 'invalid dashboard')
      checkActor(actor)
      return write(projectId, 'create dashboard', async (trx) => {
        const project = await findProject(trx, projectId)
        const row = await trx
          .insertInto('dashboards')
          .values({
            project_id: project.id,
            name: d.name,
            description: d.description ?? '',
            filters: JSON.stringify(d.filters ?? {}),
            deleted: false,
            created_at: nowIso(ctx.clock),
            created_by: actor?.userId ?? null,
            pinned: d.pinned ?? false,
            tags: JSON.stringify(normalizeTags(d.tags ?? [])),
          })
          .returningAll()
          .executeTakeFirstOrThrow()
        await record(trx, project, row, actor, 'created', [])
        return (await toDashboards(trx, [row]))[0]!
      })
    },

    /** The project's dashboards that are not deleted: pinned first, then by name (PostHog's `-pinned, name`), then id. */
    async list(projectId: number, page: PageOptions = {}): Promise<Page<Dashboard>> {
      ctx.assertOpen()
      const { limit = DEFAULT_PAGE_SIZE, offset = 0 } = decodeOrThrow(PageOptions, page, 'invalid page')
      return runStorage('list dashboards', async () => {
        const project = await findProject(ctx.db, projectId)
        const query = ctx.db.selectFrom('dashboards').where('project_id', '=', project.id).where('deleted', '=', false)
        const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
        const rows = await query.selectAll().orderBy('pinned', 'desc').orderBy('name').orderBy('id').limit(limit).offset(offset).execute()
        return { count: Number(total.n), results: await toDashboards(ctx.db, rows) }
      })
    },

    /** The dashboard with its tiles, or `NotFoundError` (also once deleted). */
    async get(projectId: number, id: number): Promise<Dashboard> {
      ctx.assertOpen()
      return runStorage('get dashboard', async () => {
        const project = await findProject(ctx.db, projectId)
        return (await toDashboards(ctx.db, [await findDashboard(ctx.db, project.id, id)]))[0]!
      })
    },

    /**
     * Restores a deleted dashboard when `deleted` is false (`undelete`), then
     * changes the name, description, filters, `pinned` or tags, then goes
     * through `tiles` in order (adds a text tile, rewrites a text, restyles or
     * removes a tile: text changes are not logged, as layouts and colours are
     * not), then soft-deletes the dashboard when
     * `deleted` is true, all in one transaction; records each change. A
     * deleted dashboard is otherwise a `NotFoundError`. A tile id not shown on this
     * dashboard is a `ValidationError` at `['tiles', i, 'id']` and nothing is
     * written. Once deleted, the answer has `deleted: true` and no tiles.
     */
    async update(projectId: number, id: number, input: UpdateDashboardInput, actor?: Actor): Promise<Dashboard> {
      ctx.assertOpen()
      const patch = decodeOrThrow(UpdateDashboardInput, input, 'invalid dashboard')
      checkActor(actor)
      return write(projectId, 'update dashboard', async (trx) => {
        const project = await findProject(trx, projectId)
        if (patch.deleted === false) await undelete(trx, project, id, actor)
        const before = await findDashboard(trx, project.id, id)
        const tiles = await tilesToPatch(trx, before.id, patch.tiles ?? [])
        const tags = patch.tags && normalizeTags(patch.tags)
        if (patch.name !== undefined || patch.description !== undefined || patch.filters !== undefined || patch.pinned !== undefined || tags !== undefined) {
          await trx
            .updateTable('dashboards')
            .set({
              ...(patch.name !== undefined && { name: patch.name }),
              ...(patch.description !== undefined && { description: patch.description }),
              ...(patch.filters !== undefined && { filters: JSON.stringify(patch.filters) }),
              ...(patch.pinned !== undefined && { pinned: patch.pinned }),
              ...(tags !== undefined && { tags: JSON.stringify(tags) }),
            })
            .where('id', '=', before.id)
            .execute()
        }
        const after = await findDashboard(trx, project.id, id)
        const changes = changesBetween('Dashboard', before, after, ['name', 'description', 'filters', 'pinned', 'tags'])
        if (changes.length > 0) await record(trx, project, after, actor, 'updated', changes)
        const now = nowIso(ctx.clock)
        for (const { tile, change } of tiles) {
          if (tile === null) {
            await insertTextTile(trx, now, before.id, { body: change.text!.body, userId: actor?.userId ?? null }, change)
            continue
          }
          if (change.text !== undefined) await rewriteText(trx, now, tile.id, change.text.body, actor?.userId ?? null)
          if (change.deleted === true) await dropTile(trx, project, tile, actor)
          else await restyle(trx, tile.id, change)
        }
        if (patch.deleted === true) {
          await softDelete(trx, project, after, actor)
          return (await toDashboards(trx, [{ ...after, deleted: true }]))[0]!
        }
        return (await toDashboards(trx, [after]))[0]!
      })
    },

    /** Soft-deletes the dashboard and removes its tiles (the insights stay). */
    async delete(projectId: number, id: number, actor?: Actor): Promise<void> {
      ctx.assertOpen()
      checkActor(actor)
      await write(projectId, 'delete dashboard', async (trx) => {
        const project = await findProject(trx, projectId)
        await softDelete(trx, project, await findDashboard(trx, project.id, id), actor)
      })
    },

    /**
     * Puts an insight of the project on the dashboard (restoring its removed
     * tile there, if any). `ConflictError` when it is already shown there.
     */
    async addTile(projectId: number, dashboardId: number, input: AddDashboardTileInput, actor?: Actor): Promise<DashboardTile> {
      ctx.assertOpen()
      const t = decodeOrThrow(AddDashboardTileInput, input, 'invalid dashboard tile')
      checkActor(actor)
      return write(projectId, 'add dashboard tile', async (trx) => {
        const project = await findProject(trx, projectId)
        const dashboard = await findDashboard(trx, project.id, dashboardId)
        const insight = isRowId(t.insightId)
          ? await trx.selectFrom('insights').select('id').where('project_id', '=', project.id).where('id', '=', t.insightId).where('deleted', '=', false).executeTakeFirst()
          : undefined
        if (!insight) {
          throw new ValidationError([{ path: ['insightId'], message: `Invalid pk "${t.insightId}" - object does not exist.` }], { context: 'invalid dashboard tile' })
        }
        let tileId = 0
        await retile(trx, project, insight.id, actor, async () => {
          const put = await putTile(trx, nowIso(ctx.clock), dashboard.id, insight.id, { layouts: t.layouts ?? {}, color: t.color ?? null })
          if (put.was === 'live') throw new ConflictError(`insight ${insight.id} is already on dashboard ${dashboard.id}`, 'insightId')
          tileId = put.tileId
        })
        return tileFromRow(trx, await findTile(trx, dashboard.id, tileId))
      })
    },

    /** Changes a tile's layouts or colour. Not logged: PostHog's activity log leaves layouts and colour out. */
    async updateTile(projectId: number, dashboardId: number, tileId: number, input: UpdateDashboardTileInput): Promise<DashboardTile> {
      ctx.assertOpen()
      const patch = decodeOrThrow(UpdateDashboardTileInput, input, 'invalid dashboard tile')
      return write(projectId, 'update dashboard tile', async (trx) => {
        const project = await findProject(trx, projectId)
        const dashboard = await findDashboard(trx, project.id, dashboardId)
        const tile = await findTile(trx, dashboard.id, tileId)
        await restyle(trx, tile.id, patch)
        return tileFromRow(trx, await findTile(trx, dashboard.id, tile.id))
      })
    },

    /** Removes the tile (a soft delete: adding the insight again restores it). */
    async removeTile(projectId: number, dashboardId: number, tileId: number, actor?: Actor): Promise<void> {
      ctx.assertOpen()
      checkActor(actor)
      await write(projectId, 'remove dashboard tile', async (trx) => {
        const project = await findProject(trx, projectId)
        const dashboard = await findDashboard(trx, project.id, dashboardId)
        await dropTile(trx, project, await findTile(trx, dashboard.id, tileId), actor)
      })
    },
  }
}

export type DashboardsService = ReturnType<typeof dashboardsService>
