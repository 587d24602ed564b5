/**
 * The funnel reference property across New York's spring change: journeys on
 * an hourly grid from 2024-03-08 whose steps are an hour, a day, a day and
 * an hour or a week apart, requests with windows of days and weeks (every
 * view and order type, exclusions, breakdowns), funnel trends by New York's
 * days. Every storage answers what the reference evaluator answers, people
 * URLs aside and fractions to 12 significant digits (`toTwelveDigits`).
 * SIGHTLINE_FUNNEL_RUNS sizes it too (a third of the reference property's
 * datasets).
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ValidationError } from '@sightline/core'
import { targets } from '../filters/filter-db.js'
import { toRefDataset } from '../reference/funnels/funnel-dataset.js'
import { referenceFunnel } from '../reference/funnels/funnel-reference.js'
import { dstDatasetArb, dstRequestArb } from './support/arbitraries.js'
import { openFunnelEngine, type FunnelEngine } from './support/engine.js'
import { outcome } from './support/outcome.js'
import { toTwelveDigits } from './support/twelve-digits.js'
import { loadExample, withoutUrls } from './support/load-example.js'
import { reportBeforeTimeout } from '../execution/report-before-timeout.js'

const DATASETS = Math.max(1, Math.round(Number(process.env.SIGHTLINE_FUNNEL_RUNS ?? 12) / 3))
const PER_DATASET = 8
// A dataset takes a few seconds: the bound grows with the runs asked for, and a stuck statement fails within minutes, not ten.
const TIMEOUT_MS = 60_000 + DATASETS * 15_000

describe.each(targets)('funnels across a DST change agree with the reference on $name', (target) => {
  let engine: FunnelEngine
  beforeAll(async () => {
    engine = await openFunnelEngine(target)
  })
  afterAll(() => engine?.close())

  it(`day and week windows in New York (${DATASETS} datasets x ${PER_DATASET} requests)`, async () => {
    await fc.assert(
      fc.asyncProperty(dstDatasetArb, fc.array(dstRequestArb, { minLength: PER_DATASET, maxLength: PER_DATASET }), async (data, requests) => {
        const loaded = await loadExample(engine, data)
        for (const params of requests) {
          const expected = await outcome(referenceFunnel(params, toRefDataset(data)))
          // Through the public entry point: the executor's timeout, cancellation and budgets, as production runs it.
          const actual = await outcome(engine.sightline.query.funnel(loaded.projectId, loaded.params(params)))
          const got = 'ok' in actual ? { ok: withoutUrls(loaded.result(actual.ok.result)) } : actual
          expect(toTwelveDigits(got), JSON.stringify(params)).toEqual(toTwelveDigits(expected))
        }
      }),
      { numRuns: DATASETS, ...reportBeforeTimeout(TIMEOUT_MS) },
    )
  }, TIMEOUT_MS)
})
