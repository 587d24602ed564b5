import { sql } from 'kysely'
import { ValidationError } from '@sightline/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { compilePropertyFilters } from '../../packages/core/src/query/filters/compile-property-filters.js'
import { decodePropertyFilters } from '../../packages/core/src/query/filters/property-filters.js'
import { ELEMENT_EXAMPLES, ELEMENT_REFUSALS, ELEMENT_ROWS } from './element-examples.js'
import { openFilterDb, analysisTargets, describePropertySkip, type FilterDb } from './filter-db.js'
import { referenceMatches, type RefFilters } from './reference-filter.js'

const compile = (filters: unknown, withChain = true) =>
  compilePropertyFilters(decodePropertyFilters(filters), {
    event: sql.ref('properties'),
    ...(withChain ? { elementsChain: sql.ref('elements_chain') } : {}),
    hooks: duckdbStorage().sql,
  })

describe('element filters: worked examples (reference)', () => {
  it.each(ELEMENT_EXAMPLES)('%s', (_name, filters, expected) => {
    const ids = ELEMENT_ROWS.filter((r) => referenceMatches(filters as RefFilters, r as never)).map((r) => r.id)
    expect(ids).toEqual(expected)
  })
})

describe('element filters: refusals', () => {
  it.each(ELEMENT_REFUSALS)('%s', (_name, filters, names) => {
    const error = (() => {
      try {
        compile(filters)
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(ValidationError)
    expect(JSON.stringify((error as ValidationError).issues)).toMatch(names)
  })
  it('a query without the elements chain refuses element filters', () => {
    expect(() => compile([{ type: 'element', key: 'text', value: 'x' }], false)).toThrow(ValidationError)
  })
})

describePropertySkip()
for (const target of analysisTargets) {
  describe(`element filters: worked examples on ${target.name}`, () => {
    let db: FilterDb
    beforeAll(async () => {
      db = await openFilterDb(target)
      await db.load(ELEMENT_ROWS)
    })
    afterAll(() => db?.close())
    it.each(ELEMENT_EXAMPLES)('%s', async (_name, filters, expected) => {
      expect(await db.select(filters)).toEqual(expected)
    })
  })
}

