/**
 * The funnel reference property: on random events and random funnel
 * requests, every storage adapter returns exactly what the independent
 * reference evaluator (test/reference/funnels/funnel-reference.ts) returns, people
 * URLs aside. Each random dataset is loaded once and asked several requests.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FunnelParams } from '@sightline/core'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'
import { runsOn } from '../conformance/target.js'
import { toRefDataset } from '../reference/funnels/funnel-dataset.js'
import { referenceFunnel } from '../reference/funnels/funnel-reference.js'
import type { FunnelExampleData } from '../reference/funnels/funnel-dataset.js'
import { datasetOf, requestArb } from './support/arbitraries.js'
import { openFunnelEngine, type FunnelEngine } from './support/engine.js'
import { outcome } from './support/outcome.js'
import { toTwelveDigits } from './support/twelve-digits.js'
import { loadExample, withoutUrls } from './support/load-example.js'
import { reportBeforeTimeout } from '../execution/report-before-timeout.js'

const DATASETS = Number(process.env.SIGHTLINE_FUNNEL_RUNS ?? 12)
const PER_DATASET = 8
// A dataset takes a few seconds: the bound grows with the runs asked for, and a stuck statement fails within minutes, not ten.
const TIMEOUT_MS = 60_000 + DATASETS * 15_000


function property(engine: () => FunnelEngine, data: fc.Arbitrary<FunnelExampleData>, requests: fc.Arbitrary<Record<string, unknown>>, extra: Record<string, unknown> = {}) {
  return fc.asyncProperty(data, fc.array(requests, { minLength: PER_DATASET, maxLength: PER_DATASET }), async (data, requests) => {
    const loaded = await loadExample(engine(), data)
    for (const base of requests) {
      const params = { ...base, ...extra }
      const expected = await outcome(referenceFunnel(params, toRefDataset(data)))
      // Random requests, some of them refused: typed as the library's parameters only here.
      const actual = await outcome(engine().sightline.query.funnel(loaded.projectId, loaded.params(params) as FunnelParams))
      const got = 'ok' in actual ? { ok: withoutUrls(loaded.result(actual.ok.result)) } : actual
      expect(toTwelveDigits(got), JSON.stringify(params)).toEqual(toTwelveDigits(expected))
    }
  })
}

describePropertySkip()
describe.each(analysisTargets)('funnels agree with the reference on $name', (target) => {
  let engine: FunnelEngine
  beforeAll(async () => {
    engine = await openFunnelEngine(target)
  })
  afterAll(() => engine?.close())

  it(`steps, trends and time to convert (${runsOn(target, DATASETS)} datasets x ${PER_DATASET} requests)`, async () => {
    await fc.assert(property(() => engine, datasetOf(3), requestArb), { numRuns: runsOn(target, DATASETS), ...reportBeforeTimeout(TIMEOUT_MS) })
  }, TIMEOUT_MS)
})
