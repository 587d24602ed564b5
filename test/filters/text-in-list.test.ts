/**
 * `SqlHooks.textInList` on every storage: true for a listed text, false for
 * another, null for null, whatever the list's length (DuckDB spells short
 * and long lists differently), with quotes, unicode and SQL in the values
 * bound, never spliced.
 */
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { ConformanceTarget } from '../conformance/target.js'
import { dialectDb } from './dialect-db.js'
import { targets } from './filter-db.js'

const tricky = ["it's", '日本語', "x'); drop table t; --", 'a"b', '']
const lists = {
  empty: [] as string[],
  one: ['a'],
  short: ['a', ...tricky],
  // Past DuckDB's short-list spelling (16): the long one must agree.
  long: [...Array.from({ length: 40 }, (_, i) => `v${i}`), ...tricky],
}

describe.each(targets)('textInList on $name', (target: ConformanceTarget) => {
  const { db, hooks } = dialectDb(target)

  const ask = async (text: string | null, values: string[]): Promise<boolean | null> => {
    const value = text === null ? sql<string | null>`cast(null as text)` : sql<string | null>`cast(${text} as text)`
    const { rows } = await sql<{ r: boolean | null }>`select ${hooks().textInList(value, values)} as r`.execute(db())
    return rows[0]!.r
  }

  it.each(Object.entries(lists))('%s list', async (_, values) => {
    for (const v of values) expect(await ask(v, values), `${JSON.stringify(v)} listed`).toBe(true)
    for (const v of ['zz', "it''s", 'A', ' a']) expect(await ask(v, values), `${JSON.stringify(v)} not listed`).toBe(false)
    if (values.length > 0) expect(await ask(null, values)).toBeNull()
  })
})
