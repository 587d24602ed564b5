/**
 * Invariants on random data, every target: `total` sums to the number of
 * matching events in the range (counted here from the dataset and the
 * references' own date resolver, not by the trend reference, nor by core's
 * dates); `dau` never exceeds `total`;
 * breakdown rows with Other add up to the unbroken `total` series; a
 * cumulative series never falls.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { resolveDateRange } from '../reference/shared/ref-dates.js'
import { parseTimestamp } from '../reference/shared/ref-time.js'
import { describePropertySkip, propertyTargets } from '../filters/filter-db.js'
import type { RefDataset } from '../reference/shared/ref-dataset.js'
import { dataset, RANGE } from '../reference/trends/trend-arbitraries.js'
import { openTrendEngine, type TrendEngine } from './support/engine.js'
import { loadTrendData } from './support/load.js'
import { reportBeforeTimeout } from '../execution/report-before-timeout.js'

/** Checks: half of SIGHTLINE_TREND_RUNS, two (interval, event, limit) on each dataset. */
const RUNS = Math.ceil(Number(process.env.SIGHTLINE_TREND_RUNS ?? 100) / 2)
const PER_DATASET = 2
const DATASETS = Math.ceil(RUNS / PER_DATASET)
/** The test's bound (fast-check stops 20 s before it: reportBeforeTimeout). */
const TIMEOUT_MS = 180_000
type Series = { data: number[]; breakdown_value?: unknown }
const sum = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0)
const unique = (d: RefDataset): RefDataset => ({ ...d, events: d.events.map((e, i) => ({ ...e, uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` })) })

async function eventsInRange(data: RefDataset, interval: 'hour' | 'day' | 'week' | 'month', event: string | null): Promise<number> {
  const r = await resolveDateRange(
    { dateFrom: RANGE.date_from, dateTo: RANGE.date_to, interval },
    { timezone: data.project.timezone, weekStartDay: data.project.weekStartDay, now: data.now },
  )
  return data.events.filter((e) => (event === null || e.event === event) && parseTimestamp(e.timestamp)! >= r.fromMicros && parseTimestamp(e.timestamp)! <= r.toMicros).length
}

describePropertySkip()

for (const target of propertyTargets) {
  describe(target.name, () => {
    let engine: TrendEngine
    let now = new Date()
    beforeAll(async () => {
      engine = await openTrendEngine(target, () => now)
    })
    afterAll(async () => engine?.close())

    test(`total, dau, breakdown and cumulative invariants (${DATASETS} datasets x ${PER_DATASET} checks)`, { timeout: TIMEOUT_MS }, async () => {
      const check = fc.tuple(fc.constantFrom('hour' as const, 'day' as const, 'week' as const, 'month' as const), fc.constantFrom('a', null), fc.integer({ min: 1, max: 4 }))
      await fc.assert(
        fc.asyncProperty(dataset.map(unique), fc.array(check, { minLength: PER_DATASET, maxLength: PER_DATASET }), async (data, checks) => {
          now = data.now
          const projectId = await loadTrendData(engine, data)
          for (const [interval, event, limit] of checks) {
            const trend = async (extra: Record<string, unknown>) =>
              (await engine.sightline.query.trend(projectId, { ...RANGE, interval, ...extra })).result as Series[]
            const [total, dau] = await trend({ events: [{ id: event }, { id: event, math: 'dau' }] })
            expect(sum(total!.data)).toBe(await eventsInRange(data, interval, event))
            dau!.data.forEach((v, i) => expect(v).toBeLessThanOrEqual(total!.data[i]!))

            const rows = await trend({ events: [{ id: event }], breakdown: '$browser', breakdown_limit: limit })
            const added = total!.data.map((_, i) => sum(rows.map((r) => r.data[i]!)))
            expect(added).toEqual(total!.data)

            for (const math of ['total', 'dau', 'weekly_active']) {
              const [cumulative] = await trend({ events: [{ id: event, math }], display: 'ActionsLineGraphCumulative' })
              cumulative!.data.forEach((v, i) => i > 0 && expect(v).toBeGreaterThanOrEqual(cumulative!.data[i - 1]!))
            }
          }
        }),
        { numRuns: DATASETS, ...reportBeforeTimeout(TIMEOUT_MS) },
      )
    })
  })
}
