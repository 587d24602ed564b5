import { describe, expect } from 'vitest'
import { createSightline, ValidationError } from '@sightline/core'
import { conformanceCase } from './case.js'
import { failure } from './insights.support.js'
import { cachedRows, dataOf, FUNNEL, NEXT_MIDNIGHT, RANGE_FROM, RANGE_TO, SIGNUPS_BY_DAY, signupsEngine, TREND } from './insights.results.support.js'
import type { ConformanceTarget } from './target.js'

export function insightResultCases(target: ConformanceTarget): void {
  describe('insight results and cache', () => {
    conformanceCase(target, 'get computes the result once, then answers it from the cache; it equals the analysis', async () => {
      const e = await signupsEngine(target)
      try {
        const insight = await e.sightline.insights.create(e.projectId, { name: 'Signups', filters: TREND })
        expect(insight).toMatchObject({ result: null, isCached: false, lastRefresh: null })
        const first = await e.sightline.insights.get(e.projectId, insight.id)
        expect(dataOf(first.result)).toEqual(SIGNUPS_BY_DAY)
        // Computed at 12:00Z; the range spans 8 days (more than 7): PostHog's 15-minute refresh interval.
        expect(first).toMatchObject({ isCached: false, lastRefresh: '2026-03-01T12:00:00.000000Z', nextAllowedClientRefresh: '2026-03-01T12:15:00.000000Z', timezone: 'Europe/Berlin' })
        // The analysis of the insight's filters as stored (Postgres' jsonb reorders keys, which the persons URLs follow).
        expect(first.result).toEqual((await e.sightline.query.trend(e.projectId, first.filters)).result)
        e.trend.mockClear()

        const second = await e.sightline.insights.get(e.projectId, insight.id)
        expect(second).toEqual({ ...first, isCached: true })
        expect(e.trend).not.toHaveBeenCalled()
        expect(await cachedRows(e)).toHaveLength(1)
        // Lists never compute.
        expect((await e.sightline.insights.list(e.projectId)).results[0]).toMatchObject({ result: null, isCached: false })

        const funnel = await e.sightline.insights.create(e.projectId, { filters: FUNNEL })
        const f = await e.sightline.insights.get(e.projectId, funnel.id)
        expect((f.result as Array<{ count: number }>).map((s) => s.count)).toEqual([3, 1])
        expect(f.result).toEqual((await e.sightline.query.funnel(e.projectId, f.filters)).result)
        expect((await e.sightline.insights.get(e.projectId, funnel.id)).isCached).toBe(true)
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'stickiness and lifecycle compute too; insights without series, HogQL nodes and funnel paths do not', async () => {
      const e = await signupsEngine(target)
      try {
        for (const filters of [
          { ...TREND, insight: 'STICKINESS' },
          { ...TREND, insight: 'LIFECYCLE' },
        ]) {
          const insight = await e.sightline.insights.create(e.projectId, { filters })
          const got = await e.sightline.insights.get(e.projectId, insight.id)
          expect(got.result, filters.insight).toEqual((await e.sightline.query.trend(e.projectId, got.filters)).result)
          expect(got.isCached).toBe(false)
        }
        e.trend.mockClear()
        for (const definition of [
          { filters: {} },
          { filters: { insight: 'TRENDS', date_from: '-7d' } },
          { query: { kind: 'InsightVizNode', source: { kind: 'PathsQuery', funnelPathsFilter: { funnelStep: 2, funnelPathType: 'funnel_path_before_step' } } } },
          { query: { kind: 'HogQLQuery', query: 'select 1' } },
        ]) {
          const insight = await e.sightline.insights.create(e.projectId, definition)
          expect(await e.sightline.insights.get(e.projectId, insight.id, { refresh: 'force_blocking' }), JSON.stringify(definition)).toMatchObject({
            result: null,
            isCached: false,
            lastRefresh: null,
            nextAllowedClientRefresh: null,
          })
        }
        expect(e.trend).not.toHaveBeenCalled()
        expect(await cachedRows(e)).toHaveLength(2)
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'retention and paths compute from filters and from query nodes, through the cache; a late event in the cohort window invalidates', async () => {
      const e = await signupsEngine(target)
      try {
        const retention = { insight: 'RETENTION', target_entity: { id: 'signed_up', type: 'events' }, returning_entity: { id: 'paid', type: 'events' }, period: 'Day', total_intervals: 7 }
        const fromFilters = await e.sightline.insights.create(e.projectId, { filters: retention })
        const got = await e.sightline.insights.get(e.projectId, fromFilters.id)
        expect(got.isCached).toBe(false)
        // As stored: Postgres's jsonb orders keys its own way, and the people URLs echo the filters in their order.
        expect(got.result).toEqual((await e.sightline.query.retention(e.projectId, got.filters)).result)
        // Seven local days ending with today's (Mar 1, UTC+1): Ada and Bob on Feb 25 (row 2), Cy on Mar 1 (row 6); Ada paid the same day.
        const sizes = (result: unknown) => (result as Array<{ values: Array<{ count: number }> }>).map((r) => r.values[0]!.count)
        expect(sizes(got.result)).toEqual([0, 0, 2, 0, 0, 0, 1])
        const [range] = await e.db.raw<{ f: number; t: number }>(`select ${e.db.epochMicros('range_from')} as f, ${e.db.epochMicros('range_to')} as t from insight_cache`)
        expect([Number(range!.f), Number(range!.t)]).toEqual([Date.parse('2026-02-22T23:00:00Z') * 1000, Date.parse('2026-03-01T23:00:00Z') * 1000 - 1])

        // The same analysis as a RetentionQuery node: the same legacy filters, so the same cache entry.
        const node = {
          kind: 'InsightVizNode',
          source: { kind: 'RetentionQuery', retentionFilter: { targetEntity: retention.target_entity, returningEntity: retention.returning_entity, period: 'Day', totalIntervals: 7 } },
        }
        const fromNode = await e.sightline.insights.create(e.projectId, { query: node })
        const viaNode = await e.sightline.insights.get(e.projectId, fromNode.id)
        expect(viaNode.isCached).toBe(true)
        expect(viaNode.result).toEqual(got.result)

        // Recurring retention reads only its window: an earlier signup keeps the entry; one inside drops it.
        await e.sightline.capture(e.projectId, [{ event: 'signed_up', distinctId: 'dan', timestamp: '2026-02-22T22:59:59Z' }])
        expect((await e.sightline.insights.get(e.projectId, fromFilters.id)).isCached).toBe(true)
        await e.sightline.capture(e.projectId, [{ event: 'signed_up', distinctId: 'dan', timestamp: '2026-02-24T12:00:00Z' }])
        const after = await e.sightline.insights.get(e.projectId, fromFilters.id)
        expect(after.isCached).toBe(false)
        expect(sizes(after.result)).toEqual([0, 1, 2, 0, 0, 0, 1])
        // First-time retention reads every earlier event (an earlier start moves the actor out): any signup invalidates.
        const first = await e.sightline.insights.create(e.projectId, { filters: { ...retention, retention_type: 'retention_first_time' } })
        expect(sizes((await e.sightline.insights.get(e.projectId, first.id)).result)).toEqual([0, 0, 2, 0, 0, 0, 1])
        await e.sightline.capture(e.projectId, [{ event: 'signed_up', distinctId: 'ada', timestamp: '2026-01-10T12:00:00Z' }])
        const moved = await e.sightline.insights.get(e.projectId, first.id)
        expect(moved.isCached).toBe(false)
        // Ada's first signup is now in January: she leaves the Feb 25 cohort.
        expect(sizes(moved.result)).toEqual([0, 0, 1, 0, 0, 0, 1])

        const paths = { insight: 'PATHS', include_event_types: ['custom_event'], date_from: '-7d' }
        const pathInsight = await e.sightline.insights.create(e.projectId, { filters: paths })
        const pathResult = await e.sightline.insights.get(e.projectId, pathInsight.id)
        expect(pathResult.result).toEqual((await e.sightline.query.paths(e.projectId, pathResult.filters)).result)
        const pathNode = await e.sightline.insights.create(e.projectId, {
          query: { kind: 'PathsQuery', dateRange: { date_from: '-7d' }, pathsFilter: { includeEventTypes: ['custom_event'] } },
        })
        expect((await e.sightline.insights.get(e.projectId, pathNode.id)).isCached).toBe(true)
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'a late event inside the resolved range invalidates; one outside it does not', async () => {
      const e = await signupsEngine(target)
      try {
        const insight = await e.sightline.insights.create(e.projectId, { filters: TREND })
        const get = () => e.sightline.insights.get(e.projectId, insight.id)
        await get()
        const [range] = await e.db.raw<{ f: number; t: number }>(`select ${e.db.epochMicros('range_from')} as f, ${e.db.epochMicros('range_to')} as t from insight_cache`)
        expect([Number(range!.f), Number(range!.t)]).toEqual([Date.parse(RANGE_FROM) * 1000, Date.parse(RANGE_TO) * 1000 + 999])

        // Outside: a microsecond before the range, the first instant after it, the next local day (17 hours ahead: kept as sent), last year.
        for (const timestamp of ['2026-02-21T22:59:59.999999Z', '2026-03-01T23:00:00Z', '2026-03-02T05:00:00Z', '2025-03-01T12:00:00Z']) {
          await e.sightline.capture(e.projectId, [{ event: 'signed_up', distinctId: 'dan', timestamp }])
          expect((await get()).isCached, timestamp).toBe(true)
        }
        // Inside, one batch each: the range's first microsecond (bucket 0), its last (bucket 7), Feb 26 (bucket 4).
        const inside: Array<[string, number[]]> = [
          [RANGE_FROM, [1, 0, 0, 2, 0, 0, 0, 1]],
          [RANGE_TO, [1, 0, 0, 2, 0, 0, 0, 2]],
          ['2026-02-26T08:00:00Z', [1, 0, 0, 2, 1, 0, 0, 2]],
        ]
        for (const [timestamp, data] of inside) {
          await e.sightline.capture(e.projectId, [{ event: 'signed_up', distinctId: 'eve', timestamp }])
          expect(await cachedRows(e), timestamp).toHaveLength(0)
          const after = await get()
          expect(after.isCached).toBe(false)
          expect(dataOf(after.result)).toEqual(data)
        }
        // Any event in the range counts, whatever its name: the range is what is compared.
        await e.sightline.capture(e.projectId, [{ event: 'other', distinctId: 'eve', timestamp: '2026-02-27T08:00:00Z' }])
        expect((await get()).isCached).toBe(false)
        expect((await get()).isCached).toBe(true)
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'an event captured while the result is computed keeps that result out of the cache', async () => {
      const e = await signupsEngine(target)
      try {
        const insight = await e.sightline.insights.create(e.projectId, { filters: TREND })
        // The analysis reads the events, then a late signup on Feb 26 is captured before the result is stored.
        e.trend.mockImplementationOnce(async (projectId, params) => {
          const response = await e.realTrend(projectId, params)
          await e.sightline.capture(e.projectId, [{ event: 'signed_up', distinctId: 'eve', timestamp: '2026-02-26T08:00:00Z' }])
          return response
        })
        const raced = await e.sightline.insights.get(e.projectId, insight.id)
        expect(dataOf(raced.result)).toEqual(SIGNUPS_BY_DAY)
        expect(await cachedRows(e)).toHaveLength(0)
        const next = await e.sightline.insights.get(e.projectId, insight.id)
        expect(next.isCached).toBe(false)
        expect(dataOf(next.result)).toEqual([0, 0, 0, 2, 1, 0, 0, 1])
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'two engines on one database share the cache; a stale computation never overwrites a fresher one', async () => {
      const e = await signupsEngine(target)
      const other = await createSightline({ storage: e.db.storage(), clock: e.time.clock })
      try {
        const insight = await e.sightline.insights.create(e.projectId, { filters: TREND })
        // While this engine computes, the other captures a late signup and computes (and stores) the fresher result.
        e.trend.mockImplementationOnce(async (projectId, params) => {
          const response = await e.realTrend(projectId, params)
          await other.capture(e.projectId, [{ event: 'signed_up', distinctId: 'eve', timestamp: '2026-02-26T08:00:00Z' }])
          expect((await other.insights.get(e.projectId, insight.id)).isCached).toBe(false)
          return response
        })
        expect(dataOf((await e.sightline.insights.get(e.projectId, insight.id)).result)).toEqual(SIGNUPS_BY_DAY)
        for (const engine of [e.sightline, other]) {
          const cached = await engine.insights.get(e.projectId, insight.id, { refresh: 'force_cache' })
          expect(cached.isCached).toBe(true)
          expect(dataOf(cached.result)).toEqual([0, 0, 0, 2, 1, 0, 0, 1])
        }
      } finally {
        await other.close()
        await e.close()
      }
    })

    conformanceCase(target, 'a merge or a person change outside the range drops the results that read persons, and only those', async () => {
      const e = await signupsEngine(target)
      try {
        const trend = await e.sightline.insights.create(e.projectId, { filters: TREND })
        const funnel = await e.sightline.insights.create(e.projectId, { filters: FUNNEL })
        const users = await e.sightline.insights.create(e.projectId, { filters: { ...TREND, events: [{ id: 'signed_up', math: 'dau' }] } })
        const gold = await e.sightline.insights.create(e.projectId, { filters: { ...TREND, properties: [{ key: 'tier', value: 'gold', type: 'person' }] } })
        for (const i of [trend, funnel, users, gold]) await e.sightline.insights.get(e.projectId, i.id)
        const cachedNow = async () => Promise.all([trend, funnel, users, gold].map(async (i) => (await e.sightline.insights.get(e.projectId, i.id, { refresh: 'force_cache' })).isCached))

        // Last year, Cy becomes gold: only the result filtering on person properties goes.
        await e.sightline.capture(e.projectId, [{ event: '$set', distinctId: 'cy', timestamp: '2025-06-01T10:00:00Z', properties: { $set: { tier: 'gold' } } }])
        expect(await cachedNow()).toEqual([true, true, true, false])
        expect(dataOf((await e.sightline.insights.get(e.projectId, gold.id)).result)).toEqual([0, 0, 0, 0, 0, 0, 0, 1])

        // Last year, Bob turns out to be Ada: everything counting persons goes, the event count stays.
        await e.sightline.capture(e.projectId, [{ event: '$identify', distinctId: 'ada', timestamp: '2025-06-01T10:00:00Z', properties: { $anon_distinct_id: 'bob' } }])
        expect(await cachedNow()).toEqual([true, false, false, false])
        const f = await e.sightline.insights.get(e.projectId, funnel.id)
        // Two persons signed up (Ada-and-Bob, Cy); Ada paid.
        expect((f.result as Array<{ count: number }>).map((s) => s.count)).toEqual([2, 1])
        expect(dataOf((await e.sightline.insights.get(e.projectId, users.id)).result)).toEqual([0, 0, 0, 1, 0, 0, 0, 1])
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'a relative range expires when its dates move: at the next local midnight', async () => {
      const e = await signupsEngine(target)
      try {
        const insight = await e.sightline.insights.create(e.projectId, { filters: TREND })
        const get = (refresh?: 'force_cache') => e.sightline.insights.get(e.projectId, insight.id, { refresh })
        await get()
        const [row] = await e.db.raw<{ x: number }>(`select ${e.db.epochMicros('expires_at')} as x from insight_cache`)
        expect(Number(row!.x)).toBe(Date.parse(NEXT_MIDNIGHT) * 1000)
        e.time.set('2026-03-01T22:59:59.999Z')
        expect((await get('force_cache')).isCached).toBe(true)
        e.time.set(NEXT_MIDNIGHT)
        expect(await get('force_cache')).toMatchObject({ result: null, isCached: false, lastRefresh: null })
        const moved = await get()
        expect(moved).toMatchObject({ isCached: false, lastRefresh: '2026-03-01T23:00:00.000000Z' })
        // Feb 23 .. Mar 2 local: Feb 25 is bucket 2, Mar 1 bucket 6.
        expect(dataOf(moved.result)).toEqual([0, 0, 2, 0, 0, 0, 1, 0])

        // Hour-truncated dates move at the next hour; a range ending exactly now (BoldNumber) at the next minute.
        const hourly = await e.sightline.insights.create(e.projectId, { filters: { ...TREND, interval: 'hour', date_from: '-24h' } })
        const bold = await e.sightline.insights.create(e.projectId, { filters: { ...TREND, display: 'BoldNumber' } })
        for (const [insight, at, expires] of [[hourly, '2026-03-02T10:20:30Z', '2026-03-02T11:00:00Z'], [bold, '2026-03-02T10:20:40Z', '2026-03-02T10:21:00Z']] as const) {
          e.time.set(at)
          await e.sightline.insights.get(e.projectId, insight.id)
          const [r] = await e.db.raw<{ x: number }>(`select ${e.db.epochMicros('expires_at')} as x from insight_cache where last_refresh = cast($1 as timestamptz)`, [at])
          expect(Number(r!.x), expires).toBe(Date.parse(expires) * 1000)
        }

        // Absolute dates never move.
        const fixed = await e.sightline.insights.create(e.projectId, { filters: { ...TREND, date_from: '2026-02-22', date_to: '2026-03-01' } })
        await e.sightline.insights.get(e.projectId, fixed.id)
        e.time.set('2026-06-01T00:00:00Z')
        expect((await e.sightline.insights.get(e.projectId, fixed.id, { refresh: 'force_cache' })).isCached).toBe(true)
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'concurrent gets of one computation run it once', async () => {
      const e = await signupsEngine(target)
      try {
        const one = await e.sightline.insights.create(e.projectId, { filters: TREND })
        const twin = await e.sightline.insights.create(e.projectId, { name: 'Same filters', filters: { ...TREND } })
        e.trend.mockClear()
        const got = await Promise.all([
          e.sightline.insights.get(e.projectId, one.id),
          e.sightline.insights.get(e.projectId, one.id),
          e.sightline.insights.get(e.projectId, twin.id),
        ])
        expect(e.trend).toHaveBeenCalledTimes(1)
        for (const g of got) expect(dataOf(g.result)).toEqual(SIGNUPS_BY_DAY)
        expect(await cachedRows(e)).toHaveLength(1)
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'a computing get runs under its clientQueryId, so cancel can name it; a cached answer runs nothing', async () => {
      const e = await signupsEngine(target)
      try {
        const insight = await e.sightline.insights.create(e.projectId, { filters: TREND })
        const ids: unknown[] = []
        e.trend.mockImplementation((projectId, params) => {
          ids.push((params as Record<string, unknown>).client_query_id)
          return e.realTrend(projectId, params)
        })
        const first = await e.sightline.insights.get(e.projectId, insight.id, { clientQueryId: 'tile-7' })
        expect(dataOf(first.result)).toEqual(SIGNUPS_BY_DAY)
        expect(ids).toEqual(['tile-7'])
        const again = await e.sightline.insights.get(e.projectId, insight.id, { clientQueryId: 'tile-8' })
        expect(again.isCached).toBe(true)
        expect(ids).toEqual(['tile-7'])
        // The id is not part of the cache key: the entry computed under tile-7 answered.
        expect(await cachedRows(e)).toHaveLength(1)
        const error = await failure(e.sightline.insights.get(e.projectId, insight.id, { clientQueryId: '' }))
        expect(error).toBeInstanceOf(ValidationError)
        expect(error.attr).toBe('clientQueryId')
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'get refuses bad options and filters the analysis refuses, naming the field', async () => {
      const e = await signupsEngine(target)
      try {
        const insight = await e.sightline.insights.create(e.projectId, { filters: TREND })
        const bad = await e.sightline.insights.create(e.projectId, { filters: { ...TREND, events: [{ id: 'signed_up', math: 'nope' }] } })
        for (const [options, attr] of [
          [{ refresh: 'sometimes' }, 'refresh'],
          [{ fromDashboard: 1.5 }, 'fromDashboard'],
        ] as const) {
          const error = await failure(e.sightline.insights.get(e.projectId, insight.id, options as never))
          expect(error).toBeInstanceOf(ValidationError)
          expect(error.attr).toBe(attr)
        }
        const error = await failure(e.sightline.insights.get(e.projectId, bad.id))
        expect(error).toBeInstanceOf(ValidationError)
        expect(error.attr).toBe('filters__events__0__math')
        const node = await e.sightline.insights.create(e.projectId, { query: { kind: 'TrendsQuery', series: 'signed_up' } })
        expect((await failure(e.sightline.insights.get(e.projectId, node.id))).attr).toBe('query__series')
      } finally {
        await e.close()
      }
    })
  })
}
