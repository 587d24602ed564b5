import { describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { signedAggregates } from '../src/dialect/signed-aggregates.js'
import { chdbKysely } from './open-chdb.js'

describe('signedAggregates', () => {
  it('adds toInt8(0) to counts, sums and row numbers, their windows included', () => {
    expect(signedAggregates('select count(*), sum(x) over (partition by a, b order by c rows between unbounded preceding and current row) as s from t')).toBe(
      'select (count(*) + toInt8(0)), (sum(x) over (partition by a, b order by c rows between unbounded preceding and current row) + toInt8(0)) as s from t',
    )
    expect(signedAggregates('select row_number() over w, ROW_NUMBER() OVER (order by f(a, b)) from t window w as (order by x)')).toBe(
      'select (row_number() over w + toInt8(0)), (ROW_NUMBER() OVER (order by f(a, b)) + toInt8(0)) from t window w as (order by x)',
    )
    expect(signedAggregates('select sum(case when count(x) > 1 then 1 else 0 end) from t')).toBe('select (sum(case when (count(x) + toInt8(0)) > 1 then 1 else 0 end) + toInt8(0)) from t')
  })

  it('leaves other names, literals, quoted names and placeholders alone', () => {
    const untouched = `select arraySum(x), sumIf(x, y), countDistinct(x), 'count(x)', "sum(", t.count, {p1:String} from t`
    expect(signedAggregates(untouched)).toBe(untouched)
  })
})

describe('counts and sums on chDB through the dialect', () => {
  const db = chdbKysely()

  it('meet negative numbers and signed nulls as in SQL, while a float sum stays a float', async () => {
    const { rows } = await sql<{ c: number; u: number | null; f: number }>`
      select coalesce(lag(rn) over (order by x), -2) as c,
        (select min(v) from (select sum(x) as v from (select arrayJoin([1, 2]) as x) union all select cast(null as bigint)) as un) as u,
        sum(x / 2) over () as f
      from (select x, row_number() over (order by x) as rn from (select arrayJoin([1, 2]) as x)) order by x`.execute(db())
    expect(rows).toEqual([
      { c: -2, u: 3, f: 1.5 },
      { c: 1, u: 3, f: 1.5 },
    ])
  })
})
