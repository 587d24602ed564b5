/**
 * Issue 13's hostile analysis requests, on every storage, over real HTTP:
 * each is answered at once with a 400 naming the parameter that grew it (a
 * date outside the supported range, a range of too many intervals, too many
 * series, values or bytes), never a 500, a hang or a dead process; and the
 * dates at the edges of the supported range still work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { targets } from '../filters/filter-db.js'
import { serve, type Live } from '../http/harness.js'

const pageview = [{ id: '$pageview', type: 'events', order: 0 }]
const path = (live: Live, what: string) => `/api/projects/${live.a.project.id}/${what}`
const query = (params: Record<string, unknown>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString()

for (const target of targets) {
  describe(`hostile analysis requests on ${target.name}`, () => {
    let live: Live
    beforeAll(async () => {
      live = await serve(target)
      // A few events, so that the analyses have data to read.
      await live.sightline.capture(live.a.project.id, [
        { event: '$pageview', distinctId: 'u1', timestamp: '2026-01-14T10:00:00Z', properties: { $browser: 'Chrome' } },
        { event: '$pageview', distinctId: 'u2', timestamp: '2026-01-14T11:00:00Z', properties: { $browser: 'Firefox' } },
        { event: 'signup', distinctId: 'u1', timestamp: '2026-01-14T12:00:00Z' },
      ])
    })
    afterAll(async () => {
      expect(live.serverErrors).toEqual([])
      await live.close()
    })

    const refused = async (method: 'GET' | 'POST', what: string, params: Record<string, unknown>) => {
      const answer =
        method === 'POST' ? await live.call('POST', path(live, what), { body: params }) : await live.call('GET', `${path(live, what)}?${query(params)}`)
      expect(answer.status, answer.text.slice(0, 300)).toBe(400)
      expect(answer.body).toMatchObject({ type: 'validation_error' })
      return answer.body as { code: string; detail: string; attr: string | null }
    }

    it.each(['POST', 'GET'] as const)('a trend from 1000 years ago by minute (%s): 400 naming date_from, not a dead process', async (method) => {
      const body = await refused(method, 'insights/trend/', { events: pageview, date_from: '-1000y', interval: 'minute' })
      expect(body.attr).toBe('date_from')
      expect(body.detail).toContain('1900-01-01 to 2199-12-31')
    })

    it('years 1 to 9999: 400 naming date_from', async () => {
      const body = await refused('POST', 'insights/trend/', { events: pageview, date_from: '0001-01-01', date_to: '9999-12-31' })
      expect(body.attr).toBe('date_from')
    })

    it('a date before 1900 (where the bucket index lost precision): 400, and date_to past 2199 names date_to', async () => {
      expect((await refused('POST', 'insights/trend/', { events: pageview, date_from: '1683-06-01', date_to: '1683-06-03' })).attr).toBe('date_from')
      expect((await refused('POST', 'insights/trend/', { events: pageview, date_from: '2199-12-01', date_to: '2200-01-01' })).attr).toBe('date_to')
    })

    it('the edges of the supported range work: January and February 1900 by day is 60 buckets, December 2199 is 31', async () => {
      const first = await live.call('POST', path(live, 'insights/trend/'), { body: { events: pageview, date_from: '1900-01-01', date_to: '1900-03-01' } })
      expect(first.status, first.text).toBe(200)
      // 31 days of January, 28 of February (1900 is not a leap year), and March 1st.
      expect(first.body.result[0].data).toHaveLength(31 + 28 + 1)
      const last = await live.call('POST', path(live, 'insights/trend/'), { body: { events: pageview, date_from: '2199-12-01', date_to: '2199-12-31' } })
      expect(last.status, last.text).toBe(200)
      expect(last.body.result[0].data).toHaveLength(31)
    })

    it('a comparison whose previous period starts before 1900: 400 naming compare', async () => {
      const body = await refused('POST', 'insights/trend/', { events: pageview, date_from: '1900-01-01', date_to: '1900-12-31', interval: 'month', compare: true })
      expect(body.attr).toBe('compare')
    })

    it('funnel trends and the persons of a trend point from 1000 years ago: 400 naming date_from', async () => {
      const funnel = await refused('POST', 'insights/funnel/', {
        events: [...pageview, { id: 'signup', type: 'events', order: 1 }],
        funnel_viz_type: 'trends',
        date_from: '-1000y',
      })
      expect(funnel.attr).toBe('date_from')
      const persons = await refused('GET', 'persons/trends/', {
        events: pageview,
        date_from: '-1000y',
        entity_id: '$pageview',
        entity_type: 'events',
        entity_order: 0,
        target_date: '2026-01-14',
      })
      expect(persons.attr).toBe('date_from')
    })

    it('retention from 1800: 400 naming date_from', async () => {
      const body = await refused('GET', 'insights/retention/', { target_entity: { id: '$pageview', type: 'events' }, date_from: '1800-01-01', period: 'Day' })
      expect(body.attr).toBe('date_from')
    })

    it('a minute interval over a year: 400 naming interval, before any query', async () => {
      // 366 x 24 x 60 = 527,040 buckets against the default budget of 20,000 per series.
      const body = await refused('POST', 'insights/trend/', { events: pageview, date_from: '-365d', interval: 'minute' })
      expect(body.attr).toBe('interval')
      expect(body.detail).toContain('maxBucketsPerSeries')
    })

    it('funnel trends by hour over three years: 400 naming interval', async () => {
      // About 26,300 hours against the budget of 20,000 buckets.
      const body = await refused('POST', 'insights/funnel/', {
        events: [...pageview, { id: 'signup', type: 'events', order: 1 }],
        funnel_viz_type: 'trends',
        date_from: '-1095d',
        interval: 'hour',
      })
      expect(body.attr).toBe('interval')
    })

    it('an hourly trend over 30 days is within budget: 721 buckets', async () => {
      const answer = await live.call('POST', path(live, 'insights/trend/'), { body: { events: pageview, date_from: '2025-12-16', date_to: '2026-01-15', interval: 'hour' } })
      expect(answer.status, answer.text.slice(0, 300)).toBe(200)
      // 2025-12-16 00:00 to 2026-01-15 00:00 in UTC (a bare date_to with an hour interval is that day's 00:00): 30 days of 24 hours, and the last hour.
      expect(answer.body.result[0].data).toHaveLength(30 * 24 + 1)
    })

    it('100 series: 400 naming events', async () => {
      const events = Array.from({ length: 100 }, (_, i) => ({ id: '$pageview', type: 'events', order: i }))
      const body = await refused('POST', 'insights/trend/', { events })
      expect(body.attr).toBe('events')
      expect(body.detail).toContain('100 series')
    })

    it('formulas over 30 series: Z names the 26th, AA is a 400 naming formula', async () => {
      const events = Array.from({ length: 30 }, (_, i) => ({ id: '$pageview', type: 'events', order: i }))
      const ok = await live.call('POST', path(live, 'insights/trend/'), { body: { events, formula: 'A + Z', date_from: '-7d' } })
      expect(ok.status, ok.text.slice(0, 300)).toBe(200)
      // Every series counts the two pageviews of 2026-01-14.
      expect(ok.body.result.map((r: { count: number }) => r.count)).toEqual([4])
      const body = await refused('POST', 'insights/trend/', { events, formula: 'A + AA', date_from: '-7d' })
      expect(body.attr).toBe('formula')
      expect(body.detail).toContain('A to Z')
    })

    it('breakdown_limit 5000: 400 naming breakdown_limit', async () => {
      const body = await refused('POST', 'insights/trend/', { events: pageview, breakdown: '$browser', breakdown_limit: 5000 })
      expect(body.attr).toBe('breakdown_limit')
    })

    it('10 series x 1001 breakdown rows x 31 days (310,310 cells): 400 naming breakdown_limit, before any query', async () => {
      const events = Array.from({ length: 10 }, (_, i) => ({ id: '$pageview', type: 'events', order: i }))
      const body = await refused('POST', 'insights/trend/', { events, breakdown: '$browser', breakdown_limit: 1000, date_from: '-30d' })
      expect(body.attr).toBe('breakdown_limit')
      expect(body.detail).toContain('310310 values')
    })

    it('a filter with 50,000 values: 400 naming the list', async () => {
      const value = Array.from({ length: 50_000 }, (_, i) => `v${i}`)
      const body = await refused('POST', 'insights/trend/', { events: pageview, properties: [{ key: '$browser', value, operator: 'exact', type: 'event' }] })
      expect(body.attr).toBe('properties__0__value')
      expect(body.detail).toContain('50000 items')
    })

    it('an answer of about 80 MB (1000 long filter values repeated in each persons URL over three years): 400 naming interval', async () => {
      const value = Array.from({ length: 1000 }, (_, i) => `${'x'.repeat(64)}-${i}`)
      const body = await refused('POST', 'insights/trend/', {
        events: pageview,
        properties: [{ key: '$browser', value, operator: 'is_not', type: 'event' }],
        date_from: '2023-01-15',
        date_to: '2026-01-15',
      })
      expect(body.attr).toBe('interval')
      expect(body.detail).toContain('maxResponseBytes')
    })

    it('the same long filter over a week is answered, with the filter applied', async () => {
      const value = Array.from({ length: 999 }, (_, i) => `${'x'.repeat(64)}-${i}`)
      const answer = await live.call('POST', path(live, 'insights/trend/'), {
        body: { events: pageview, properties: [{ key: '$browser', value: [...value, 'Firefox'], operator: 'is_not', type: 'event' }], date_from: '-7d' },
      })
      expect(answer.status, answer.text.slice(0, 300)).toBe(200)
      // Only u1's Chrome pageview is not one of the listed values.
      expect(answer.body.result[0].count).toBe(1)
    })
  })
}
