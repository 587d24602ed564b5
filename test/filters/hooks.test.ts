import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { duckdbSqlHooks } from '../../packages/storage-duckdb/src/duckdb-sql-hooks.js'
import { compilePropertyFilters, type PropertyFilterSources } from '../../packages/core/src/query/filters/compile-property-filters.js'
import { decodePropertyFilters } from '../../packages/core/src/query/filters/property-filters.js'

const bare: PropertyFilterSources = { event: sql.ref('properties'), hooks: duckdbSqlHooks }
const compile = (filters: unknown, sources: PropertyFilterSources) => compilePropertyFilters(decodePropertyFilters(filters), sources)

describe('the cohort and hogql hooks of the property-filter compiler', () => {
  it('without a hook, cohort and hogql filters are refused clearly, naming the type', () => {
    for (const type of ['cohort', 'hogql']) {
      expect(() => compile([{ key: 'id', value: 3, type }], bare)).toThrow(new RegExp(`filter type "${type}" is not available in this version`))
    }
  })

  it('with them, each filter is handed to its hook with its path from `properties`', () => {
    const calls: unknown[] = []
    const sources: PropertyFilterSources = {
      ...bare,
      cohort: (id, path) => (calls.push(['cohort', id, path]), sql`true`),
      hogql: (expression, path) => (calls.push(['hogql', expression, path]), sql`true`),
    }
    compile({ type: 'AND', values: [{ key: 'id', value: '12', type: 'cohort' }, { type: 'OR', values: [{ key: 'properties.$browser = 1', type: 'hogql' }] }] }, sources)
    compile([{ key: 'id', value: 7, type: 'cohort', operator: 'not_in' }], sources)
    expect(calls).toEqual([
      ['cohort', 12, ['properties', 'values', 0]],
      ['hogql', 'properties.$browser = 1', ['properties', 'values', 1, 'values', 0]],
      ['cohort', 7, ['properties', 0]],
    ])
  })

  it('not_in negates the membership; in, exact and no operator do not', () => {
    const sources: PropertyFilterSources = { ...bare, cohort: () => sql`member` }
    const text = (operator?: string) => compile([{ key: 'id', value: 1, type: 'cohort', ...(operator && { operator }) }], sources).toOperationNode()
    expect(JSON.stringify(text('not_in'))).toContain('not ')
    for (const operator of [undefined, 'in', 'exact']) expect(JSON.stringify(text(operator))).not.toContain('not ')
  })
})
