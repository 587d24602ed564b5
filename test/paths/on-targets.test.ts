/**
 * The paths cases on every storage adapter, one engine per target: worked
 * examples (examples.cases.ts), persons (actors.cases.ts) and validation
 * (validation.cases.ts); and the examples against the reference evaluator.
 */
import { afterAll, beforeAll, describe, it } from 'vitest'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'
import { openTrendEngine } from '../trends/support/engine.js'
import { actorCases } from './actors.cases.js'
import { exampleCases, referenceExampleCases } from './examples.cases.js'
import { EXAMPLES, NOW } from './examples.js'
import type { Opened } from './support.js'
import { validationCases } from './validation.cases.js'

referenceExampleCases()

describePropertySkip()

for (const target of analysisTargets) {
  describe(target.name, () => {
    let opened: Opened | undefined
    beforeAll(async () => {
      const engine = await openTrendEngine(target, () => NOW)
      opened = { engine, basicProject: await engine.load(EXAMPLES[0]!.data) }
    })
    afterAll(async () => opened?.engine.close())
    const get = (): Opened => opened!

    exampleCases(get)
    actorCases(get)
    validationCases(get)
  })
}
