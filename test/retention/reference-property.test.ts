/**
 * The reference property: random small datasets and random retention
 * requests give the same rows on every storage adapter as the independent
 * reference evaluator (test/reference/retention/retention-reference.ts), and one
 * cell's people URL (a random cell with returns when there is one) answers as
 * many actors as its count. Two requests on each dataset.
 * SIGHTLINE_RETENTION_RUNS sets the requests (default 40); a failure replays
 * with SIGHTLINE_RETENTION_SEED set to the seed fast-check printed.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { RetentionParams, RetentionPersonsParams } from '@sightline/core'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'
import { runsOn } from '../conformance/target.js'
import type { RefDataset } from '../reference/shared/ref-dataset.js'
import { referenceRetention } from '../reference/retention/retention-reference.js'
import { dataset } from '../reference/trends/trend-arbitraries.js'
import { retentionParams } from './params-arbitrary.js'
import { loadInto, openRetentionEngine, type Clocked } from './support.js'

const RUNS = Number(process.env.SIGHTLINE_RETENTION_RUNS ?? 40)
/** Requests per dataset: RUNS requests over RUNS / 2 datasets (a load costs more than a request). */
const PER_DATASET = 2
const DATASETS = Math.ceil(RUNS / PER_DATASET)
const SEED = process.env.SIGHTLINE_RETENTION_SEED === undefined ? undefined : Number(process.env.SIGHTLINE_RETENTION_SEED)

// Edge is a test account. Uuids made unique: storage keeps one event per uuid where the reference would keep both.
const data = dataset.map(
  (d): RefDataset => ({
    ...d,
    events: d.events.map((e, i) => ({ ...e, uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` })),
    project: { ...d.project, testAccountFilters: [{ key: '$browser', value: 'Edge', operator: 'is_not', type: 'event' }] },
  }),
)

const comparable = (rows: ReadonlyArray<{ values: ReadonlyArray<{ count: number; label: string }>; label: string; date: string; breakdown_value?: string }>) =>
  rows.map((r) => ({ values: r.values.map((v) => ({ count: v.count, label: v.label })), label: r.label, date: r.date, breakdown_value: r.breakdown_value }))

describePropertySkip()

for (const target of analysisTargets) {
  describe(target.name, () => {
    let state: Clocked
    beforeAll(async () => {
      state = await openRetentionEngine(target)
    })
    afterAll(async () => state?.engine.close())

    test(`random data and requests agree with the reference evaluator (${runsOn(target, DATASETS)} datasets x ${PER_DATASET} requests)`, { timeout: 60_000 + RUNS * 2_000 }, async () => {
      const request = fc.tuple(retentionParams, fc.nat(), fc.nat())
      await fc.assert(
        fc.asyncProperty(data, fc.array(request, { minLength: PER_DATASET, maxLength: PER_DATASET }), async (d, requests) => {
          const projectId = await loadInto(state, d)
          for (const [params, pickRow, pickValue] of requests) {
            const expected = comparable(await referenceRetention(params, d))
            const { result } = await state.engine.sightline.query.retention(projectId, params as RetentionParams)
            expect(comparable(result), JSON.stringify(params)).toEqual(expected)
            if (result.length === 0) continue
            // A cell with returns when there is one (most are 0), else any.
            const cells = result.flatMap((row) => row.values.map((value) => ({ row, value })))
            const returned = cells.filter((c) => c.value.count > 0)
            const { row, value } = returned.length > 0 ? returned[(pickRow + pickValue) % returned.length]! : cells[pickRow % cells.length]!
            const query = Object.fromEntries([...new URLSearchParams(value.people_url.split('?')[1])].map(([k, v]) => [k, /^[[{]|^\d+$|^(true|false)$/.test(v) ? JSON.parse(v) : v]))
            const actors = await state.engine.sightline.query.retentionPersons(projectId, query as RetentionPersonsParams, { limit: 100, offset: 0 })
            expect(actors.count, `${JSON.stringify(params)} ${row.label} ${value.label}`).toBe(value.count)
          }
        }),
        { numRuns: runsOn(target, DATASETS), ...(SEED === undefined ? {} : { seed: SEED }) },
      )
    })
  })
}
