import { describe } from 'vitest'
import { actionCases } from './actions.cases.js'
import { captureCases } from './capture.cases.js'
import { cohortActorsQueryCases } from './cohort-actors-query.cases.js'
import { cohortBehaviorCases } from './cohort-behaviors.cases.js'
import { cohortCases } from './cohorts.cases.js'
import { definitionCases, eventDefinitionEditCases } from './definitions.cases.js'
import { groupCases } from './groups.cases.js'
import { dashboardCases } from './dashboards.cases.js'
import { dashboardTextCases } from './dashboard-texts.cases.js'
import { insightCases } from './insights.cases.js'
import { insightResultCases } from './insight-results.cases.js'
import { insightDashboardResultCases } from './insights.dashboard.cases.js'
import { pluginCases } from './plugins.cases.js'
import { personCases } from './persons.cases.js'
import { resourceCases } from './resources.cases.js'
import type { ConformanceTarget } from './target.js'

export type { ConformanceTarget, FreshDatabase } from './target.js'

/**
 * The storage conformance suite: every case, unchanged, against one storage
 * target. It checks what was written through raw reads of the database.
 */
export function runStorageConformance(target: ConformanceTarget): void {
  describe(`storage conformance: ${target.name}`, () => {
    resourceCases(target)
    captureCases(target)
    personCases(target)
    groupCases(target)
    definitionCases(target)
    eventDefinitionEditCases(target)
    insightCases(target)
    insightResultCases(target)
    insightDashboardResultCases(target)
    dashboardCases(target)
    dashboardTextCases(target)
    pluginCases(target)
    actionCases(target)
    cohortCases(target)
    cohortBehaviorCases(target)
    cohortActorsQueryCases(target)
  })
}
