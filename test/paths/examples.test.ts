/**
 * Worked examples (examples.ts, derived by hand) on every storage adapter,
 * and the same examples held against the reference evaluator, so a wrong
 * reading of PostHog shows up in whichever of the two disagrees with the hand.
 */
import { afterAll, beforeAll, describe, test } from 'vitest'
import { runPaths } from '../../packages/core/src/query/paths/index.js'
import { targets } from '../filters/filter-db.js'
import { referencePaths } from '../reference/path-reference.js'
import { openTrendEngine, type TrendEngine } from '../trends/support/engine.js'
import { EXAMPLES, NOW } from './examples.js'
import { expectEdges } from './support.js'

describe('reference evaluator', () => {
  for (const example of EXAMPLES) {
    for (const c of example.cases) {
      test(`${example.name}: ${c.name}`, async () => {
        const actual = await referencePaths(c.params, example.data)
        expectEdges(actual, c.edges, c.name)
      })
    }
  }
})

for (const target of targets) {
  describe(target.name, () => {
    let engine: TrendEngine
    beforeAll(async () => {
      engine = await openTrendEngine(target, () => NOW)
    })
    afterAll(async () => engine?.close())

    for (const example of EXAMPLES) {
      test(example.name, async () => {
        const projectId = await engine.load(example.data)
        for (const c of example.cases) {
          const response = await runPaths(engine.ctx, projectId, c.params)
          expectEdges(response.result, c.edges, c.name)
        }
      })
    }
  })
}
