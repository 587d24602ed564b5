import { describe } from 'vitest'
import type { ConformanceTarget } from '../conformance/target.js'
import { actionCohortCases } from './actions-cohorts.cases.js'
import { captureTruthCases } from './capture.cases.js'
import { csvAnalysisCases } from './csv-analyses.cases.js'
import { isolationCases, refusalCases } from './auth.cases.js'
import { fuzzCases } from './fuzz.cases.js'
import { paginationCases } from './pagination.cases.js'
import { peoplePageCases } from './people-pages.cases.js'
import { walkCases } from './walk.cases.js'

export interface HttpSuiteOptions {
  /** The whole suite; false runs the smoke subset (the walk, tenant isolation, actions and cohorts, capture's refusals, the analyses as CSV and the fuzz). */
  readonly full: boolean
  /** Random requests of the fuzz case, and the time they may take in all. */
  readonly fuzz: { readonly numRuns: number; readonly seconds: number }
}

/**
 * The end-to-end suite of the HTTP interface: `toNodeHandler(createHandler(sightline))`
 * on a real `node:http` server on 127.0.0.1, port 0, called with `fetch`, over one storage.
 */
export function runHttpSuite(target: ConformanceTarget, options: HttpSuiteOptions): void {
  describe(`HTTP end to end: ${target.name}`, () => {
    walkCases(target)
    isolationCases(target)
    actionCohortCases(target)
    captureTruthCases(target)
    // The analyses' tables are read from each database's answers: both storages.
    csvAnalysisCases(target)
    // Refusals never reach the storage, and pages and CSV are the same code on every database: the smoke subset leaves them out.
    if (options.full) {
      refusalCases(target)
      paginationCases(target)
      peoplePageCases(target)
    }
    fuzzCases(target, options.fuzz)
  })
}
