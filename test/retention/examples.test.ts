/**
 * Worked examples, one or more per parameter, counted by hand from the
 * data in examples-data.ts (each expectation says how). Every example runs
 * on every storage target and through the reference evaluator, so both are
 * held to the same hand count.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'
import { referenceRetention } from '../reference/retention/retention-reference.js'
import { EXAMPLES } from './examples.js'
import { loadInto, openRetentionEngine, shown, type Clocked } from './support.js'

describe('reference evaluator', () => {
  for (const x of EXAMPLES) {
    test(x.name, async () => {
      const rows = await referenceRetention(x.params, x.data)
      expect(shown(rows)).toEqual(x.rows)
      if (x.dates) expect(rows.map((r) => r.date)).toEqual(x.dates)
    })
  }
})

describePropertySkip()

for (const target of analysisTargets) {
  describe(target.name, () => {
    let state: Clocked
    beforeAll(async () => {
      state = await openRetentionEngine(target)
    })
    afterAll(async () => state?.engine.close())

    for (const x of EXAMPLES) {
      test(x.name, async () => {
        const projectId = await loadInto(state, x.data)
        const response = await state.engine.sightline.query.retention(projectId, x.params)
        expect(shown(response.result)).toEqual(x.rows)
        if (x.dates) expect(response.result.map((r) => r.date)).toEqual(x.dates)
        expect(response.result.map((r) => r.label)).toEqual(x.rows.map((_, i) => `${x.period ?? 'Day'} ${i % (x.perBlock ?? x.rows.length)}`))
      })
    }
  })
}
