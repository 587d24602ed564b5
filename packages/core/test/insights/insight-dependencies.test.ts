import { describe, expect, it } from 'vitest'
import { insightDependencies } from '../../src/insights/insight-dependencies.js'

describe('insightDependencies', () => {
  it('paths named by a HogQL expression depend on person properties and on any event, as every HogQL does', () => {
    const deps = insightDependencies('paths', { include_event_types: ['hogql'], paths_hogql_expression: "concat(event, ' ', person.properties.plan)" }, [])
    expect(deps.onPersonChange).toBe(true)
    expect(deps.onMerge).toBe(true)
    expect(deps.unboundedBefore).toBe(true)
    expect(deps.unboundedAfter).toBe(true)
  })

  it('plain page-view paths depend on merges (paths are per person) but not on person properties nor on events outside the range', () => {
    const deps = insightDependencies('paths', { include_event_types: ['$pageview'], paths_hogql_expression: '  ' }, [])
    expect(deps).toEqual({ unboundedBefore: false, unboundedAfter: false, lookbackMs: 0, onMerge: true, onPersonChange: false, movesWithNow: false })
  })
})
