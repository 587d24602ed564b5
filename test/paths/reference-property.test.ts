/**
 * The reference property: random small datasets and random paths requests
 * give the same edges, in the same order, on every storage adapter as the
 * independent reference evaluator (test/reference/paths/path-reference.ts); and
 * the persons behind a random node or edge of the result are the reference's.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { PathPersonsParams, PathsParams } from '@sightline/core'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'
import { runsOn } from '../conformance/target.js'
import { referencePathActors, referencePaths } from '../reference/paths/path-reference.js'
import type { RefPathsParams } from '../reference/paths/path-sessions.js'
import { openTrendEngine, type TrendEngine } from '../trends/support/engine.js'
import { PATHS_NOW, pathsDataset, pathsParams } from './arbitraries.js'
import { actorKeysOf } from './support.js'
import { reportBeforeTimeout } from '../execution/report-before-timeout.js'

const RUNS = Number(process.env.SIGHTLINE_PATHS_RUNS ?? 22)
/** Replays a failure: the seed fast-check printed. */
const SEED = process.env.SIGHTLINE_PATHS_SEED === undefined ? undefined : Number(process.env.SIGHTLINE_PATHS_SEED)
/** The test's bound (fast-check stops 20 s before it: reportBeforeTimeout). */
const TIMEOUT_MS = 120_000

/** Which persons key to ask for, given the reference's edges (an index picks the edge). */
const keyChoice = fc.record({ kind: fc.constantFrom('none', 'start', 'end', 'edge', 'dropoff'), pick: fc.nat() })

describePropertySkip()

for (const target of analysisTargets) {
  describe(target.name, () => {
    let engine: TrendEngine
    beforeAll(async () => {
      engine = await openTrendEngine(target, () => PATHS_NOW)
    })
    afterAll(async () => engine?.close())

    test(`random data and requests agree with the reference evaluator (${runsOn(target, RUNS)} runs)`, { timeout: TIMEOUT_MS }, async () => {
      await fc.assert(
        fc.asyncProperty(pathsDataset, fc.array(fc.tuple(pathsParams, keyChoice), { minLength: 1, maxLength: 3 }), async (data, requests) => {
          const projectId = await engine.load(data)
          for (const [params, choice] of requests) {
            const expected = await referencePaths(params, data)
            const actual = (await engine.sightline.query.paths(projectId, params as PathsParams)).result
            expect(actual.map((e) => [e.source, e.target, e.value]), JSON.stringify(params)).toEqual(expected.map((e) => [e.source, e.target, e.value]))
            actual.forEach((e, i) => expect(Math.abs(e.average_conversion_time - expected[i]!.average_conversion_time)).toBeLessThan(0.001))

            const edge = expected.length > 0 ? expected[choice.pick % expected.length]! : null
            const keys: RefPathsParams = {
              ...params,
              ...(choice.kind === 'start' && edge ? { path_start_key: edge.source } : {}),
              ...(choice.kind === 'end' && edge ? { path_end_key: edge.target } : {}),
              ...(choice.kind === 'edge' && edge ? { path_start_key: edge.source, path_end_key: edge.target } : {}),
              ...(choice.kind === 'dropoff' && edge ? { path_dropoff_key: edge.target } : {}),
            }
            const persons = await referencePathActors(keys, data)
            const page = await engine.sightline.query.pathPersons(projectId, keys as PathPersonsParams, { limit: 100, offset: 0 })
            expect(page.count, JSON.stringify(keys)).toBe(persons.size)
            const seen = page.results.map((a) => actorKeysOf(a.distinct_ids, data))
            expect([...seen].sort(), JSON.stringify(keys)).toEqual([...persons.keys()].sort())
            // Most matching steps first.
            const counts = seen.map((p) => persons.get(p)!)
            expect(counts, JSON.stringify(keys)).toEqual([...counts].sort((a, b) => b - a))
          }
        }),
        { numRuns: runsOn(target, RUNS), ...reportBeforeTimeout(TIMEOUT_MS), ...(SEED === undefined ? {} : { seed: SEED }) },
      )
    })
  })
}
