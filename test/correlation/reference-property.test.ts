/**
 * The reference property: on random small datasets and random correlation
 * requests, every storage adapter answers the rows, counts, types and
 * `skewed` of the independent reference (test/reference/correlation/correlation-reference.ts),
 * odds ratios within 1e-9; and the first row's people URLs list exactly its counts.
 * SIGHTLINE_CORRELATION_RUNS sets the number of datasets (default 24 in all, 4 requests each, shared by the targets).
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FunnelCorrelationParams, FunnelCorrelationPersonsParams } from '@sightline/core'
import { referenceCorrelation } from '../reference/correlation/correlation-reference.js'
import { analysisTargets, describePropertySkip, propertyTargets } from '../filters/filter-db.js'
import { runsOn } from '../conformance/target.js'
import { openFunnelEngine, type FunnelEngine } from '../funnels/support/engine.js'
import { loadExample } from '../funnels/support/load-example.js'
import { datasetArb, requestArb } from './support/arbitraries.js'
import { urlParams } from './support/journeys.js'
import { reportBeforeTimeout } from '../execution/report-before-timeout.js'

const DATASETS = Number(process.env.SIGHTLINE_CORRELATION_RUNS ?? 24)
const PER_DATASET = 4
/** The test's bound (fast-check stops 20 s before it: reportBeforeTimeout). */
const TIMEOUT_MS = 300_000
const SEED = process.env.SIGHTLINE_CORRELATION_SEED === undefined ? undefined : Number(process.env.SIGHTLINE_CORRELATION_SEED)

describePropertySkip()

describe.each(analysisTargets)('funnel correlation agrees with the reference on $name', (target) => {
  let engine: FunnelEngine
  beforeAll(async () => {
    engine = await openFunnelEngine(target)
  })
  afterAll(() => engine?.close())

  it(`random datasets x ${PER_DATASET} requests`, async () => {
    await fc.assert(
      fc.asyncProperty(datasetArb, fc.array(requestArb, { minLength: PER_DATASET, maxLength: PER_DATASET }), async (data, requests) => {
        const loaded = await loadExample(engine, data as never)
        for (const base of requests) {
          const params = loaded.params(base)
          const expected = await referenceCorrelation(base, data)
          const actual = (await engine.sightline.query.funnelCorrelation(loaded.projectId, params as FunnelCorrelationParams)).result
          const label = JSON.stringify(base)
          expect(actual.events.map((e) => [e.event.event, e.success_count, e.failure_count, e.correlation_type]), label).toEqual(
            expected.rows.map((r) => [r.name, r.success, r.failure, r.type]),
          )
          actual.events.forEach((e, i) => expect(Math.abs(e.odds_ratio - expected.rows[i]!.odds) / expected.rows[i]!.odds, label).toBeLessThan(1e-9))
          expect(actual.skewed, label).toBe(expected.skewed)
          const first = actual.events[0]
          if (first) {
            const page = { limit: 100, offset: 0 }
            const s = await engine.sightline.query.funnelCorrelationPersons(loaded.projectId, urlParams(first.success_people_url) as FunnelCorrelationPersonsParams, page)
            const f = await engine.sightline.query.funnelCorrelationPersons(loaded.projectId, urlParams(first.failure_people_url) as FunnelCorrelationPersonsParams, page)
            expect([s.count, f.count], `${label} people`).toEqual([first.success_count, first.failure_count])
          }
        }
      }),
      { numRuns: runsOn(target, Math.max(1, Math.round(DATASETS / propertyTargets.length))), ...reportBeforeTimeout(TIMEOUT_MS), ...(SEED === undefined ? {} : { seed: SEED }) },
    )
  }, TIMEOUT_MS)
})
