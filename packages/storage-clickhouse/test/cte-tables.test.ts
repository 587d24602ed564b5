import { describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createTable, cteTables, mayQualifyColumns } from '../src/dialect/cte-tables.js'
import { chdbKysely } from './open-chdb.js'

describe('cteTables', () => {
  it('leaves a statement whose CTEs are each read once', () => {
    expect(cteTables('with a as (select 1 as x) select x from a', 'q_')).toBeNull()
    expect(cteTables('select 1', 'q_')).toBeNull()
  })

  it('makes every CTE of the first WITH a table when one is read twice; reads renamed, the name kept as the alias', () => {
    const steps = cteTables(
      `select * from (with a as (select 1 as x), "b" as (select a.x from a join a as a2 on a2.x = a.x) select b.x from b left join a on a.x = b.x where 'from a' <> {p1:String}) as bounded limit 10`,
      'q_',
    )
    expect(steps).toEqual({
      tables: [
        { table: 'q_a', query: 'select 1 as x' },
        { table: 'q_b', query: 'select a.x from q_a as "a" join q_a as a2 on a2.x = a.x' },
      ],
      query: `select * from ( select b.x from q_b as "b" left join q_a as "a" on a.x = b.x where 'from a' <> {p1:String}) as bounded limit 10`,
      drops: ['q_a', 'q_b'],
    })
  })
})

describe('createTable', () => {
  it('names the columns of a qualified star by their bare names when no other column has that name', () => {
    expect(createTable('q_a', 'select 1 as x', ['x'], false)).toBe('create table q_a engine = Memory as select 1 as x')
    expect(createTable('q_a', 'select 1 as x', null, true)).toBe('create temporary table q_a engine = Memory as select 1 as x')
    expect(createTable('q_a', 'select r.*, m.ts from r join m on true', ['r.tgt', 'r.ts', 'm.ts', 'multi'], false)).toBe(
      'create table q_a engine = Memory as select `r.tgt` as `tgt`, `r.ts` as `r.ts`, `m.ts` as `m.ts`, `multi` as `multi` from (select r.*, m.ts from r join m on true)',
    )
  })

  it('describes only a qualified star over two joins or more', () => {
    expect(mayQualifyColumns('select r.*, 1 from r join a on true join b on true')).toBe(true)
    expect(mayQualifyColumns('select r.*, 1 from r left join a on true')).toBe(false)
    expect(mayQualifyColumns('select x from r join a on true join b on true')).toBe(false)
  })
})

describe('CTEs read more than once, on chDB through the dialect', () => {
  const db = chdbKysely()
  // chDB's session keeps temporary tables: system.tables lists them with is_temporary.
  const leftovers = async () => Number((await sql<{ n: number }>`select count() as n from system.tables where name like 'sightline_cte_%'`.execute(db())).rows[0]!.n)

  it('answer as inline CTEs do, and leave no table behind, also when the query fails', async () => {
    // b's qualified star over two joins: its columns would be named a.x and a.y without the renaming.
    const { rows } = await sql<{ x: number; n: number }>`with a as (select arrayJoin([1, 2, 3]) as x, 0 as y), b as (select a.*, count() over () as n from a join a as a2 on a2.x = a.x join a as a3 on a3.x = a.x where a.x > ${1})
      select g.x, g.n from b as g join a on a.x = g.x order by g.x`.execute(db())
    expect(rows).toEqual([
      { x: 2, n: 2 },
      { x: 3, n: 2 },
    ])
    expect(await leftovers()).toBe(0)
    await expect(sql`with a as (select 1 as x) select throwIf(a.x = 1, 'boom') from a join a as a2 on a2.x = a.x`.execute(db())).rejects.toThrow(/boom/)
    expect(await leftovers()).toBe(0)
  })
})
