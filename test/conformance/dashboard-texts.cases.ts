import { describe, expect } from 'vitest'
import { conformanceCase } from './case.js'
import { count, openEngine } from './harness.js'
import type { ConformanceTarget } from './target.js'
import { at, iso, user, written, failure } from './insights.support.js'

/** PostHog's text tiles on every storage: a `Text` kept on its tile, changed through `update`'s tiles. */
export function dashboardTextCases(target: ConformanceTarget): void {
  describe('dashboard text tiles', () => {
    conformanceCase(target, "text tiles: added, rewritten, restyled and removed through update's tiles (PostHog's Text)", async () => {
      let minutes = 0
      const e = await openEngine(target, () => at(minutes))
      try {
        const [ada, bob] = [await user(e, 'Ada'), await user(e, 'Bob')]
        const summary = (u: typeof ada) => ({ id: u.id, uuid: u.uuid, distinctId: u.distinctId, firstName: u.firstName, email: u.email, isEmailVerified: false })
        const main = await e.sightline.dashboards.create(e.projectId, { name: 'Main' })
        const side = await e.sightline.dashboards.create(e.projectId, { name: 'Side' })
        const i1 = await e.sightline.insights.create(e.projectId, { name: 'I1', order: 0 })
        const t1 = await e.sightline.dashboards.addTile(e.projectId, main.id, { insightId: i1.id })
        const logged = async () => [await count(e.db, 'activity_log', "scope = 'Dashboard'"), (await e.sightline.insights.activity(e.projectId, i1.id)).results.length]
        const quiet = await logged()

        // A tile with `text` and no id is a new text tile, written by the caller now, changed by nobody yet; after the insights.
        minutes = 1
        const layouts = { sm: { x: 0, y: 10, w: 12, h: 2 } }
        const added = await e.sightline.dashboards.update(e.projectId, main.id, { tiles: [{ text: { body: '# Notes' }, layouts, color: 'yellow' }] }, { userId: ada.id })
        expect(added.tiles.map((t) => t.id)[0]).toBe(t1.id)
        const textId = added.tiles[1]!.id
        expect(added.tiles[1]).toEqual({
          id: textId,
          dashboardId: main.id,
          insightId: null,
          text: { id: textId, body: '# Notes', createdBy: summary(ada), lastModifiedAt: iso(1), lastModifiedBy: null },
          layouts,
          color: 'yellow',
          deleted: false,
        })
        const [row] = await e.db.raw<Record<string, unknown>>('select insight_id, text_body, text_created_by, text_last_modified_by, color from dashboard_tiles where id = $1', [textId])
        expect(row).toEqual({ insight_id: null, text_body: '# Notes', text_created_by: ada.id, text_last_modified_by: null, color: 'yellow' })

        // Refused, and nothing of the update written: a text for an insight's tile, a tile with neither id nor text,
        // a body over 4,000 characters, the text of another dashboard.
        const sideText = (await e.sightline.dashboards.update(e.projectId, side.id, { tiles: [{ text: { body: 'side' } }] })).tiles[0]!.id
        const before = await written(e.db)
        for (const [tiles, attr] of [
          [[{ id: t1.id, text: { body: 'x' } }], 'tiles__0__text'],
          [[{ id: textId, color: 'red' }, { color: 'red' }], 'tiles__1__id'],
          [[{ text: { body: 'x'.repeat(4001) } }], 'tiles__0__text__body'],
          [[{ text: { id: sideText, body: 'x' } }], 'tiles__0__id'],
        ] as const) {
          expect((await failure(e.sightline.dashboards.update(e.projectId, main.id, { name: 'Never', tiles: tiles as never }))).attr).toBe(attr)
        }
        expect(await written(e.db)).toEqual(before)
        expect((await e.sightline.dashboards.get(e.projectId, main.id)).tiles[1]!.text!.body).toBe('# Notes')

        // Rewritten by the tile's id, then by the text's own id (the same number), with a new colour.
        minutes = 5
        const rewritten = await e.sightline.dashboards.update(e.projectId, main.id, { tiles: [{ id: textId, text: { body: 'v2' } }] }, { userId: bob.id })
        expect(rewritten.tiles[1]!.text).toEqual({ id: textId, body: 'v2', createdBy: summary(ada), lastModifiedAt: iso(5), lastModifiedBy: summary(bob) })
        const recoloured = await e.sightline.dashboards.update(e.projectId, main.id, { tiles: [{ text: { id: textId, body: 'v3' }, color: 'red' }] })
        expect(recoloured.tiles[1]).toMatchObject({ id: textId, color: 'red', layouts, text: { body: 'v3', lastModifiedBy: null } })

        // Removed by `deleted: true` or removeTile; neither the dashboard's nor the insight's log has any of it.
        const second = (await e.sightline.dashboards.update(e.projectId, main.id, { tiles: [{ text: { body: 'second' } }] })).tiles[2]!.id
        expect((await e.sightline.dashboards.update(e.projectId, main.id, { tiles: [{ id: textId, deleted: true }] })).tiles.map((t) => t.id)).toEqual([t1.id, second])
        await e.sightline.dashboards.removeTile(e.projectId, main.id, second)
        expect((await e.sightline.dashboards.get(e.projectId, main.id)).tiles.map((t) => t.id)).toEqual([t1.id])
        expect(await logged()).toEqual(quiet)
      } finally {
        await e.close()
      }
    })
  })
}
