/**
 * The reference property: random small datasets and random trend,
 * stickiness and lifecycle requests give the same result on every storage
 * adapter as the independent reference evaluator (test/reference/trends/trend-reference.ts).
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'
import { runsOn } from '../conformance/target.js'
import type { RefDataset } from '../reference/shared/ref-dataset.js'
import { dataset } from '../reference/trends/trend-arbitraries.js'
import { TOTAL_VALUE_DISPLAYS } from '../reference/trends/trend-query.js'
import { referenceTrend } from '../reference/trends/trend-reference.js'
import { resultMismatches } from './support/compare-results.js'
import { openTrendEngine, type TrendEngine } from './support/engine.js'
import { loadTrendData } from './support/load.js'
import { trendParams } from './support/trend-params-arbitrary.js'
import { reportBeforeTimeout } from '../execution/report-before-timeout.js'

const RUNS = Number(process.env.SIGHTLINE_TREND_RUNS ?? 100)
/** Requests per dataset: a load costs more than a request, so RUNS requests go over RUNS / 4 datasets. */
const PER_DATASET = 4
const DATASETS = Math.ceil(RUNS / PER_DATASET)
/** Replays a failure: the seed fast-check printed. */
const SEED = process.env.SIGHTLINE_TREND_SEED === undefined ? undefined : Number(process.env.SIGHTLINE_TREND_SEED)
/** The test's bound (fast-check stops 20 s before it: reportBeforeTimeout). */
const TIMEOUT_MS = 180_000
const NULL = '$$_posthog_breakdown_null_$$'
const OTHER = '$$_posthog_breakdown_other_$$'

// Test accounts: events from Edge are internal (so filter_test_accounts changes answers). Uuids made
// unique: the generator can repeat one, and storage keeps one event per uuid where the reference keeps both.
const withTestAccounts = dataset.map(
  (d): RefDataset => ({
    ...d,
    events: d.events.map((e, i) => ({ ...e, uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` })),
    project: { ...d.project, testAccountFilters: [{ key: '$browser', value: 'Edge', operator: 'is_not', type: 'event' }] },
  }),
)

const parts = (row: Record<string, unknown>): string[] => (row.breakdown_value === undefined ? [] : ([] as string[]).concat(row.breakdown_value as string))


describePropertySkip()

for (const target of analysisTargets) {
  describe(target.name, () => {
    let engine: TrendEngine
    let now = new Date()
    beforeAll(async () => {
      engine = await openTrendEngine(target, () => now)
    })
    afterAll(async () => engine?.close())

    test(`random data and requests agree with the reference evaluator (${runsOn(target, DATASETS)} datasets x ${PER_DATASET} requests)`, { timeout: TIMEOUT_MS }, async () => {
      await fc.assert(
        fc.asyncProperty(withTestAccounts, fc.array(trendParams, { minLength: PER_DATASET, maxLength: PER_DATASET }), async (data, requests) => {
          now = data.now
          const projectId = await loadTrendData(engine, data)
          for (const params of requests) {
            const expected = await referenceTrend(params, data)
            // Through the public entry point: the executor's timeout, cancellation and budgets, as production runs it.
            const actual = (await engine.sightline.query.trend(projectId, params)).result
            const problems = resultMismatches(actual, expected)
            expect(problems, JSON.stringify(params)).toEqual([])
          }
        }),
        { numRuns: runsOn(target, DATASETS), maxSkipsPerRun: 100, ...reportBeforeTimeout(TIMEOUT_MS), ...(SEED === undefined ? {} : { seed: SEED }) },
      )
    })
  })
}
