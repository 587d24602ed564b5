import { describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { nullableWindowShifts } from '../src/dialect/nullable-window-shifts.js'
import { chdbKysely } from './open-chdb.js'

describe('nullableWindowShifts', () => {
  it('wraps the first argument of lag and lead, nested calls and offsets included', () => {
    expect(nullableWindowShifts('select lag(d) over w, LEAD(f(a, b), 2) over w from t')).toBe('select lag(toNullable(d)) over w, LEAD(toNullable(f(a, b)), 2) over w from t')
    expect(nullableWindowShifts('select lead(us) over w - us, lag(case when x then (1) else lag(y) over v end) over w')).toBe(
      'select lead(toNullable(us)) over w - us, lag(toNullable(case when x then (1) else lag(toNullable(y)) over v end)) over w',
    )
  })

  it('leaves literals, quoted names, placeholders and other names alone', () => {
    const untouched = `select 'lag(x)', 'it\\'s lag(', "lag(", flag(x), lagInFrame(x), t.lag, {p1:Array(String)} from t`
    expect(nullableWindowShifts(untouched)).toBe(untouched)
    expect(nullableWindowShifts("select lag({p1:String}) over w, lag('a,b)') over w")).toBe("select lag(toNullable({p1:String})) over w, lag(toNullable('a,b)')) over w")
  })
})

describe('lag and lead on chDB through the dialect', () => {
  const db = chdbKysely()

  it('are null where the partition has no such row, as in SQL', async () => {
    const { rows } = await sql<{ x: number; p: number | null; n: number | null; p2: number | null }>`
      select x, lag(x) over (order by x) as p, lead(x) over (order by x) as n, lag(x, 2) over (order by x) as p2
      from (select arrayJoin([1, 2, 5]) as x) order by x`.execute(db())
    expect(rows).toEqual([
      { x: 1, p: null, n: 2, p2: null },
      { x: 2, p: 1, n: 5, p2: null },
      { x: 5, p: 2, n: null, p2: 1 },
    ])
  })
})
