/**
 * `SqlHooks.lists` on every storage that declares it (the ordered funnel's
 * step lists, funnel-lists-sql.ts): each function against values worked by
 * hand. A storage without it is skipped: its funnels take the window passes,
 * which the funnel suites hold against the reference on every storage.
 */
import { sql, type Expression } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { ListHooks } from '@sightline/core/storage'
import type { ConformanceTarget } from '../conformance/target.js'
import { dialectDb } from './dialect-db.js'
import { analysisTargets, describePropertySkip } from './filter-db.js'

// One group of four values, one repeated: 5, 3, 9, 3.
const GROUP = sql`(select * from (values (1, 5), (1, 3), (1, 9), (1, 3)) as t(g, v))`
/**
 * The storages whose hooks declare list functions: DuckDB. Postgres has no lambdas over arrays; ClickHouse has them, but
 * the lists measured no faster than its passes on chDB (benchmarks/README.md, issue 15), so it does not declare them.
 */
const declares = (target: ConformanceTarget): boolean => target.name.startsWith('duckdb')
const n = (v: number | null): Expression<number | null> => (v === null ? sql<number | null>`cast(null as bigint)` : int(v))
const int = (v: number): Expression<number> => sql<number>`cast(${sql.lit(v)} as bigint)`

describePropertySkip()
describe.each(analysisTargets)('list hooks on $name', (target: ConformanceTarget) => {
  const { db, hooks } = dialectDb(target)
  const lists = (): ListHooks => hooks().lists!

  const scalar = async (select: (l: ListHooks) => Expression<unknown>): Promise<number | null> => {
    const { rows } = await sql<{ r: unknown }>`select ${select(lists())} as r from ${GROUP} as t group by g`.execute(db())
    return rows[0]!.r === null ? null : Number(rows[0]!.r)
  }
  /** `f(list)` over the group's list of `v` where `condition`. */
  const over = (condition: Expression<unknown>, f: (l: ListHooks, list: Expression<unknown>) => Expression<unknown>) =>
    scalar((l) => f(l, l.listOf(sql<number>`v`, condition as never)))

  it.runIf(declares(target))('is declared where the funnels use it', () => {
    expect(lists()).toBeDefined()
  })

  describe.runIf(declares(target))('contract', () => {
    it('listOf gathers the rows where the condition holds, repeats kept, and an empty list for none', async () => {
      expect(await over(sql`true`, (l, list) => l.countOf(list, n(3)))).toBe(2)
      expect(await over(sql`v > 3`, (l, list) => l.countOf(list, n(3)))).toBe(0)
      expect(await over(sql`v > 3`, (l, list) => l.countOf(list, n(9)))).toBe(1)
      // No row qualifies: an empty list, so a count of 0 and no least element (not an error, not null counts).
      expect(await over(sql`false`, (l, list) => l.countOf(list, n(3)))).toBe(0)
      expect(await over(sql`false`, (l, list) => l.leastBetween(list, n(0), int(100)))).toBeNull()
    })

    it('leastBetween takes the least element above `after` (exclusive) and up to `upTo` (inclusive)', async () => {
      const least = (after: number | null, upTo: number) => over(sql`true`, (l, list) => l.leastBetween(list, n(after), int(upTo)))
      expect(await least(3, 9)).toBe(5) // 3 itself is not above 3
      expect(await least(2, 9)).toBe(3)
      expect(await least(5, 9)).toBe(9) // 9 is at the bound
      expect(await least(5, 8)).toBeNull() // 9 is past it
      expect(await least(9, 100)).toBeNull()
      expect(await least(null, 100)).toBeNull()
    })

    it('size counts the elements, repeats included', async () => {
      expect(await over(sql`true`, (l, list) => l.size(list))).toBe(4)
      expect(await over(sql`v > 3`, (l, list) => l.size(list))).toBe(2)
      expect(await over(sql`false`, (l, list) => l.size(list))).toBe(0)
    })

    it('countOf counts equal elements, and nothing equals null', async () => {
      expect(await over(sql`true`, (l, list) => l.countOf(list, n(5)))).toBe(1)
      expect(await over(sql`true`, (l, list) => l.countOf(list, n(4)))).toBe(0)
      expect(await over(sql`true`, (l, list) => l.countOf(list, n(null)))).toBe(0)
    })

    it('unnest gives a row per element, none for an empty list, one for `one`', async () => {
      const rowsOf = async (list: (l: ListHooks) => Expression<unknown>) => {
        const { rows } = await sql<{ e: unknown }>`select ${lists().unnest(sql`li`)} as e from (select ${list(lists())} as li from ${GROUP} as t group by g) as s`.execute(db())
        return rows.map((r) => Number(r.e)).sort((a, b) => a - b)
      }
      expect(await rowsOf((l) => l.listOf(sql<number>`v`, sql`true`))).toEqual([3, 3, 5, 9])
      expect(await rowsOf((l) => l.listOf(sql<number>`v`, sql`false`))).toEqual([])
      expect(await rowsOf((l) => l.one(sql<number>`max(v)`))).toEqual([9])
    })

    it('argMax keeps the row with the greatest keys, compared in order, null fields kept', async () => {
      // Keys (2, -7, 1), (2, -5, 0), (2, -5, 4), (1, 100, 100): the first key ties three rows at 2, the second
      // leaves (2, -5, 0) and (2, -5, 4), the third picks (2, -5, 4), whose fields are a = 30, b = null.
      const { rows } = await sql<{ a: unknown; b: unknown }>`select ${lists().field(sql`r`, 'a')} as a, ${lists().field(sql`r`, 'b')} as b from (
          select ${lists().argMax(
            [
              ['a', sql<number>`a`],
              ['b', sql<number | null>`b`],
            ],
            [sql<number>`k0`, sql<number>`k1`, sql<number>`k2`],
          )} as r
          from (values (2, -7, 1, 10, 1), (2, -5, 0, 20, 2), (2, -5, 4, 30, null), (1, 100, 100, 40, 4)) as t(k0, k1, k2, a, b)) as s`.execute(db())
      expect(Number(rows[0]!.a)).toBe(30)
      expect(rows[0]!.b).toBeNull()
    })

    describe('tagged lists, where declared', () => {
      // Times from 1000 to 1010 with step masks (3 bits): 1000 a, 1003 b, 1003 again b, 1005 a and c, 1010 c; one of 0.
      const SHAPE = { from: 1000, to: 1010, tagBits: 3 }
      const ROWS = sql`(select * from (values (1, 1000, 1), (1, 1003, 2), (1, 1003, 2), (1, 1005, 5), (1, 1010, 4), (1, 1007, 0)) as t(g, v, m))`
      const tagged = () => lists().tagged
      /** The sorted values of the group's tagged list whose tag passes `test`. */
      const read = async (test: (tag: Expression<number>) => Expression<unknown>, shape = SHAPE): Promise<number[]> => {
        const t = tagged()!
        const list = t.listOf(sql<number>`cast(v as bigint)`, sql<number>`cast(m as bigint)`, shape)!
        const { rows } = await sql<{ e: unknown }>`select ${lists().unnest(sql`li`)} as e from (
            select ${t.withTag(list, shape, test as never)} as li from ${ROWS} as t group by g) as s`.execute(db())
        return rows.map((r) => Number(r.e)).sort((a, b) => a - b)
      }
      const bit = (k: number) => (tag: Expression<number>) => sql`(${tag} % ${sql.lit(2 ** (k + 1))}) >= ${sql.lit(2 ** k)}`

      it.runIf(declares(target))('is declared on DuckDB', () => {
        expect(tagged()).toBeDefined()
      })

      it.runIf(declares(target))('reads back each value with its own tag, repeats kept, an empty list where no tag passes', async () => {
        expect(await read(bit(0))).toEqual([1000, 1005])
        expect(await read(bit(1))).toEqual([1003, 1003])
        expect(await read(bit(2))).toEqual([1005, 1010])
        // The tag is the whole mask: a test over two bits, and the row tagged 0.
        expect(await read((tag) => sql`${bit(0)(tag)} and ${bit(2)(tag)}`)).toEqual([1005])
        expect(await read((tag) => sql`${tag} = 0`)).toEqual([1007])
        expect(await read((tag) => sql`${tag} > 7`)).toEqual([])
        // The range's own ends come back as they went in.
        expect(await read(bit(2), { from: 1000, to: 1010, tagBits: 30 })).toEqual([1005, 1010])
      })

      it.runIf(declares(target))('holds epoch microseconds of a funnel range with 20 tag bits', async () => {
        const from = 1_709_251_200_000_000 // 2024-03-01
        const shape = { from, to: from + 100 * 86_400_000_000, tagBits: 20 }
        const t = tagged()!
        const list = t.listOf(sql<number>`cast(v as bigint)`, sql<number>`cast(m as bigint)`, shape)!
        const { rows } = await sql<{ e: unknown }>`select ${lists().unnest(sql`li`)} as e from (
            select ${t.withTag(list, shape, (tag) => sql`${tag} = ${sql.lit(2 ** 19)}`)} as li
            from (values (1, cast(${sql.lit(shape.to)} as bigint), ${sql.lit(2 ** 19)}), (1, cast(${sql.lit(from)} as bigint), 1)) as t(g, v, m) group by g) as s`.execute(db())
        expect(rows.map((r) => String(r.e))).toEqual([String(shape.to)])
      })

      it.runIf(declares(target))('declines a shape whose elements would not fit, so the caller gathers a list per test', () => {
        const t = tagged()!
        const value = sql<number>`v`
        // 2^30 tags over 2^34 microseconds (about 4.8 hours) need 64 bits.
        expect(t.listOf(value, value, { from: 0, to: 2 ** 34, tagBits: 30 })).toBeNull()
        expect(t.listOf(value, value, { from: 0, to: 2 ** 33 - 1, tagBits: 30 })).not.toBeNull()
        expect(t.listOf(value, value, { from: 0.5, to: 10, tagBits: 3 })).toBeNull()
        expect(t.listOf(value, value, { from: 10, to: 9, tagBits: 3 })).toBeNull()
        expect(() => t.withTag(value, { from: 0, to: 2 ** 34, tagBits: 30 }, () => sql`true`)).toThrow(RangeError)
      })
    })

    it('refuses a field name it would have to quote', () => {
      expect(() => lists().argMax([['t1; drop', sql<number>`1`]], [sql<number>`1`])).toThrow(/field name/)
      expect(() => lists().field(sql`r`, "t1') from x; --")).toThrow(/field name/)
    })
  })

  it.skipIf(declares(target))('is not declared: this storage has no list functions, and its ordered funnels take the window passes', () => {
    expect(hooks().lists).toBeUndefined()
  })
})
