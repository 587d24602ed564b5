/**
 * Worked examples (examples.ts, derived by hand) on a target's engine, and
 * the same examples held against the reference evaluator, so a wrong
 * reading of PostHog shows up in whichever of the two disagrees with the hand.
 */
import { describe, test } from 'vitest'
import type { PathsParams } from '@sightline/core'
import { referencePaths } from '../reference/paths/path-reference.js'
import { EXAMPLES } from './examples.js'
import { expectEdges, type Opened } from './support.js'

/** The examples against the reference evaluator (no database). */
export function referenceExampleCases(): void {
  describe('reference evaluator', () => {
    for (const example of EXAMPLES) {
      for (const c of example.cases) {
        test(`${example.name}: ${c.name}`, async () => {
          expectEdges(await referencePaths(c.params, example.data), c.edges, c.name)
        })
      }
    }
  })
}

/** The examples on one target's engine. */
export function exampleCases(opened: () => Opened): void {
  for (const example of EXAMPLES) {
    test(example.name, async () => {
      const { engine } = opened()
      const projectId = await engine.load(example.data)
      for (const c of example.cases) expectEdges((await engine.sightline.query.paths(projectId, c.params as PathsParams)).result, c.edges, c.name)
    })
  }
}
