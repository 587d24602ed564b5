/**
 * The check of compiled SQL for what breaks on a cluster (README, *A
 * cluster*), and the rewrite that makes IN and JOIN GLOBAL where needed, on
 * hand-written statements: each bad one must be found, each good one left
 * alone. No database runs.
 */
import { describe, expect, it } from 'vitest'
import { clusterSqlProblems } from '../src/dialect/cluster-sql-problems.js'
import { globalSubqueries } from '../src/dialect/global-subqueries.js'

const TABLES = { distributed: new Set(['events']), initiator: new Set(['tmp_a']) }
const problems = (sql: string) => clusterSqlProblems(sql, TABLES)

describe('clusterSqlProblems', () => {
  it.each([
    ['IN over a Distributed table', `select count() from events as e where e.distinct_id in (select distinct_id from events where event = 'x')`, /^IN without GLOBAL over a Distributed table/],
    ['NOT IN over a CTE that reads one', `with f as (select distinct_id from events) select count() from events as e where e.distinct_id not in f`, /^IN without GLOBAL over a Distributed table/],
    ['IN nested in an expression', `select * from events as e where not (e.x in (select x from events))`, /^IN without GLOBAL/],
    ['a LEFT JOIN of a subquery over one', `select * from events as e left join (select distinct_id, min(timestamp) as t from events group by distinct_id) as f on f.distinct_id = e.distinct_id`, /^JOIN without GLOBAL over a Distributed table/],
    ['a JOIN of the table itself, quoted', `select * from "events" as e join "events" as f on f.uuid = e.uuid`, /^JOIN without GLOBAL/],
    ['a qualified name', `select * from db.events as e any inner join db.events as f on f.uuid = e.uuid`, /^JOIN without GLOBAL/],
    ["a JOIN of a table only this node has", `select * from events as e join tmp_a as a on a.tgt = e.distinct_id`, /^JOIN without GLOBAL over a table only this node has/],
    ['EXISTS over one', `select * from events as e where exists (select 1 from events as x where x.uuid = e.uuid)`, /^EXISTS over a Distributed table/],
    ['a comma join over one', `select * from events as e, (select 1 from events) as x`, /^a comma join over a Distributed table/],
    ['the second SELECT of a UNION', `select x from persons union all select x from events as e where e.x in (select x from events)`, /^IN without GLOBAL/],
    ['a subquery of a CTE', `with a as (select * from events as e where e.x in (select x from events)) select * from a`, /^IN without GLOBAL/],
    ['the query of a CREATE ... AS', `create temporary table t engine = Memory as select * from events as e join tmp_a as a on true`, /^JOIN without GLOBAL/],
    ['a mutation of a Distributed table', `alter table events update person_id = null where true`, /^ALTER TABLE of the Distributed table events/],
    ['a lightweight DELETE of one', `delete from events where project_id = {p:Int32}`, /^DELETE FROM of the Distributed table events/],
    ['OPTIMIZE of one', `optimize table events final`, /^OPTIMIZE TABLE of the Distributed table/],
    ['EXCHANGE with one', `exchange tables persons and events`, /^EXCHANGE TABLES of the Distributed table events/],
  ])('finds %s', (_name, sql, problem) => {
    const found = problems(sql)
    expect(found).toHaveLength(1)
    expect(found[0]).toMatch(problem)
  })

  it.each([
    ['joins with tables every node has, and IN over them', `select * from events as e left join person_distinct_id_overrides as ov on ov.distinct_id = e.distinct_id where e.person_id in (select person_uuid from cohort_people)`],
    ['SQL inside literals and quoted names', `select 'x join events in (select 1 from events)' as "join events", e.x from events as e where e.s = 'in (select x from events)'`],
    ['an ARRAY JOIN', `select * from events as e left array join [1, 2] as x`],
    ['subqueries joined on this node', `select * from (select * from events) as a join (select * from events) as b on a.x = b.x`],
    ['a CTE that shadows the table', `with events as (select 1 as x) select * from events join events as b on true`],
    ['GLOBAL IN, GLOBAL NOT IN and GLOBAL JOIN', `select * from events as e global left join (select * from events) as x on x.u = e.u where e.a global in (select a from events) and e.b global not in (select b from tmp_a)`],
    ['IN over a list or a parameter', `select * from events as e where e.x in ({p1:String}, {p2:String}) and e.y in {p3:Array(String)} and position(e.s in 'ab') > 0`],
    ['a scalar subquery (ClickHouse computes it on this node)', `select (select max(timestamp) from events) as m, e.x from events as e`],
    ['mutations of the local tables on every node', `alter table events_local on cluster \`c\` update person_id = null where true`],
    ['adding a column to the Distributed table', `alter table events on cluster \`c\` add column if not exists x String`],
    ['EXCHANGE of copies', `exchange tables "persons__sightline_next" and "persons" on cluster \`c\``],
  ])('leaves %s', (_name, sql) => {
    expect(problems(sql)).toEqual([])
  })

  it('finds nothing on one server, where no table is Distributed', () => {
    expect(clusterSqlProblems(`select * from events as e join events as f on true`, { distributed: new Set(), initiator: new Set() })).toEqual([])
  })
})

describe('globalSubqueries', () => {
  it.each([
    [
      `select count() from events as e where e.distinct_id in (select distinct_id from events)`,
      `select count() from events as e where e.distinct_id global in (select distinct_id from events)`,
    ],
    [
      `with f as (select distinct_id from events) select count() from events as e where e.distinct_id not in f`,
      `with f as (select distinct_id from events) select count() from events as e where e.distinct_id global not in f`,
    ],
    [
      `select * from events as e left join (select d from events) as f on f.d = e.d join tmp_a as a on a.t = e.d left join persons as p on true`,
      `select * from events as e global left join (select d from events) as f on f.d = e.d global join tmp_a as a on a.t = e.d left join persons as p on true`,
    ],
    [
      `select * from (select * from events as e any left join tmp_a as a on true) as x join events as y on true`,
      `select * from (select * from events as e global any left join tmp_a as a on true) as x join events as y on true`,
    ],
  ])('makes an IN or JOIN that needs it GLOBAL, and only those: %s', (sql, expected) => {
    expect(problems(sql)).not.toEqual([])
    const rewritten = globalSubqueries(sql, TABLES)
    expect(rewritten).toBe(expected)
    expect(problems(rewritten)).toEqual([])
  })

  it('leaves the text as it is on one server', () => {
    const sql = `select * from events as e join events as f on true`
    expect(globalSubqueries(sql, { distributed: new Set(), initiator: new Set() })).toBe(sql)
  })
})
