/** Shared by the paths suites: result comparison with times to the microsecond. */
import { expect } from 'vitest'
import type { PathEdge } from '@sightline/core'
import type { RefDataset } from '../reference/shared/ref-dataset.js'
import type { TrendEngine } from '../trends/support/engine.js'
import type { Edge } from './examples.js'

/** Asserts `actual` is `expected` in order; conversion times equal to within a microsecond. */
export function expectEdges(actual: ReadonlyArray<PathEdge>, expected: ReadonlyArray<Edge>, label: string): void {
  expect(actual.map((e) => [e.source, e.target, e.value]), label).toEqual(expected.map(([s, t, v]) => [s, t, v]))
  actual.forEach((e, i) => expect(Math.abs(e.average_conversion_time - expected[i]![3]), `${label}: ${e.source} -> ${e.target} time`).toBeLessThan(0.001))
}

/** The reference's id of the person an actor's distinct ids belong to (a personless id is its own). */
export function actorKeysOf(distinctIds: ReadonlyArray<string>, data: RefDataset): string {
  const first = distinctIds[0]
  if (first === undefined) throw new Error('an actor without distinct ids')
  return data.persons[first]?.id ?? first
}

/** One target's engine as the case modules see it, with the first example's data loaded once. */
export interface Opened {
  readonly engine: TrendEngine
  /** EXAMPLES[0] (PostHog's test_current_url_paths_and_logic data). */
  readonly basicProject: number
}
