import { describe, expect } from 'vitest'
import { NotFoundError, ValidationError, type Sightline } from '@sightline/core'
import { conformanceCase } from './case.js'
import { count, NOW, openEngine } from './harness.js'
import type { ConformanceTarget } from './target.js'
import { at, iso, json, user, insightRow, tilesOf, written, failure, ids } from './insights.support.js'

export function insightCases(target: ConformanceTarget): void {
  describe('insights', () => {
    conformanceCase(target, 'create writes the insight with a short id, a view and an activity entry', async () => {
      const e = await openEngine(target)
      try {
        const ada = await user(e, 'Ada')
        const insight = await e.sightline.insights.create(
          e.projectId,
          {
            name: 'Weekly signups',
            filters: { insight: 'TRENDS', events: [{ id: 'signed_up' }] },
            order: -3,
            tags: ['Growth ', 'growth', 'KPI'],
            description: 'signups per week',
          },
          { userId: ada.id },
        )
        const summary = { id: ada.id, uuid: ada.uuid, distinctId: ada.distinctId, firstName: 'Ada', email: 'ada@acme.io', isEmailVerified: false }
        expect(insight).toEqual({
          id: insight.id,
          shortId: insight.shortId,
          name: 'Weekly signups',
          derivedName: null,
          filters: { insight: 'TRENDS', events: [{ id: 'signed_up' }] },
          query: null,
          order: -3,
          deleted: false,
          dashboards: [],
          dashboardTiles: [],
          lastRefresh: null,
          nextAllowedClientRefresh: null,
          result: null,
          isCached: false,
          createdAt: iso(0),
          createdBy: summary,
          description: 'signups per week',
          updatedAt: iso(0),
          tags: ['growth', 'kpi'],
          favorited: false,
          saved: true,
          lastModifiedAt: iso(0),
          lastModifiedBy: summary,
          isSample: false,
          effectiveRestrictionLevel: 21,
          effectivePrivilegeLevel: 37,
          timezone: 'Europe/Berlin',
        })
        expect(insight.shortId).toMatch(/^[A-Za-z0-9]{8}$/)
        const row = await insightRow(e.db, insight.id)
        expect({ ...row, filters: json(row.filters), tags: json(row.tags) }).toEqual({
          short_id: insight.shortId,
          name: 'Weekly signups',
          derived_name: null,
          description: 'signups per week',
          filters: { insight: 'TRENDS', events: [{ id: 'signed_up' }] },
          query: null,
          order: -3,
          deleted: false,
          favorited: false,
          saved: true,
          tags: ['growth', 'kpi'],
          is_sample: false,
          created_by: ada.id,
          last_modified_by: ada.id,
          query_is_null: true,
        })
        // PostHog records the creator's view of a new insight.
        expect(await e.db.raw('select project_id, insight_id, user_id from insight_views')).toEqual([{ project_id: e.projectId, insight_id: insight.id, user_id: ada.id }])
        const log = await e.db.raw<Record<string, unknown>>('select organization_id, project_id, user_id, scope, item_id, activity, detail from activity_log where scope = \'Insight\'')
        // The Postgres raw reader turns numeric text into numbers: compare item_id as text.
        expect(log.map((r) => ({ ...r, item_id: String(r.item_id), detail: json(r.detail) }))).toEqual([
          {
            organization_id: e.organizationId,
            project_id: e.projectId,
            user_id: ada.id,
            scope: 'Insight',
            item_id: String(insight.id),
            activity: 'created',
            detail: { name: 'Weekly signups', short_id: insight.shortId, changes: [] },
          },
        ])
        // Reading computes the result (insight-results.cases.ts); the rest is what create answered.
        expect(await e.sightline.insights.get(e.projectId, insight.id, { refresh: 'force_cache' })).toEqual(insight)

        // Without an actor: made by nobody, no view; an unnamed insight is still logged (name null).
        const bare = await e.sightline.insights.create(e.projectId, { query: { kind: 'InsightVizNode', source: { kind: 'TrendsQuery', series: [] } } })
        expect(bare).toMatchObject({ name: null, filters: {}, query: { kind: 'InsightVizNode', source: { kind: 'TrendsQuery', series: [] } }, order: null, createdBy: null, lastModifiedBy: null, tags: [] })
        expect(await count(e.db, 'insight_views')).toBe(1)
        const [entry] = (await e.sightline.insights.activity(e.projectId, bare.id)).results
        expect(entry).toMatchObject({ userId: null, activity: 'created', detail: { name: null, short_id: bare.shortId } })
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'short ids are eight letters or digits, unique in the project', async () => {
      const e = await openEngine(target)
      try {
        const made: string[] = []
        for (let i = 0; i < 40; i++) made.push((await e.sightline.insights.create(e.projectId, { name: `i${i}` })).shortId)
        expect(made.every((s) => /^[A-Za-z0-9]{8}$/.test(s))).toBe(true)
        expect(new Set(made).size).toBe(40)
        const [distinct] = await e.db.raw<{ n: number }>('select count(distinct short_id) as n from insights where project_id = $1', [e.projectId])
        expect(Number(distinct!.n)).toBe(40)
        const found = await e.sightline.insights.list(e.projectId, { shortId: made[7]! })
        expect(found.results.map((r) => r.name)).toEqual(['i7'])
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'list hides deleted insights, filters, orders by order then last modified, and pages', async () => {
      let now = NOW
      const e = await openEngine(target, () => now)
      try {
        const ada = await user(e, 'Ada')
        const bob = await user(e, 'Bob')
        const main = await e.sightline.dashboards.create(e.projectId, { name: 'Main' })
        const a = await e.sightline.insights.create(e.projectId, { name: 'Weekly signups', order: 2, favorited: true }, { userId: ada.id })
        now = at(1)
        const b = await e.sightline.insights.create(e.projectId, { name: 'Revenue', order: 1, tags: ['Growth ', 'kpi'] }, { userId: bob.id })
        now = at(2)
        const c = await e.sightline.insights.create(e.projectId, { derivedName: 'Pageviews 100%', saved: false }, { userId: ada.id })
        now = at(3)
        const d = await e.sightline.insights.create(e.projectId, { description: 'About SIGNUPS', saved: false, dashboards: [main.id] })
        now = at(4)
        const gone = await e.sightline.insights.create(e.projectId, { name: 'Deleted signups', favorited: true }, { userId: ada.id })
        await e.sightline.insights.update(e.projectId, gone.id, { deleted: true })

        const all = await e.sightline.insights.list(e.projectId)
        expect(all.count).toBe(4)
        // `order` first (unset last), then the most recently modified.
        expect(ids(all)).toEqual([b.id, a.id, d.id, c.id])
        const page = await e.sightline.insights.list(e.projectId, { limit: 2, offset: 1 })
        expect({ count: page.count, ids: ids(page) }).toEqual({ count: 4, ids: [a.id, d.id] })
        expect(ids(await e.sightline.insights.list(e.projectId, { offset: 10 }))).toEqual([])

        expect(ids(await e.sightline.insights.list(e.projectId, { createdBy: ada.id }))).toEqual([a.id, c.id])
        expect(ids(await e.sightline.insights.list(e.projectId, { createdBy: [ada.id, bob.id] }))).toEqual([b.id, a.id, c.id])
        expect((await e.sightline.insights.list(e.projectId, { createdBy: 2 ** 40 })).count).toBe(0)
        expect(ids(await e.sightline.insights.list(e.projectId, { shortId: c.shortId }))).toEqual([c.id])
        expect(ids(await e.sightline.insights.list(e.projectId, { shortId: gone.shortId }))).toEqual([])
        // saved: saved ones and those on a dashboard; not saved: unsaved only.
        expect(ids(await e.sightline.insights.list(e.projectId, { saved: true }))).toEqual([b.id, a.id, d.id])
        expect(ids(await e.sightline.insights.list(e.projectId, { saved: false }))).toEqual([d.id, c.id])
        expect(ids(await e.sightline.insights.list(e.projectId, { favorited: true }))).toEqual([a.id])
        expect(ids(await e.sightline.insights.list(e.projectId, { favorited: false }))).toEqual([b.id, d.id, c.id])
        expect(ids(await e.sightline.insights.list(e.projectId, { createdBy: ada.id, favorited: false }))).toEqual([c.id])

        // search: name, derived name, description or a tag, ignoring case; LIKE wildcards are literal.
        const search = async (term: string) => ids(await e.sightline.insights.list(e.projectId, { search: term }))
        expect(await search('signups')).toEqual([a.id, d.id])
        expect(await search('SIGNUPS')).toEqual([a.id, d.id])
        expect(await search('100%')).toEqual([c.id])
        expect(await search('0%')).toEqual([c.id])
        expect(await search('%')).toEqual([c.id])
        expect(await search('_')).toEqual([])
        expect(await search('growth')).toEqual([b.id])
        expect(await search('KPI')).toEqual([b.id])
        // JSON punctuation of the tags array matches nothing.
        expect(await search(',')).toEqual([])
        expect(await search('"')).toEqual([])
        expect(await search('["')).toEqual([])
        expect(await search('')).toEqual([b.id, a.id, d.id, c.id])
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'update records field-level changes and moves last_modified only for the name, description, filters or query', async () => {
      let now = NOW
      const e = await openEngine(target, () => now)
      try {
        const ada = await user(e, 'Ada')
        const bob = await user(e, 'Bob')
        const x = await e.sightline.insights.create(e.projectId, { name: 'A', filters: { insight: 'TRENDS' }, tags: ['x'], saved: false }, { userId: ada.id })

        now = at(1)
        const first = await e.sightline.insights.update(e.projectId, x.id, { favorited: true, order: 5 }, { userId: bob.id })
        expect(first).toMatchObject({ favorited: true, order: 5, updatedAt: iso(1), lastModifiedAt: iso(0), lastModifiedBy: { id: ada.id } })
        // PostHog: an update marks the insight saved unless it says otherwise.
        expect(first.saved).toBe(true)

        now = at(2)
        const query = { kind: 'InsightVizNode', source: { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: '$pageview' }] } }
        const second = await e.sightline.insights.update(
          e.projectId,
          x.id,
          { name: 'B', description: 'desc', filters: { insight: 'FUNNELS' }, query, tags: ['y', 'Y '], saved: false },
          { userId: bob.id },
        )
        expect(second).toMatchObject({ name: 'B', description: 'desc', query, tags: ['y'], saved: false, updatedAt: iso(2), lastModifiedAt: iso(2), lastModifiedBy: { id: bob.id } })

        now = at(3)
        // The same values again: nothing material changes and nothing is logged.
        const third = await e.sightline.insights.update(e.projectId, x.id, { name: 'B', filters: { insight: 'FUNNELS' }, query: { source: query.source, kind: 'InsightVizNode' } }, { userId: ada.id })
        expect(third).toMatchObject({ updatedAt: iso(3), lastModifiedAt: iso(2), lastModifiedBy: { id: bob.id }, saved: true })

        now = at(4)
        const fourth = await e.sightline.insights.update(e.projectId, x.id, { query: null, derivedName: 'Pageview count' }, { userId: ada.id })
        expect(fourth).toMatchObject({ query: null, derivedName: 'Pageview count', lastModifiedAt: iso(4), lastModifiedBy: { id: ada.id } })
        expect((await insightRow(e.db, x.id)).query_is_null).toBe(true)

        const log = await e.sightline.insights.activity(e.projectId, x.id)
        expect(log.results.map((r) => [r.activity, r.userId])).toEqual([
          ['updated', ada.id],
          ['updated', bob.id],
          ['updated', bob.id],
          ['created', ada.id],
        ])
        expect(log.results[2]!.detail.changes).toEqual([{ type: 'Insight', action: 'changed', field: 'favorited', before: false, after: true }])
        expect(log.results[1]!.detail).toEqual({
          name: 'B',
          short_id: x.shortId,
          changes: [
            { type: 'Insight', action: 'changed', field: 'name', before: 'A', after: 'B' },
            { type: 'Insight', action: 'created', field: 'description', before: null, after: 'desc' },
            { type: 'Insight', action: 'changed', field: 'filters', before: { insight: 'TRENDS' }, after: { insight: 'FUNNELS' } },
            { type: 'Insight', action: 'created', field: 'query', before: null, after: query },
            { type: 'Insight', action: 'changed', field: 'tags', before: ['x'], after: ['y'] },
          ],
        })
        expect(log.results[0]!.detail.changes).toEqual([
          { type: 'Insight', action: 'created', field: 'derivedName', before: null, after: 'Pageview count' },
          { type: 'Insight', action: 'deleted', field: 'query', before: query, after: null },
        ])
        expect(await count(e.db, 'activity_log', "scope in ('Insight', 'Dashboard')")).toBe(4)
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'deleted true soft-deletes (tiles removed, activity "deleted"); deleted false restores ("restored")', async () => {
      const e = await openEngine(target)
      try {
        const ada = await user(e, 'Ada')
        const main = await e.sightline.dashboards.create(e.projectId, { name: 'Main' })
        const x = await e.sightline.insights.create(e.projectId, { name: 'Funnel', dashboards: [main.id] }, { userId: ada.id })
        expect(x.dashboards).toEqual([main.id])

        const deleted = await e.sightline.insights.update(e.projectId, x.id, { deleted: true }, { userId: ada.id })
        expect(deleted).toMatchObject({ deleted: true, dashboards: [], dashboardTiles: [] })
        expect((await insightRow(e.db, x.id)).deleted).toBe(true)
        expect((await tilesOf(e.db, x.id)).map((t) => t.deleted)).toEqual([true])
        expect(await count(e.db, 'insights')).toBe(1)
        await expect(e.sightline.insights.get(e.projectId, x.id)).rejects.toBeInstanceOf(NotFoundError)
        expect((await e.sightline.insights.list(e.projectId)).count).toBe(0)
        expect((await e.sightline.dashboards.get(e.projectId, main.id)).tiles).toEqual([])
        // Only a PATCH that restores reaches a soft-deleted insight.
        const before = await written(e.db)
        await expect(e.sightline.insights.update(e.projectId, x.id, { name: 'Renamed' })).rejects.toBeInstanceOf(NotFoundError)
        await expect(e.sightline.insights.update(e.projectId, x.id, { deleted: true })).rejects.toBeInstanceOf(NotFoundError)
        await expect(e.sightline.insights.viewed(e.projectId, x.id, { userId: ada.id })).rejects.toBeInstanceOf(NotFoundError)
        expect(await written(e.db)).toEqual(before)
        expect((await insightRow(e.db, x.id)).name).toBe('Funnel')

        const restored = await e.sightline.insights.update(e.projectId, x.id, { deleted: false, name: 'Funnel 2' }, { userId: ada.id })
        // As PostHog, restoring does not bring the tiles back.
        expect(restored).toMatchObject({ deleted: false, name: 'Funnel 2', dashboards: [] })
        expect((await e.sightline.insights.get(e.projectId, x.id)).name).toBe('Funnel 2')
        // Restoring a live insight is a no-op.
        await e.sightline.insights.update(e.projectId, x.id, { deleted: false })

        // A soft-deleted insight's activity stays readable.
        const log = await e.sightline.insights.activity(e.projectId, x.id)
        expect(log.results.map((r) => r.activity)).toEqual(['restored', 'deleted', 'created'])
        expect(log.results[1]!.detail).toEqual({
          name: 'Funnel',
          short_id: x.shortId,
          changes: [{ type: 'Insight', action: 'changed', field: 'deleted', before: false, after: true }],
        })
        expect(log.results[0]!.detail.changes).toEqual([
          { type: 'Insight', action: 'changed', field: 'name', before: 'Funnel', after: 'Funnel 2' },
          { type: 'Insight', action: 'changed', field: 'deleted', before: true, after: false },
        ])
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'the deprecated dashboards field writes tiles and dashboardTiles reads them', async () => {
      const e = await openEngine(target)
      try {
        const other = await e.sightline.projects.create({ organizationId: e.organizationId, name: 'Other' })
        const [d1, d2, d3] = [
          await e.sightline.dashboards.create(e.projectId, { name: 'One' }),
          await e.sightline.dashboards.create(e.projectId, { name: 'Two' }),
          await e.sightline.dashboards.create(e.projectId, { name: 'Three' }),
        ]
        const foreign = await e.sightline.dashboards.create(other.id, { name: 'Foreign' })

        const x = await e.sightline.insights.create(e.projectId, { name: 'X', dashboards: [d1!.id, d2!.id, d1!.id] })
        expect(x.dashboards).toEqual([d1!.id, d2!.id])
        const tiles = await tilesOf(e.db, x.id)
        expect(tiles.map((t) => [t.dashboard_id, t.deleted])).toEqual([
          [d1!.id, false],
          [d2!.id, false],
        ])
        expect(x.dashboardTiles).toEqual(tiles.map((t) => ({ id: t.id, dashboardId: t.dashboard_id, deleted: false })))

        const moved = await e.sightline.insights.update(e.projectId, x.id, { dashboards: [d3!.id, d2!.id] })
        expect(moved.dashboards).toEqual([d2!.id, d3!.id])
        expect((await tilesOf(e.db, x.id)).map((t) => [t.dashboard_id, t.deleted])).toEqual([
          [d1!.id, true],
          [d2!.id, false],
          [d3!.id, false],
        ])
        // Back on One: its removed tile is restored, not duplicated.
        const back = await e.sightline.insights.update(e.projectId, x.id, { dashboards: [d1!.id, d2!.id, d3!.id] })
        expect(back.dashboardTiles.map((t) => t.id)).toEqual((await tilesOf(e.db, x.id)).map((t) => t.id))
        expect(await count(e.db, 'dashboard_tiles')).toBe(3)
        // The same set in another order changes nothing and logs nothing.
        const logged = await count(e.db, 'activity_log', "scope in ('Insight', 'Dashboard')")
        await e.sightline.insights.update(e.projectId, x.id, { dashboards: [d3!.id, d1!.id, d2!.id] })
        expect(await count(e.db, 'activity_log', "scope in ('Insight', 'Dashboard')")).toBe(logged)

        const changes = (await e.sightline.insights.activity(e.projectId, x.id)).results.map((r) => r.detail.changes)
        expect(changes[1]).toEqual([
          {
            type: 'Insight',
            action: 'changed',
            field: 'dashboards',
            before: [
              { id: d1!.id, name: 'One' },
              { id: d2!.id, name: 'Two' },
            ],
            after: [
              { id: d3!.id, name: 'Three' },
              { id: d2!.id, name: 'Two' },
            ],
          },
        ])

        // Dashboards of another project, or none at all, are refused naming `dashboards`; nothing is written.
        const before = await written(e.db)
        for (const bad of [[foreign.id], [d1!.id, 999_999], [2 ** 40]]) {
          const error = await failure(e.sightline.insights.update(e.projectId, x.id, { dashboards: bad, name: 'changed' }))
          expect(error).toBeInstanceOf(ValidationError)
          expect(error.attr).toBe('dashboards')
          const created = await failure(e.sightline.insights.create(e.projectId, { name: 'new', dashboards: bad }))
          expect(created.attr).toBe('dashboards')
        }
        expect(await written(e.db)).toEqual(before)
        expect((await insightRow(e.db, x.id)).name).toBe('X')

        // A deleted dashboard hides its tiles, and is ignored when given.
        await e.sightline.dashboards.delete(e.projectId, d3!.id)
        expect((await e.sightline.insights.get(e.projectId, x.id)).dashboards).toEqual([d1!.id, d2!.id])
        const none = await e.sightline.insights.update(e.projectId, x.id, { dashboards: [d3!.id] })
        expect(none).toMatchObject({ dashboards: [], dashboardTiles: [] })
        expect(await count(e.db, 'dashboard_tiles', 'not deleted')).toBe(0)
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'viewed records one view per user and insight; my last viewed is the last 5 distinct', async () => {
      let now = NOW
      const e = await openEngine(target, () => now)
      try {
        const ada = await user(e, 'Ada')
        const bob = await user(e, 'Bob')
        const made: number[] = []
        for (let i = 1; i <= 7; i++) made.push((await e.sightline.insights.create(e.projectId, { name: `I${i}` })).id)
        const logged = await count(e.db, 'activity_log', "scope in ('Insight', 'Dashboard')")
        for (let i = 0; i < 7; i++) {
          now = at(i + 1)
          await e.sightline.insights.viewed(e.projectId, made[i]!, { userId: ada.id })
        }
        now = at(8)
        await e.sightline.insights.viewed(e.projectId, made[1]!, { userId: ada.id })
        now = at(9)
        await e.sightline.insights.viewed(e.projectId, made[0]!, { userId: bob.id })
        expect(await count(e.db, 'activity_log', "scope in ('Insight', 'Dashboard')")).toBe(logged)
        expect(await count(e.db, 'insight_views', 'user_id = $1', [ada.id])).toBe(7)
        const [refreshed] = await e.db.raw<{ us: number }>(`select ${e.db.epochMicros('last_viewed_at')} as us from insight_views where user_id = $1 and insight_id = $2`, [ada.id, made[1]])
        expect(Number(refreshed!.us)).toBe(at(8).getTime() * 1000)

        const names = async (userId: number) => (await e.sightline.insights.myLastViewed(e.projectId, userId)).map((i) => i.name)
        expect(await names(ada.id)).toEqual(['I2', 'I7', 'I6', 'I5', 'I4'])
        expect(await names(bob.id)).toEqual(['I1'])
        expect(await names(999_999)).toEqual([])

        await e.sightline.insights.update(e.projectId, made[6]!, { deleted: true })
        expect(await names(ada.id)).toEqual(['I2', 'I6', 'I5', 'I4', 'I3'])

        now = at(10)
        await e.sightline.insights.create(e.projectId, { name: 'I8' }, { userId: bob.id })
        expect(await names(bob.id)).toEqual(['I8', 'I1'])

        const views = await count(e.db, 'insight_views')
        expect(await failure(e.sightline.insights.viewed(e.projectId, made[0]!, undefined as never))).toBeInstanceOf(ValidationError)
        expect(await failure(e.sightline.insights.viewed(e.projectId, 999_999, { userId: ada.id }))).toBeInstanceOf(NotFoundError)
        expect(await failure(e.sightline.insights.myLastViewed(e.projectId, 1.5))).toBeInstanceOf(ValidationError)
        expect(await count(e.db, 'insight_views')).toBe(views)
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'activity lists one insight or the project, newest first, ten to a page', async () => {
      let now = NOW
      const e = await openEngine(target, () => now)
      try {
        const a = await e.sightline.insights.create(e.projectId, { name: 'A' })
        const b = await e.sightline.insights.create(e.projectId, { name: 'B' })
        for (let i = 1; i <= 11; i++) {
          now = at(i)
          await e.sightline.insights.update(e.projectId, a.id, { order: i, description: `v${i}` })
        }
        await e.sightline.dashboards.create(e.projectId, { name: 'Not an insight' })
        const mine = await e.sightline.insights.activity(e.projectId, a.id)
        expect(mine.count).toBe(12)
        expect(mine.results).toHaveLength(10)
        expect(mine.results[0]!.detail.changes).toEqual([{ type: 'Insight', action: 'changed', field: 'description', before: 'v10', after: 'v11' }])
        expect((await e.sightline.insights.activity(e.projectId, a.id, { limit: 2, offset: 11 })).results.map((r) => r.activity)).toEqual(['created'])
        const all = await e.sightline.insights.activity(e.projectId, undefined, { limit: 100 })
        expect(all.count).toBe(13)
        expect(all.results.every((r) => r.scope === 'Insight')).toBe(true)
        expect(all.results.at(-1)).toMatchObject({ itemId: String(a.id), activity: 'created' })
        expect(all.results.at(-2)).toMatchObject({ itemId: String(b.id), activity: 'created' })
        await expect(e.sightline.insights.activity(e.projectId, 999_999)).rejects.toBeInstanceOf(NotFoundError)
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, "another project's insight is not found, like a missing one, and bad ids too", async () => {
      const e = await openEngine(target)
      try {
        const other = await e.sightline.projects.create({ organizationId: e.organizationId, name: 'Other' })
        const ada = await user(e, 'Ada')
        const x = await e.sightline.insights.create(e.projectId, { name: 'Mine' }, { userId: ada.id })
        const before = await written(e.db)
        const calls: Array<[string, (s: Sightline, projectId: number, id: number) => Promise<unknown>]> = [
          ['get', (s, p, id) => s.insights.get(p, id)],
          ['update', (s, p, id) => s.insights.update(p, id, { name: 'stolen' })],
          ['restore', (s, p, id) => s.insights.update(p, id, { deleted: false })],
          ['viewed', (s, p, id) => s.insights.viewed(p, id, { userId: ada.id })],
          ['activity', (s, p, id) => s.insights.activity(p, id)],
        ]
        for (const [name, call] of calls) {
          const foreign = await failure(call(e.sightline, other.id, x.id))
          const missing = await failure(call(e.sightline, e.projectId, x.id + 1000))
          expect([name, foreign]).toEqual([name, expect.any(NotFoundError)])
          expect([name, foreign.resource, missing.resource]).toEqual([name, 'insight', 'insight'])
          expect(foreign.message.replace(String(x.id), '#')).toBe(missing.message.replace(String(x.id + 1000), '#'))
          for (const bad of [1.5, Number.NaN, -1, 0, 2 ** 40, Number.MAX_SAFE_INTEGER + 2]) {
            expect([name, bad, await failure(call(e.sightline, e.projectId, bad))]).toEqual([name, bad, expect.any(NotFoundError)])
          }
        }
        for (const project of [999_999, 1.5, 2 ** 40]) {
          expect(await failure(e.sightline.insights.list(project))).toBeInstanceOf(NotFoundError)
          expect(await failure(e.sightline.insights.create(project, { name: 'x' }))).toBeInstanceOf(NotFoundError)
          expect(await failure(e.sightline.insights.myLastViewed(project, ada.id))).toBeInstanceOf(NotFoundError)
          expect(await failure(e.sightline.insights.activity(project))).toBeInstanceOf(NotFoundError)
        }
        expect(await written(e.db)).toEqual(before)
        expect((await e.sightline.insights.list(other.id)).count).toBe(0)
        expect((await e.sightline.insights.activity(other.id)).count).toBe(0)
        expect(await e.sightline.insights.myLastViewed(other.id, ada.id)).toEqual([])
        expect((await e.sightline.insights.get(e.projectId, x.id)).name).toBe('Mine')
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'invalid input is refused naming the field, and nothing is written', async () => {
      const e = await openEngine(target)
      try {
        const x = await e.sightline.insights.create(e.projectId, { name: 'Kept', order: 1 })
        const before = await written(e.db)
        const cases: Array<[Record<string, unknown>, string]> = [
          [{ order: 2 ** 31 }, 'order'],
          [{ order: 1.5 }, 'order'],
          [{ filters: [] }, 'filters'],
          [{ filters: { when: new Date() } }, 'filters'],
          [{ filters: { n: Number.NaN } }, 'filters'],
          [{ query: 'select 1' }, 'query'],
          [{ name: 'x'.repeat(401) }, 'name'],
          [{ derivedName: 5 }, 'derivedName'],
          [{ description: 'x'.repeat(401) }, 'description'],
          [{ tags: ['ok', '  '] }, 'tags__1'],
          [{ tags: 'growth' }, 'tags'],
          [{ favorited: 'yes' }, 'favorited'],
          [{ saved: 1 }, 'saved'],
          [{ deleted: 'true' }, 'deleted'],
          [{ dashboards: ['1'] }, 'dashboards__0'],
        ]
        for (const [input, attr] of cases) {
          const created = await failure(e.sightline.insights.create(e.projectId, input as never))
          expect([input, created.constructor.name, created.attr]).toEqual([input, 'ValidationError', attr])
          const updated = await failure(e.sightline.insights.update(e.projectId, x.id, input as never))
          expect([input, updated.attr]).toEqual([input, attr])
        }
        for (const [options, attr] of [
          [{ limit: 0 }, 'limit'],
          [{ offset: -1 }, 'offset'],
          [{ createdBy: 'ada' }, 'createdBy'],
          [{ saved: 'true' }, 'saved'],
        ] as const) {
          expect((await failure(e.sightline.insights.list(e.projectId, options as never))).attr).toBe(attr)
        }
        expect((await failure(e.sightline.insights.update(e.projectId, x.id, { name: 'y' }, { userId: -1 }))).attr).toBe('actor__userId')
        expect((await failure(e.sightline.insights.activity(e.projectId, x.id, { limit: 5000 }))).attr).toBe('limit')
        expect(await written(e.db)).toEqual(before)
        expect(await e.sightline.insights.get(e.projectId, x.id)).toMatchObject({ name: 'Kept', order: 1 })
      } finally {
        await e.close()
      }
    })
  })
}
