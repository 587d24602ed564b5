/**
 * `trendActors` agrees with the counts: following a result's own persons
 * links, the number of actors behind a point is the point's value for the
 * maths that count actors (dau, weekly and monthly active, unique groups,
 * stickiness, lifecycle); for counts of events there are actors exactly when
 * the value is not zero, and a point without actors is 0. Random datasets
 * (two requests each), hourly, daily and weekly intervals, every target.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { describePropertySkip, propertyTargets } from '../filters/filter-db.js'
import { dataset, RANGE } from '../reference/trends/trend-arbitraries.js'
import { openTrendEngine, type TrendEngine } from './support/engine.js'
import { loadTrendData } from './support/load.js'
import { reportBeforeTimeout } from '../execution/report-before-timeout.js'

/** Requests: half of SIGHTLINE_TREND_RUNS, two on each dataset. */
const RUNS = Number(process.env.SIGHTLINE_TREND_RUNS ?? 100) / 2
const PER_DATASET = 2
const DATASETS = Math.ceil(RUNS / PER_DATASET)
/** The test's bound (fast-check stops 20 s before it: reportBeforeTimeout). */
const TIMEOUT_MS = 180_000

const ACTOR_MATHS = new Set(['dau', 'weekly_active', 'monthly_active', 'unique_group'])

const params = fc
  .record({
    insight: fc.constantFrom('TRENDS', 'TRENDS', 'STICKINESS', 'LIFECYCLE'),
    math: fc.constantFrom('total', 'dau', 'weekly_active', 'weekly_active', 'monthly_active', 'unique_group', 'sum', 'first_time_for_user', 'avg_count_per_actor'),
    event: fc.constantFrom('a', 'b', null),
    interval: fc.constantFrom('hour', 'day', 'week'),
    display: fc.constantFrom('ActionsLineGraph', 'ActionsLineGraphCumulative', 'ActionsPie'),
    breakdown: fc.constantFrom({}, { breakdown: '$browser', breakdown_limit: 2 }, { breakdowns: [{ property: 'plan', type: 'person' }, { property: '$browser' }], breakdown_limit: 2 }),
    compare: fc.boolean(),
  })
  .map((p) => ({
    insight: p.insight,
    events: [{ id: p.event, math: p.math, ...(p.math === 'sum' ? { math_property: 'amount' } : {}), ...(p.math === 'unique_group' ? { math_group_type_index: 0 } : {}) }],
    interval: p.interval,
    display: p.display,
    ...(p.insight === 'TRENDS' ? p.breakdown : {}),
    ...(p.compare ? { compare: true } : {}),
    ...RANGE,
  }))

interface Link {
  url: string
}
interface Row {
  data: number[] | null
  aggregated_value?: number
  breakdown_value?: unknown
  persons_urls?: Link[]
  persons?: Link
  action?: { math?: string } | null
  status?: string
}

/** The link's request, as a route would hand it over from the query string. */
const paramsOf = (url: string) => Object.fromEntries(new URLSearchParams(url.slice(url.indexOf('?') + 1)))

describePropertySkip()

for (const target of propertyTargets) {
  describe(target.name, () => {
    let engine: TrendEngine
    let now = new Date()
    beforeAll(async () => {
      engine = await openTrendEngine(target, () => now)
    })
    afterAll(async () => engine?.close())

    test(`actors behind each point match its value (${DATASETS} datasets x ${PER_DATASET} requests)`, { timeout: TIMEOUT_MS }, async () => {
      await fc.assert(
        fc.asyncProperty(dataset, fc.array(fc.tuple(params, fc.nat()), { minLength: PER_DATASET, maxLength: PER_DATASET }), async (data, requests) => {
          now = data.now
          const projectId = await loadTrendData(engine, { ...data, events: data.events.map((e, i) => ({ ...e, uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` })) })
          for (const [request, pick] of requests) {
            const rows = (await engine.sightline.query.trend(projectId, request)).result as Row[]
            const math = request.events[0]!.math
            const cumulative = request.display === 'ActionsLineGraphCumulative'
            // At most 12 points per result keep the run short: a pseudo-random choice of links, up to 8 of points
            // with a value (an hourly range has 240 points, most of them 0) and up to 4 of points at 0.
            const points = rows.flatMap((row) =>
              row.persons ? [{ row, value: row.aggregated_value!, link: row.persons }] : (row.persons_urls ?? []).map((link, i) => ({ row, value: row.data![i]!, link })),
            )
            const some = <T>(xs: T[], n: number) => xs.filter((_, i) => (i + pick) % Math.max(1, Math.ceil(xs.length / n)) === 0)
            const chosen = [...some(points.filter((p) => p.value !== 0), 8), ...some(points.filter((p) => p.value === 0), 4)]
            for (const { row, value, link } of chosen) {
              const found = await engine.sightline.query.trendPersons(projectId, paramsOf(link.url), { limit: 1000, offset: 0 })
              expect(found.results.length, link.url).toBe(found.count)
              const exact =
                request.insight !== 'TRENDS' || (ACTOR_MATHS.has(math) && !(cumulative && (math === 'weekly_active' || math === 'monthly_active')))
              if (exact) expect(found.count, `${link.url} (${row.status ?? ''})`).toBe(Math.abs(value))
              else if (math === 'total' || math === 'first_time_for_user') expect(found.count > 0, link.url).toBe(value !== 0)
              // A sum or an average can be 0 with events behind it; without actors it is 0.
              else if (found.count === 0) expect(value, link.url).toBe(0)
            }
          }
        }),
        { numRuns: DATASETS, ...reportBeforeTimeout(TIMEOUT_MS) },
      )
    })
  })
}
