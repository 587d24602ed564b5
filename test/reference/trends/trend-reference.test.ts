import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bucketOf, type Interval, parseTimestamp } from '../shared/ref-time.js'
import { resolveDateRange } from '../shared/ref-dates.js'
import type { RefDataset } from '../shared/ref-dataset.js'
import { dataset, interval, PERSON_OF, RANGE } from './trend-arbitraries.js'
import { matchesTrendExpected, toRefDataset, TREND_EXAMPLES, trendMismatches } from './trend-examples.js'
import { referenceTrend } from './trend-reference.js'

type Series = { data: number[]; breakdown_value?: unknown; status?: string }
const run = async (params: Record<string, unknown>, data: RefDataset) => (await referenceTrend(params, data)) as Series[]
const sum = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0)
const personOf = (distinctId: string) => PERSON_OF[distinctId] ?? `personless ${distinctId}`

/** The range's bounds from the references' resolver (ref-dates.ts), to count events without the trend reference. */
async function bounds(data: RefDataset, intervalName: Interval): Promise<[number, number]> {
  const r = await resolveDateRange(
    { dateFrom: RANGE.date_from, dateTo: RANGE.date_to, interval: intervalName },
    { timezone: data.project.timezone, weekStartDay: data.project.weekStartDay, now: data.now },
  )
  return [r.fromMicros, r.toMicros]
}
const micros = (t: string) => parseTimestamp(t)!

describe('matchesTrendExpected', () => {
  const actual = [{ data: [1, 2.5], label: 'a', filter: { interval: 'day', insight: 'TRENDS' }, action: { id: 'a', order: 0 } }]

  it('accepts listed fields that agree, numbers to 1e-9 relative, filter and action by their listed keys', () => {
    expect(trendMismatches(actual, [{ data: [1, 2.5 + 1e-12], filter: { interval: 'day' }, action: { order: 0 } }])).toEqual([])
    expect(matchesTrendExpected(actual, [{ label: 'a' }])).toBe(true)
  })

  it('reports a wrong number, a missing or unexpected field, a wrong count of series, extra keys in other objects', () => {
    expect(trendMismatches(actual, [{ data: [1, 2.6] }])).toEqual(['result[0].data[1]: expected 2.6, got 2.5'])
    expect(trendMismatches(actual, [{ count: 3 }])).toEqual(['result[0].count: missing'])
    expect(trendMismatches(actual, [{ label: undefined }])).toEqual(['result[0].label: expected absent, got "a"'])
    expect(trendMismatches(actual, [{}, {}])).toEqual(['result: expected 2 series, got 1: a'])
    expect(trendMismatches(actual, [{ data: [1] }])).toEqual(['result[0].data: expected [1], got [1,2.5]'])
    expect(trendMismatches([{ breakdown_value: { a: 1, b: 2 } }], [{ breakdown_value: { a: 1 } }])).toEqual(['result[0].breakdown_value.b: unexpected'])
    expect(trendMismatches(actual, [{ filter: { interval: 'week' } }])).toEqual(['result[0].filter.interval: expected "week", got "day"'])
    expect(matchesTrendExpected(actual, [{ action: null }])).toBe(false)
  })
})

describe('trend reference: worked examples', () => {
  it('has at least 35 examples with distinct names', () => {
    expect(TREND_EXAMPLES.length).toBeGreaterThanOrEqual(35)
    expect(new Set(TREND_EXAMPLES.map((e) => e.name)).size).toBe(TREND_EXAMPLES.length)
  })

  for (const example of TREND_EXAMPLES) {
    it(example.name, async () => {
      const actual = await referenceTrend(example.params, toRefDataset(example.data))
      expect(trendMismatches(actual, example.expected), example.why).toEqual([])
    })
  }
})

describe('trend reference: invariants on random datasets', () => {
  const runs = { numRuns: 100 }

  it('total sums to the number of matching events in range', async () => {
    await fc.assert(
      fc.asyncProperty(dataset, interval, async (data, i) => {
        const [from, to] = await bounds(data, i as Interval)
        const expected = data.events.filter((e) => e.event === 'a' && micros(e.timestamp) >= from && micros(e.timestamp) <= to).length
        const [series] = await run({ events: [{ id: 'a' }], ...RANGE, interval: i }, data)
        expect(sum(series!.data)).toBe(expected)
      }),
      runs,
    )
  })

  it('dau never exceeds total, and weekly_active never falls below dau, bucket by bucket', async () => {
    await fc.assert(
      fc.asyncProperty(dataset, async (data) => {
        const [total, dau, weekly] = await run({ events: ['total', 'dau', 'weekly_active'].map((math) => ({ id: 'a', math })), ...RANGE }, data)
        total!.data.forEach((t, k) => {
          expect(dau!.data[k]).toBeLessThanOrEqual(t)
          expect(weekly!.data[k]).toBeGreaterThanOrEqual(dau!.data[k]!)
        })
      }),
      runs,
    )
  })

  it('breakdown rows, Other included, add up to the unbroken total', async () => {
    await fc.assert(
      fc.asyncProperty(dataset, interval, fc.integer({ min: 1, max: 4 }), async (data, i, limit) => {
        const base = { events: [{ id: 'a' }], ...RANGE, interval: i }
        const [whole] = await run(base, data)
        const rows = await run({ ...base, breakdown: '$browser', breakdown_limit: limit }, data)
        expect(rows.length).toBeLessThanOrEqual(limit + 1)
        const added = whole!.data.map((_, k) => sum(rows.map((r) => r.data[k]!)))
        expect(added).toEqual(whole!.data)
      }),
      runs,
    )
  })

  it('a cumulative series never falls', async () => {
    await fc.assert(
      fc.asyncProperty(dataset, interval, fc.constantFrom('total', 'dau', 'weekly_active', 'unique_session', 'sum'), async (data, i, math) => {
        const series = await run(
          { events: [{ id: 'a', math, math_group_type_index: 0, math_property: 'amount' }], ...RANGE, interval: i, display: 'ActionsLineGraphCumulative', breakdown: '$browser' },
          data,
        )
        for (const s of series) s.data.forEach((v, k) => k > 0 && expect(v).toBeGreaterThanOrEqual(s.data[k - 1]!))
      }),
      runs,
    )
  })

  it('stickiness counts add up to the number of distinct persons active in the range', async () => {
    await fc.assert(
      fc.asyncProperty(dataset, interval, async (data, i) => {
        const [from, to] = await bounds(data, i as Interval)
        // Stickiness reads from the start of date_from's bucket (a week's start for weeks).
        const lower = bucketOf(new Date(from / 1000), i as Interval, data.project.timezone, data.project.weekStartDay).getTime() * 1000
        const persons = new Set(
          data.events.filter((e) => e.event === 'b' && micros(e.timestamp) >= lower && micros(e.timestamp) <= to).map((e) => personOf(e.distinct_id)),
        )
        const [series] = await run({ insight: 'STICKINESS', events: [{ id: 'b' }], ...RANGE, interval: i }, data)
        expect(sum(series!.data)).toBe(persons.size)
      }),
      runs,
    )
  })

  it('lifecycle: new + returning + resurrecting in a bucket is that bucket\'s dau', async () => {
    await fc.assert(
      fc.asyncProperty(dataset, interval, async (data, i) => {
        const params = { events: [{ id: 'a' }], ...RANGE, interval: i }
        const statuses = await run({ ...params, insight: 'LIFECYCLE' }, data)
        const [dau] = await run({ ...params, events: [{ id: 'a', math: 'dau' }] }, data)
        const active = statuses.filter((s) => s.status !== 'dormant')
        // The ranges differ at the edges: a week trend starts at date_from's day (lifecycle at its week's start),
        // and lifecycle reads to the end of date_to's bucket (a trend stops at date_to). Compare the buckets between.
        const first = i === 'week' ? 1 : 0
        const end = i === 'day' ? dau!.data.length : dau!.data.length - 1
        for (let k = first; k < end; k++) expect(sum(active.map((s) => s.data[k]!))).toBe(dau!.data[k])
      }),
      runs,
    )
  })
})
