import { describe, expect } from 'vitest'
import { conformanceCase } from './case.js'
import { cachedRows, dataOf, SIGNUPS_BY_DAY, signupsEngine, TREND } from './insights.results.support.js'
import type { ConformanceTarget } from './target.js'

const LAYOUTS = { sm: { x: 0, y: 2, w: 6, h: 5 } }

export function insightDashboardResultCases(target: ConformanceTarget): void {
  describe('insight results: refresh modes, dashboards, query nodes', () => {
    conformanceCase(target, 'refresh modes: staleness, next_allowed_client_refresh, forced and cache-only reads', async () => {
      const e = await signupsEngine(target)
      try {
        const insight = await e.sightline.insights.create(e.projectId, { filters: TREND })
        const get = (refresh?: boolean | string) => e.sightline.insights.get(e.projectId, insight.id, { refresh: refresh as never })
        // Nothing cached: force_cache computes nothing and writes nothing.
        expect(await get('force_cache')).toMatchObject({ result: null, isCached: false, lastRefresh: null })
        expect(e.trend).not.toHaveBeenCalled()
        expect(await e.db.raw('select cache_key from insight_cache')).toEqual([])

        expect((await get()).isCached).toBe(false) // computed at 12:00Z, next refresh allowed at 12:15Z, stale (6 h, day interval) after 18:00Z
        e.time.set('2026-03-01T12:14:59.999Z')
        for (const mode of [undefined, false, true, 'blocking', 'async', 'lazy_async', 'async_except_on_cache_miss', 'force_cache']) {
          expect((await get(mode)).isCached, String(mode)).toBe(true)
        }
        for (const mode of ['force_blocking', 'force_async']) {
          expect(await get(mode), mode).toMatchObject({ isCached: false, lastRefresh: '2026-03-01T12:14:59.999000Z', nextAllowedClientRefresh: '2026-03-01T12:29:59.999000Z' })
        }
        // refresh=true recomputes from next_allowed_client_refresh on.
        e.time.set('2026-03-01T12:29:59.998Z')
        expect((await get(true)).isCached).toBe(true)
        e.time.set('2026-03-01T12:29:59.999Z')
        expect(await get(true)).toMatchObject({ isCached: false, lastRefresh: '2026-03-01T12:29:59.999000Z' })

        // Stale by age 6 hours after (default), 12 hours after (lazy); force_cache still answers a stale result.
        e.time.set('2026-03-01T18:29:59.999Z')
        for (const mode of [undefined, 'blocking', 'async', 'lazy_async', 'force_cache']) expect((await get(mode)).isCached, String(mode)).toBe(true)
        e.time.set('2026-03-01T18:30:00.000Z')
        for (const mode of ['lazy_async', 'force_cache']) expect((await get(mode)).isCached, mode).toBe(true)
        e.trend.mockClear()
        expect((await get('async')).isCached).toBe(false)
        expect(e.trend).toHaveBeenCalledTimes(1)
        expect(dataOf((await get()).result)).toEqual(SIGNUPS_BY_DAY)
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'from_dashboard: the overrides change the result and the key; the tile adds layouts and colour', async () => {
      const e = await signupsEngine(target)
      try {
        const insight = await e.sightline.insights.create(e.projectId, { filters: TREND })
        const recent = await e.sightline.dashboards.create(e.projectId, { name: 'Recent', filters: { date_from: '-3d' } })
        const pro = await e.sightline.dashboards.create(e.projectId, { name: 'Pro', filters: { properties: [{ key: 'plan', value: 'pro', type: 'event' }] } })
        const elsewhere = await e.sightline.dashboards.create(e.projectId, { name: 'Elsewhere', filters: { date_from: '-3d' } })
        await e.sightline.dashboards.addTile(e.projectId, recent.id, { insightId: insight.id, layouts: LAYOUTS, color: 'blue' })
        await e.sightline.dashboards.addTile(e.projectId, pro.id, { insightId: insight.id })
        const get = (fromDashboard?: number) => e.sightline.insights.get(e.projectId, insight.id, { fromDashboard })

        const plain = await get()
        expect(dataOf(plain.result)).toEqual(SIGNUPS_BY_DAY)
        expect('layouts' in plain || 'color' in plain).toBe(false)
        // -3d: the local days Feb 26 .. Mar 1; only Mar 1's signup.
        const onRecent = await get(recent.id)
        expect(onRecent).toMatchObject({ isCached: false, layouts: LAYOUTS, color: 'blue', filters: { ...TREND, date_from: '-3d' } })
        expect(dataOf(onRecent.result)).toEqual([0, 0, 0, 1])
        expect(onRecent.result).toEqual((await e.sightline.query.trend(e.projectId, onRecent.filters)).result)
        // The pro plan only: Ada's signup on Feb 25.
        const onPro = await get(pro.id)
        expect(onPro).toMatchObject({ isCached: false, layouts: {}, color: null })
        expect(dataOf(onPro.result)).toEqual([0, 0, 0, 1, 0, 0, 0, 0])
        expect(await cachedRows(e)).toHaveLength(3)
        expect((await get(recent.id)).isCached).toBe(true)
        expect((await get()).isCached).toBe(true)

        // Not on that dashboard (or no such dashboard, or a removed tile): as PostHog, the dashboard is ignored.
        const [proTile] = (await e.sightline.dashboards.get(e.projectId, pro.id)).tiles
        await e.sightline.dashboards.removeTile(e.projectId, pro.id, proTile!.id)
        for (const id of [elsewhere.id, 999_999, pro.id]) {
          const got = await get(id)
          expect(got, String(id)).toMatchObject({ isCached: true, filters: TREND })
          expect(dataOf(got.result)).toEqual(SIGNUPS_BY_DAY)
          expect('layouts' in got || 'color' in got).toBe(false)
        }
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'a query node computes as the legacy filters it stands for, dashboard overrides included', async () => {
      const e = await signupsEngine(target)
      try {
        const query = {
          kind: 'InsightVizNode',
          source: { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: 'signed_up', name: 'signed_up' }], dateRange: { date_from: '-7d' }, interval: 'day' },
        }
        const insight = await e.sightline.insights.create(e.projectId, { query, filters: { insight: 'TRENDS', events: [{ id: 'other' }] } })
        const got = await e.sightline.insights.get(e.projectId, insight.id)
        expect(dataOf(got.result)).toEqual(SIGNUPS_BY_DAY)
        const legacy = { insight: 'TRENDS', events: [{ id: 'signed_up', type: 'events', order: 0, name: 'signed_up' }], interval: 'day', date_from: '-7d' } as const
        expect(got.result).toEqual((await e.sightline.query.trend(e.projectId, legacy)).result)

        const recent = await e.sightline.dashboards.create(e.projectId, { name: 'Recent', filters: { date_from: '-3d' } })
        await e.sightline.dashboards.addTile(e.projectId, recent.id, { insightId: insight.id })
        const onRecent = await e.sightline.insights.get(e.projectId, insight.id, { fromDashboard: recent.id })
        expect(dataOf(onRecent.result)).toEqual([0, 0, 0, 1])
        // A query-based insight keeps its stored query and filters in the answer.
        expect(onRecent).toMatchObject({ query, filters: { insight: 'TRENDS', events: [{ id: 'other' }] } })

        // Ada paid an hour after signing up: inside a 90-minute window, outside a 30-minute one.
        for (const [minutes, counts] of [[90, [3, 1]], [30, [3, 0]]] as const) {
          const funnel = await e.sightline.insights.create(e.projectId, {
            query: {
              kind: 'FunnelsQuery',
              series: [{ kind: 'EventsNode', event: 'signed_up' }, { kind: 'EventsNode', event: 'paid' }],
              dateRange: { date_from: '-7d' },
              funnelsFilter: { funnelWindowInterval: minutes, funnelWindowIntervalUnit: 'minute' },
            },
          })
          const f = await e.sightline.insights.get(e.projectId, funnel.id)
          expect((f.result as Array<{ count: number }>).map((s) => s.count), String(minutes)).toEqual(counts)
        }
      } finally {
        await e.close()
      }
    })
  })
}
