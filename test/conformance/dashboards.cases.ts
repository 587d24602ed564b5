import { describe, expect } from 'vitest'
import { ConflictError, NotFoundError } from '@sightline/core'
import { conformanceCase } from './case.js'
import { count, openEngine } from './harness.js'
import type { ConformanceTarget } from './target.js'
import { iso, json, user, tilesOf, written, failure, ids } from './insights.support.js'

export function dashboardCases(target: ConformanceTarget): void {
  describe('dashboards', () => {
    conformanceCase(target, 'dashboards are created, listed, updated and soft-deleted, with activity entries', async () => {
      const e = await openEngine(target)
      try {
        const ada = await user(e, 'Ada')
        const filters = { date_from: '-7d', date_to: null, properties: [{ key: '$browser', value: 'Chrome', operator: 'exact', type: 'event' }], explicitDate: true }
        const main = await e.sightline.dashboards.create(e.projectId, { name: 'Main', description: 'KPIs', filters }, { userId: ada.id })
        expect(main).toEqual({
          id: main.id,
          name: 'Main',
          description: 'KPIs',
          filters,
          createdAt: iso(0),
          createdBy: { id: ada.id, uuid: ada.uuid, distinctId: ada.distinctId, firstName: 'Ada', email: 'ada@acme.io', isEmailVerified: false },
          pinned: false,
          tags: [],
          deleted: false,
          tiles: [],
        })
        const [row] = await e.db.raw<Record<string, unknown>>('select project_id, name, description, filters, deleted, created_by from dashboards where id = $1', [main.id])
        expect({ ...row, filters: json(row!.filters) }).toEqual({ project_id: e.projectId, name: 'Main', description: 'KPIs', filters, deleted: false, created_by: ada.id })
        const alpha = await e.sightline.dashboards.create(e.projectId, { name: 'Alpha' })
        expect(alpha).toMatchObject({ description: '', filters: {}, createdBy: null })
        expect(ids(await e.sightline.dashboards.list(e.projectId))).toEqual([alpha.id, main.id])
        expect(await e.sightline.dashboards.list(e.projectId, { limit: 1, offset: 1 })).toMatchObject({ count: 2, results: [{ id: main.id }] })

        const updated = await e.sightline.dashboards.update(e.projectId, main.id, { name: 'Main KPIs', filters: { date_from: '-30d' } }, { userId: ada.id })
        expect(updated).toMatchObject({ name: 'Main KPIs', description: 'KPIs', filters: { date_from: '-30d' } })
        await e.sightline.dashboards.update(e.projectId, main.id, { description: 'KPIs' })
        const before = await written(e.db)
        for (const [input, attr] of [
          [{ filters: { date_from: 3 } }, 'filters__date_from'],
          [{ filters: { properties: 'x' } }, 'filters__properties'],
          [{ filters: { when: new Date() } }, 'filters'],
          [{ name: 5 }, 'name'],
        ] as const) {
          expect((await failure(e.sightline.dashboards.update(e.projectId, main.id, input as never))).attr).toBe(attr)
        }
        expect((await failure(e.sightline.dashboards.create(e.projectId, {} as never))).attr).toBe('name')
        expect(await written(e.db)).toEqual(before)

        await e.sightline.dashboards.delete(e.projectId, main.id, { userId: ada.id })
        await expect(e.sightline.dashboards.get(e.projectId, main.id)).rejects.toBeInstanceOf(NotFoundError)
        await expect(e.sightline.dashboards.update(e.projectId, main.id, { name: 'x' })).rejects.toBeInstanceOf(NotFoundError)
        await expect(e.sightline.dashboards.delete(e.projectId, main.id)).rejects.toBeInstanceOf(NotFoundError)
        expect(ids(await e.sightline.dashboards.list(e.projectId))).toEqual([alpha.id])
        expect(await count(e.db, 'dashboards', 'deleted')).toBe(1)

        const log = await e.sightline.activity.list({ projectId: e.projectId, scope: 'Dashboard', itemId: main.id })
        expect(log.results.map((r) => [r.activity, r.userId])).toEqual([
          ['deleted', ada.id],
          ['updated', ada.id],
          ['created', ada.id],
        ])
        expect(log.results[1]!.detail).toEqual({
          name: 'Main KPIs',
          changes: [
            { type: 'Dashboard', action: 'changed', field: 'name', before: 'Main', after: 'Main KPIs' },
            { type: 'Dashboard', action: 'changed', field: 'filters', before: filters, after: { date_from: '-30d' } },
          ],
        })
        expect(log.results[0]!.detail.changes).toEqual([{ type: 'Dashboard', action: 'changed', field: 'deleted', before: false, after: true }])
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'tiles are added, restyled and removed, and the insight lists them', async () => {
      const e = await openEngine(target)
      try {
        const ada = await user(e, 'Ada')
        const main = await e.sightline.dashboards.create(e.projectId, { name: 'Main' })
        const side = await e.sightline.dashboards.create(e.projectId, { name: 'Side' })
        const i1 = await e.sightline.insights.create(e.projectId, { name: 'I1' })
        const i2 = await e.sightline.insights.create(e.projectId, { name: 'I2', order: 1 })

        const layouts = { sm: { x: 0, y: 0, w: 6, h: 5 } }
        const t1 = await e.sightline.dashboards.addTile(e.projectId, main.id, { insightId: i1.id, layouts, color: 'blue' }, { userId: ada.id })
        expect(t1).toEqual({ id: t1.id, dashboardId: main.id, insightId: i1.id, text: null, layouts, color: 'blue', deleted: false })
        const t2 = await e.sightline.dashboards.addTile(e.projectId, main.id, { insightId: i2.id })
        expect(t2).toMatchObject({ layouts: {}, color: null })
        // Tiles by their insight's order (unset last), then id.
        expect((await e.sightline.dashboards.get(e.projectId, main.id)).tiles.map((t) => t.id)).toEqual([t2.id, t1.id])
        expect(await e.sightline.insights.get(e.projectId, i1.id)).toMatchObject({ dashboards: [main.id], dashboardTiles: [{ id: t1.id, dashboardId: main.id, deleted: false }] })
        const [added] = (await e.sightline.insights.activity(e.projectId, i1.id)).results
        expect(added).toMatchObject({ activity: 'updated', userId: ada.id, detail: { name: 'I1', short_id: i1.shortId } })
        expect(added!.detail.changes).toEqual([{ type: 'Insight', action: 'changed', field: 'dashboards', before: [], after: [{ id: main.id, name: 'Main' }] }])

        let before = await written(e.db)
        const twice = await failure(e.sightline.dashboards.addTile(e.projectId, main.id, { insightId: i1.id }))
        expect(twice).toBeInstanceOf(ConflictError)
        expect(twice.attr).toBe('insightId')
        expect((await failure(e.sightline.dashboards.addTile(e.projectId, main.id, { insightId: 999_999 }))).attr).toBe('insightId')
        expect((await failure(e.sightline.dashboards.addTile(e.projectId, main.id, { insightId: i1.id, layouts: [] as never }))).attr).toBe('layouts')
        expect(await failure(e.sightline.dashboards.addTile(e.projectId, 999_999, { insightId: i1.id }))).toBeInstanceOf(NotFoundError)
        expect(await failure(e.sightline.dashboards.updateTile(e.projectId, side.id, t1.id, { color: 'red' }))).toBeInstanceOf(NotFoundError)
        expect(await failure(e.sightline.dashboards.removeTile(e.projectId, side.id, t1.id))).toBeInstanceOf(NotFoundError)
        expect(await written(e.db)).toEqual(before)

        // Layout and colour are not in the activity log (PostHog leaves them out).
        const logged = await count(e.db, 'activity_log', "scope in ('Insight', 'Dashboard')")
        const restyled = await e.sightline.dashboards.updateTile(e.projectId, main.id, t1.id, { layouts: { sm: { x: 6, y: 0, w: 6, h: 5 } }, color: null })
        expect(restyled).toMatchObject({ layouts: { sm: { x: 6, y: 0, w: 6, h: 5 } }, color: null })
        const [tileRow] = await e.db.raw<Record<string, unknown>>('select layouts, color from dashboard_tiles where id = $1', [t1.id])
        expect({ layouts: json(tileRow!.layouts), color: tileRow!.color }).toEqual({ layouts: { sm: { x: 6, y: 0, w: 6, h: 5 } }, color: null })
        expect(await count(e.db, 'activity_log', "scope in ('Insight', 'Dashboard')")).toBe(logged)

        await e.sightline.dashboards.removeTile(e.projectId, main.id, t1.id, { userId: ada.id })
        expect((await e.sightline.dashboards.get(e.projectId, main.id)).tiles.map((t) => t.id)).toEqual([t2.id])
        expect((await e.sightline.insights.get(e.projectId, i1.id)).dashboards).toEqual([])
        expect((await tilesOf(e.db, i1.id)).map((t) => t.deleted)).toEqual([true])
        await expect(e.sightline.dashboards.removeTile(e.projectId, main.id, t1.id)).rejects.toBeInstanceOf(NotFoundError)
        // Adding it again restores the same tile with the new look.
        const again = await e.sightline.dashboards.addTile(e.projectId, main.id, { insightId: i1.id, color: 'green' })
        expect(again).toMatchObject({ id: t1.id, color: 'green', layouts: {}, deleted: false })
        expect(await count(e.db, 'dashboard_tiles')).toBe(2)
        expect((await e.sightline.insights.activity(e.projectId, i1.id)).results.map((r) => r.detail.changes[0]?.after)).toEqual([
          [{ id: main.id, name: 'Main' }],
          [],
          [{ id: main.id, name: 'Main' }],
          undefined,
        ])

        // A deleted insight's tile is hidden and cannot be added.
        await e.sightline.insights.update(e.projectId, i2.id, { deleted: true })
        expect((await e.sightline.dashboards.get(e.projectId, main.id)).tiles.map((t) => t.id)).toEqual([t1.id])
        before = await written(e.db)
        expect((await failure(e.sightline.dashboards.addTile(e.projectId, side.id, { insightId: i2.id }))).attr).toBe('insightId')
        expect(await written(e.db)).toEqual(before)

        // Deleting the dashboard removes its tiles; the insights stay.
        await e.sightline.dashboards.delete(e.projectId, main.id)
        expect(await count(e.db, 'dashboard_tiles', 'not deleted')).toBe(0)
        expect((await e.sightline.insights.get(e.projectId, i1.id)).dashboards).toEqual([])
        await expect(e.sightline.dashboards.addTile(e.projectId, main.id, { insightId: i1.id })).rejects.toBeInstanceOf(NotFoundError)
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'update restyles and removes tiles and soft-deletes, in one transaction', async () => {
      const e = await openEngine(target)
      try {
        const ada = await user(e, 'Ada')
        const main = await e.sightline.dashboards.create(e.projectId, { name: 'Main' })
        const side = await e.sightline.dashboards.create(e.projectId, { name: 'Side' })
        const i1 = await e.sightline.insights.create(e.projectId, { name: 'I1', order: 0 })
        const i2 = await e.sightline.insights.create(e.projectId, { name: 'I2', order: 1 })
        const t1 = await e.sightline.dashboards.addTile(e.projectId, main.id, { insightId: i1.id })
        const t2 = await e.sightline.dashboards.addTile(e.projectId, main.id, { insightId: i2.id })
        const sideTile = await e.sightline.dashboards.addTile(e.projectId, side.id, { insightId: i1.id })

        // A tile of another dashboard (or none) refuses the whole update: the name does not change either.
        const before = await written(e.db)
        for (const tiles of [[{ id: t1.id, color: 'red' }, { id: sideTile.id, color: 'red' }], [{ id: 999_999 }]]) {
          expect((await failure(e.sightline.dashboards.update(e.projectId, main.id, { name: 'Renamed', tiles }))).attr).toBe(tiles.length === 2 ? 'tiles__1__id' : 'tiles__0__id')
        }
        expect((await failure(e.sightline.dashboards.update(e.projectId, main.id, { tiles: [{ id: t1.id, layouts: [] as never }] }))).attr).toBe('tiles__0__layouts')
        expect(await written(e.db)).toEqual(before)

        const layouts = { sm: { x: 0, y: 2, w: 6, h: 5 } }
        const updated = await e.sightline.dashboards.update(
          e.projectId,
          main.id,
          { name: 'Renamed', tiles: [{ id: t1.id, layouts, color: 'blue' }, { id: t2.id, deleted: true }] },
          { userId: ada.id },
        )
        expect(updated).toMatchObject({ name: 'Renamed', deleted: false, tiles: [{ id: t1.id, insightId: i1.id, layouts, color: 'blue', deleted: false }] })
        expect(updated.tiles).toHaveLength(1)
        const rows = await e.db.raw<Record<string, unknown>>('select id, layouts, color, deleted from dashboard_tiles where dashboard_id = $1 order by id', [main.id])
        expect(rows.map((r) => ({ ...r, layouts: json(r.layouts) }))).toEqual([
          { id: t1.id, layouts, color: 'blue', deleted: false },
          { id: t2.id, layouts: {}, color: null, deleted: true },
        ])
        // Removing a tile is logged on its insight, as when its dashboards change.
        const [removed] = (await e.sightline.insights.activity(e.projectId, i2.id)).results
        expect(removed).toMatchObject({ activity: 'updated', userId: ada.id })
        expect(removed!.detail.changes).toEqual([{ type: 'Insight', action: 'changed', field: 'dashboards', before: [{ id: main.id, name: 'Renamed' }], after: [] }])

        // deleted: true soft-deletes after the other changes; the answer says so, without tiles.
        const gone = await e.sightline.dashboards.update(e.projectId, main.id, { description: 'last words', deleted: true }, { userId: ada.id })
        expect(gone).toMatchObject({ id: main.id, description: 'last words', deleted: true, tiles: [] })
        const [row] = await e.db.raw<Record<string, unknown>>('select description, deleted from dashboards where id = $1', [main.id])
        expect(row).toEqual({ description: 'last words', deleted: true })
        expect(await count(e.db, 'dashboard_tiles', `not deleted and dashboard_id = ${main.id}`)).toBe(0)
        await expect(e.sightline.dashboards.get(e.projectId, main.id)).rejects.toBeInstanceOf(NotFoundError)
        expect(ids(await e.sightline.dashboards.list(e.projectId))).toEqual([side.id])
        expect((await e.sightline.dashboards.get(e.projectId, side.id)).tiles.map((t) => t.id)).toEqual([sideTile.id])
        const log = await e.sightline.activity.list({ projectId: e.projectId, scope: 'Dashboard', itemId: main.id })
        expect(log.results.map((r) => r.activity)).toEqual(['deleted', 'updated', 'updated', 'created'])
        // deleted: false on a live dashboard changes nothing.
        expect(await e.sightline.dashboards.update(e.projectId, side.id, { deleted: false })).toMatchObject({ deleted: false, name: 'Side' })
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'pinned and tags are stored and logged; the list shows pinned dashboards first', async () => {
      const e = await openEngine(target)
      try {
        const ada = await user(e, 'Ada')
        const alpha = await e.sightline.dashboards.create(e.projectId, { name: 'Alpha' })
        // Tags as an insight's (PostHog's tagify): trimmed, lower-cased, each once in the order first given.
        const zeta = await e.sightline.dashboards.create(e.projectId, { name: 'Zeta', pinned: true, tags: [' KPI ', 'kpi', 'Growth'] }, { userId: ada.id })
        expect([zeta.pinned, zeta.tags, alpha.pinned, alpha.tags]).toEqual([true, ['kpi', 'growth'], false, []])
        const [row] = await e.db.raw<Record<string, unknown>>('select pinned, tags from dashboards where id = $1', [zeta.id])
        expect({ pinned: row!.pinned, tags: json(row!.tags) }).toEqual({ pinned: true, tags: ['kpi', 'growth'] })
        // PostHog's `-pinned, name`: Zeta before Alpha while pinned.
        expect(ids(await e.sightline.dashboards.list(e.projectId))).toEqual([zeta.id, alpha.id])

        const before = await written(e.db)
        expect((await failure(e.sightline.dashboards.update(e.projectId, zeta.id, { tags: ['ok', '  '] }))).attr).toBe('tags__1')
        expect((await failure(e.sightline.dashboards.update(e.projectId, zeta.id, { pinned: 'yes' as never }))).attr).toBe('pinned')
        expect(await written(e.db)).toEqual(before)

        const unpinned = await e.sightline.dashboards.update(e.projectId, zeta.id, { pinned: false, tags: [] }, { userId: ada.id })
        expect([unpinned.pinned, unpinned.tags]).toEqual([false, []])
        expect(ids(await e.sightline.dashboards.list(e.projectId))).toEqual([alpha.id, zeta.id])
        const [updated] = (await e.sightline.activity.list({ projectId: e.projectId, scope: 'Dashboard', itemId: zeta.id })).results
        expect(updated!.detail.changes).toEqual([
          { type: 'Dashboard', action: 'changed', field: 'pinned', before: true, after: false },
          { type: 'Dashboard', action: 'deleted', field: 'tags', before: ['kpi', 'growth'], after: null },
        ])
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'deleted: false restores a deleted dashboard with every tile it had, and their insights (PostHog\'s undelete)', async () => {
      const e = await openEngine(target)
      try {
        const ada = await user(e, 'Ada')
        const main = await e.sightline.dashboards.create(e.projectId, { name: 'Main' })
        const [i1, i2, i3] = [
          await e.sightline.insights.create(e.projectId, { name: 'I1', order: 0 }),
          await e.sightline.insights.create(e.projectId, { name: 'I2', order: 1 }),
          await e.sightline.insights.create(e.projectId, { name: 'I3', order: 2 }),
        ]
        const t1 = await e.sightline.dashboards.addTile(e.projectId, main.id, { insightId: i1.id })
        const t2 = await e.sightline.dashboards.addTile(e.projectId, main.id, { insightId: i2.id })
        const t3 = await e.sightline.dashboards.addTile(e.projectId, main.id, { insightId: i3.id })
        // t2 removed before the deletion, i3 deleted after it.
        await e.sightline.dashboards.update(e.projectId, main.id, { tiles: [{ id: t2.id, deleted: true }] })
        await e.sightline.dashboards.update(e.projectId, main.id, { deleted: true }, { userId: ada.id })
        await e.sightline.insights.update(e.projectId, i3.id, { deleted: true })

        // A restore that fails (a tile of no dashboard) writes nothing: the dashboard stays deleted.
        const before = await written(e.db)
        expect((await failure(e.sightline.dashboards.update(e.projectId, main.id, { deleted: false, tiles: [{ id: 999_999 }] }))).attr).toBe('tiles__0__id')
        expect(await written(e.db)).toEqual(before)
        await expect(e.sightline.dashboards.get(e.projectId, main.id)).rejects.toBeInstanceOf(NotFoundError)
        await expect(e.sightline.dashboards.update(e.projectId, 999_999, { deleted: false })).rejects.toBeInstanceOf(NotFoundError)

        // Restored with the other changes of the same update: every tile shown again (t2 too, as PostHog's
        // `_undo_delete_related_tiles` restores all), by insight order, and the deleted insight i3 restored.
        const back = await e.sightline.dashboards.update(e.projectId, main.id, { deleted: false, name: 'Back' }, { userId: ada.id })
        expect(back).toMatchObject({ id: main.id, name: 'Back', deleted: false })
        expect(back.tiles.map((t) => [t.id, t.insightId, t.deleted])).toEqual([[t1.id, i1.id, false], [t2.id, i2.id, false], [t3.id, i3.id, false]])
        expect((await e.sightline.insights.get(e.projectId, i3.id)).deleted).toBe(false)
        expect((await e.sightline.insights.get(e.projectId, i1.id)).dashboards).toEqual([main.id])
        expect(ids(await e.sightline.dashboards.list(e.projectId))).toEqual([main.id])
        const [row] = await e.db.raw<Record<string, unknown>>('select deleted from dashboards where id = $1', [main.id])
        expect(row).toEqual({ deleted: false })
        expect(await count(e.db, 'dashboard_tiles', `deleted and dashboard_id = ${main.id}`)).toBe(0)

        const log = await e.sightline.activity.list({ projectId: e.projectId, scope: 'Dashboard', itemId: main.id })
        expect(log.results.map((r) => [r.activity, r.detail.changes[0]?.field])).toEqual([
          ['updated', 'name'],
          ['updated', 'deleted'],
          ['deleted', 'deleted'],
          ['created', undefined],
        ])
        expect(log.results[1]!.detail.changes).toEqual([{ type: 'Dashboard', action: 'changed', field: 'deleted', before: true, after: false }])
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, "another project's dashboard is not found, and its insights cannot be added", async () => {
      const e = await openEngine(target)
      try {
        const other = await e.sightline.projects.create({ organizationId: e.organizationId, name: 'Other' })
        const mine = await e.sightline.dashboards.create(e.projectId, { name: 'Mine' })
        const theirs = await e.sightline.insights.create(other.id, { name: 'Theirs' })
        const ours = await e.sightline.insights.create(e.projectId, { name: 'Ours' })
        const tile = await e.sightline.dashboards.addTile(e.projectId, mine.id, { insightId: ours.id })
        const before = await written(e.db)
        expect(await failure(e.sightline.dashboards.get(other.id, mine.id))).toBeInstanceOf(NotFoundError)
        expect(await failure(e.sightline.dashboards.update(other.id, mine.id, { name: 'x' }))).toBeInstanceOf(NotFoundError)
        expect(await failure(e.sightline.dashboards.delete(other.id, mine.id))).toBeInstanceOf(NotFoundError)
        expect(await failure(e.sightline.dashboards.addTile(other.id, mine.id, { insightId: theirs.id }))).toBeInstanceOf(NotFoundError)
        expect(await failure(e.sightline.dashboards.updateTile(other.id, mine.id, tile.id, { color: 'red' }))).toBeInstanceOf(NotFoundError)
        expect(await failure(e.sightline.dashboards.removeTile(other.id, mine.id, tile.id))).toBeInstanceOf(NotFoundError)
        expect((await failure(e.sightline.dashboards.addTile(e.projectId, mine.id, { insightId: theirs.id }))).attr).toBe('insightId')
        for (const bad of [1.5, 0, 2 ** 40]) {
          expect(await failure(e.sightline.dashboards.get(e.projectId, bad))).toBeInstanceOf(NotFoundError)
          expect(await failure(e.sightline.dashboards.removeTile(e.projectId, mine.id, bad))).toBeInstanceOf(NotFoundError)
        }
        expect(await failure(e.sightline.dashboards.list(999_999))).toBeInstanceOf(NotFoundError)
        expect(await failure(e.sightline.dashboards.create(999_999, { name: 'x' }))).toBeInstanceOf(NotFoundError)
        expect(await written(e.db)).toEqual(before)
        expect((await e.sightline.dashboards.list(other.id)).count).toBe(0)
      } finally {
        await e.close()
      }
    })
  })
}
