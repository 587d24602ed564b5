/**
 * `SqlHooks.jsonTexts` on every storage that declares it (the named
 * properties of a correlation, contingency-sql.ts): each item of its list
 * against `jsonText` of the same key, on documents worked by hand. A storage
 * without it is skipped: its correlations read one `jsonText` per key.
 */
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { ConformanceTarget } from '../conformance/target.js'
import { dialectDb } from './dialect-db.js'
import { analysisTargets, describePropertySkip } from './filter-db.js'

/** The storages whose hooks read several keys in one pass: DuckDB (one parse of a stored document per read). */
const declares = (target: ConformanceTarget): boolean => target.name.startsWith('duckdb')

const KEYS = ['a', 'b', 'c', 'd', '', 's/t', 'x~y', 'missing', '$browser', 'quote"d']
const DOCUMENTS: Array<[string, Array<string | null>]> = [
  [
    JSON.stringify({ a: 1, b: 'x', c: null, d: { e: [1, 2] }, '': 'empty', 's/t': 'slash', 'x~y': 'tilde', $browser: 'Chrome', 'quote"d': 'q' }),
    ['1', 'x', null, '{"e":[1,2]}', 'empty', 'slash', 'tilde', null, 'Chrome', 'q'],
  ],
  [JSON.stringify({ a: true, b: 'ü "é"\n', d: [] }), ['true', 'ü "é"\n', null, '[]', null, null, null, null, null, null]],
  ['{}', KEYS.map(() => null)],
]

describePropertySkip()
describe.each(analysisTargets)('jsonTexts on $name', (target: ConformanceTarget) => {
  const { db, hooks } = dialectDb(target)

  it.runIf(declares(target))('is declared where correlations use it', () => {
    expect(hooks().jsonTexts).toBeDefined()
  })

  it.runIf(declares(target))('item i is jsonText of key i, for texts, scalars, nested values, JSON null and missing keys', async () => {
    const h = hooks()
    for (const [doc, expected] of DOCUMENTS) {
      const json = sql`cast(${doc} as json)`
      const items = KEYS.map((_, i) => sql`(${h.jsonTexts!(json, KEYS)})[${sql.lit(i + 1)}] as ${sql.ref(`i${i}`)}`)
      const singles = KEYS.map((key, i) => sql`${h.jsonText(json, key)} as ${sql.ref(`s${i}`)}`)
      const { rows } = await sql<Record<string, string | null>>`select ${sql.join([...items, ...singles])}`.execute(db())
      const row = rows[0]!
      expect(KEYS.map((_, i) => row[`i${i}`])).toEqual(expected)
      expect(KEYS.map((_, i) => row[`s${i}`])).toEqual(expected)
    }
  })

  it.runIf(declares(target))('a null document gives a null list', async () => {
    const { rows } = await sql<{ l: unknown }>`select ${hooks().jsonTexts!(sql`cast(null as json)`, ['a', 'b'])} as l`.execute(db())
    expect(rows[0]!.l).toBeNull()
  })
})
