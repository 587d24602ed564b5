import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConformanceTarget, FreshDatabase } from '../conformance/target.js'
import { ANALYSIS_ROWS, analysisDecisionCases, trendFilterCases } from './analysis-rows.js'
import { DEFINITION_ROWS } from './definition-rows.js'
import { INSIGHT_ROWS } from './insight-rows.js'
import { PLUGIN_ROWS } from './plugin-rows.js'
import { rowCases } from './row-cases.js'
import { openRowsWorld, type State } from './rows-world.js'

/**
 * One test per row of shared/spec/interface.md section 4 (4.1 plugins, 4.2
 * insights, 4.5 event definitions), sent through `createHandler` on one
 * storage: the status, and every documented field of the answer (present,
 * with its type; values where the document, DECISIONS.md or the
 * http-adapter README fixes them). Every insight row is sent again with
 * `?format=csv` and `?format=json` (4.2: all insight endpoints take `format`).
 *
 * Every row holds the document's types strictly, except where the
 * http-adapter README decides otherwise: there the row checks the decision
 * precisely (a field null exactly when the README says, typed otherwise).
 */
/** Every row of interface section 4 on one storage, through `createHandler`. */
export function interfaceRowCases(target: ConformanceTarget): void {
  describe(`interface section 4, row by row: ${target.name}`, () => {
    let db: FreshDatabase
    let s: State
    beforeAll(async () => {
      ;({ db, s } = await openRowsWorld(target))
    })
    afterAll(async () => {
      await s?.w.close()
      await db?.dispose()
    })
    const state = () => s
    describe('4.1 plugins', () => rowCases(PLUGIN_ROWS, state))
    describe('4.2 insights', () => {
      rowCases(INSIGHT_ROWS, state)
      rowCases(ANALYSIS_ROWS, state)
      trendFilterCases(state)
      analysisDecisionCases(state)
    })
    describe('4.5 event definitions', () => rowCases(DEFINITION_ROWS, state))
    it('no row answered a 500', () => expect(s.serverErrors).toEqual([]))
  })
}
