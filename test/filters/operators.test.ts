import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openFilterDb, analysisTargets, describePropertySkip, type FilterDb } from './filter-db.js'
import { referenceMatches, type RefFilters } from './reference-filter.js'
import { EXAMPLES, ROWS } from './worked-examples.js'

describe('property filters: worked examples (reference)', () => {
  it.each(EXAMPLES)('%s', (_name, filters, expected) => {
    const ids = ROWS.filter((r) => referenceMatches(filters as RefFilters, r as never)).map((r) => r.id)
    expect(ids).toEqual(expected)
  })
})

describePropertySkip()
for (const target of analysisTargets) {
  describe(`property filters: worked examples on ${target.name}`, () => {
    let db: FilterDb
    beforeAll(async () => {
      db = await openFilterDb(target)
      await db.load(ROWS)
    })
    afterAll(() => db?.close())
    it.each(EXAMPLES)('%s', async (_name, filters, expected) => {
      expect(await db.select(filters)).toEqual(expected)
    })
  })
}

