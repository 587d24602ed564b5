import { describe, expect, it } from 'vitest'
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql, type CompiledQuery, type RawBuilder } from 'kysely'
import { RoutingCompiler, type Route } from '../src/companion/routing-compiler.js'
import { ClickHouseQueryCompiler } from '../src/dialect/clickhouse-query-compiler.js'

/** Compiles with the routing compiler (Postgres's as the companion's) and no database: each statement's route and its SQL. */
function routed(): (statement: RawBuilder<unknown>) => { route: Route | undefined; sql: string } {
  const routes = new WeakMap<CompiledQuery, Route>()
  const db = new Kysely<any>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => new PostgresIntrospector(k),
      createQueryCompiler: () => new RoutingCompiler(new ClickHouseQueryCompiler(), new PostgresQueryCompiler(), routes),
    },
  })
  return (statement) => {
    const compiled = statement.compile(db)
    return { route: routes.get(compiled), sql: compiled.sql }
  }
}

describe('RoutingCompiler', () => {
  const route = routed()

  it('sends a read of events to ClickHouse, with the copied tables it joins', () => {
    const source = sql`events as e`
    const r = route(sql`select count(*) from ${source} left join cohort_people as cp on cp.person_uuid = e.person_id where e.event = ${'x'}`)
    expect(r.route).toEqual({ side: 'clickhouse', reads: new Set(['cohort_people']) })
    expect(r.sql).toContain('{p1:String}')
    // Distinct ids are versioned rows that core tells the adapter, not a copy: nothing to refresh.
    expect(route(sql`select count(*) from events as e left join person_distinct_ids as pdi on pdi.distinct_id = e.distinct_id`).route).toEqual({ side: 'clickhouse', reads: new Set() })
  })

  it('keeps writes and DDL of events, and reads of other tables, on the companion', () => {
    expect(route(sql`update events set person_id = ${'p'} where distinct_id = ${'d'}`).route).toEqual({ side: 'companion', writes: new Set() })
    expect(route(sql`create table events (uuid uuid)`).route?.side).toBe('companion')
    const persons = route(sql`select * from persons where project_id = ${1}`)
    expect(persons).toEqual({ route: { side: 'companion', writes: new Set() }, sql: 'select * from persons where project_id = $1' })
  })

  it('marks the copied tables a companion write changes', () => {
    expect(route(sql`insert into cohort_people (project_id) values (${1})`).route).toEqual({ side: 'companion', writes: new Set(['cohort_people']) })
    expect(route(sql`delete from cohort_people as c where c.project_id = ${1}`).route).toEqual({ side: 'companion', writes: new Set(['cohort_people']) })
    expect(route(sql`delete from person_distinct_id_overrides as o where o.project_id = ${1}`).route).toEqual({ side: 'companion', writes: new Set() })
  })

  it('does not take a table named in a bound value for one the statement reads', () => {
    expect(route(sql`select * from persons where properties = ${'from events join persons'}`).route).toEqual({ side: 'companion', writes: new Set() })
  })
})
