import type { Kysely, Selectable } from 'kysely'
import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { projectWrites, writeTransaction } from '../db/write-retries.js'
import { ConflictError, NotFoundError, ValidationError } from '../errors.js'
import { changesBetween } from '../insights/changes.js'
import { findDashboard, findTile, toDashboards, type DashboardRow } from '../insights/dashboard-rows.js'
import { displayName, findInsightRow, findProject, type ProjectInfo } from '../insights/rows.js'
import { insertTextTile, rewriteText, tilesFromRows } from '../insights/text-tiles.js'
import { removeTileRow, restyle, tilesToPatch } from '../insights/tile-patches.js'
import { dashboardsChange, dashboardsShowing, isRowId, putTile } from '../insights/tiles.js'
import type { ActivityChange } from '../model/activity.js'
import type { Actor } from '../model/actor.js'
import {
  AddDashboardTileInput,
  CreateDashboardInput,
  UpdateDashboardInput,
  UpdateDashboardTileInput,
  type Dashboard,
  type DashboardTile,
} from '../model/dashboard.js'
import { DEFAULT_PAGE_SIZE, PageOptions, type Page } from '../model/page.js'
import type { DashboardTilesTable, SightlineDatabase } from '../storage.js'
import { nowIso } from '../time/timestamp.js'
import { decodeOrThrow } from '../util/decode.js'
import { normalizeTags } from '../util/tags.js'
import { recordActivity } from './activity-log.js'

type Db = Kysely<SightlineDatabase>

const tileFromRow = async (db: Db, t: Selectable<DashboardTilesTable>): Promise<DashboardTile> => (await tilesFromRows(db, [t]))[0]!

function checkActor(actor: Actor | undefined): void {
  if (actor !== undefined && !isRowId(actor.userId)) {
    throw new ValidationError([{ path: ['actor', 'userId'], message: 'expected the id of a user' }], { context: 'invalid actor' })
  }
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
