/**
 * Lifecycle's SQL per dialect, compiled with no database from one fixed
 * request (page views, weekly, the last four weeks): a change of the
 * compiled text shows here before it runs anywhere.
 */
import { describe, expect, it } from 'vitest'
import { lifecycleStatuses } from '../../packages/core/src/query/lifecycle/run-lifecycle.js'
import { lifecycleCountsSql } from '../../packages/core/src/query/lifecycle/lifecycle-sql.js'
import { decodeTrendRequest } from '../../packages/core/src/query/trends/trend-request.js'
import { SNAPSHOT_DIALECTS, snapshotEnv, snapshotPeriods } from '../query/support/compile-sql.js'

const REQUEST = decodeTrendRequest({
  insight: 'LIFECYCLE',
  events: [{ id: '$pageview', type: 'events' }],
  interval: 'week',
  date_from: '-28d',
})

async function compiled(name: keyof typeof SNAPSHOT_DIALECTS) {
  const dialect = SNAPSHOT_DIALECTS[name]
  const [period] = await snapshotPeriods(REQUEST)
  return dialect.compile(lifecycleCountsSql(lifecycleStatuses(snapshotEnv(dialect.hooks), REQUEST, REQUEST.series[0]!, period!, 'key')))
}

describe('lifecycle SQL, compiled with no database', () => {
  it('DuckDB', async () => {
    expect(await compiled('duckdb')).toMatchInlineSnapshot(`
      {
        "parameters": [
          7,
          "$pageview",
        ],
        "sql": "select b, status, cast(count(*) as float8) as v from (with l as (select p, b, cb, lag(b) over (partition by p order by b) as prev, lead(b) over (partition by p order by b) as next from (select coalesce(coalesce("ov"."person_id", "e"."person_id"), cast(md5("e"."distinct_id") as uuid)) as p, (case when epoch_us("e"."timestamp") >= 1707692400000000 then 0 + (((epoch_us("e"."timestamp") - 1707692400000000)) // (604800000000)) else -1 end) as b, min((case when epoch_us("p"."created_at") >= 1707692400000000 then 0 + (((epoch_us("p"."created_at") - 1707692400000000)) // (604800000000)) else -1 end)) as cb from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id left join persons as p on p.project_id = e.project_id and p.uuid = coalesce("ov"."person_id", "e"."person_id") where ((e.project_id = $1 and e.timestamp >= cast('2024-02-11T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-24T22:59:59.999999Z' as timestamptz) and true) and ("e"."event" = $2) and e.timestamp >= cast('2024-02-11T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-24T22:59:59.999999Z' as timestamptz)) group by 1, 2) as a where b >= 0)
          select p, b, (case when prev = b - 1 then 'returning' when prev is null and b = cb then 'new' else 'resurrecting' end) as status from l
          union all select p, b + 1 as b, 'dormant' as status from l where next is null or next > b + 1) as s group by b, status",
      }
    `)
  })
  it('Postgres', async () => {
    expect(await compiled('postgres')).toMatchInlineSnapshot(`
      {
        "parameters": [
          [
            "2024-02-11T23:00:00.000Z",
            "2024-02-18T23:00:00.000Z",
            "2024-02-25T23:00:00.000Z",
            "2024-03-03T23:00:00.000Z",
            "2024-03-10T23:00:00.000Z",
            "2024-03-17T23:00:00.000Z",
            "2024-03-24T23:00:00.000Z",
          ],
          [
            "2024-02-11T23:00:00.000Z",
            "2024-02-18T23:00:00.000Z",
            "2024-02-25T23:00:00.000Z",
            "2024-03-03T23:00:00.000Z",
            "2024-03-10T23:00:00.000Z",
            "2024-03-17T23:00:00.000Z",
            "2024-03-24T23:00:00.000Z",
          ],
          7,
          "$pageview",
        ],
        "sql": "select b, status, cast(count(*) as float8) as v from (with l as (select p, b, cb, lag(b) over (partition by p order by b) as prev, lead(b) over (partition by p order by b) as next from (select coalesce(coalesce("ov"."person_id", "e"."person_id"), cast(md5("e"."distinct_id") as uuid)) as p, cast(width_bucket("e"."timestamp", cast($1 as timestamptz[])) - 1 as bigint) as b, min(cast(width_bucket("p"."created_at", cast($2 as timestamptz[])) - 1 as bigint)) as cb from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id left join persons as p on p.project_id = e.project_id and p.uuid = coalesce("ov"."person_id", "e"."person_id") where ((e.project_id = $3 and e.timestamp >= cast('2024-02-11T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-24T22:59:59.999999Z' as timestamptz) and true) and ("e"."event" = $4) and e.timestamp >= cast('2024-02-11T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-24T22:59:59.999999Z' as timestamptz)) group by 1, 2) as a where b >= 0)
          select p, b, (case when prev = b - 1 then 'returning' when prev is null and b = cb then 'new' else 'resurrecting' end) as status from l
          union all select p, b + 1 as b, 'dormant' as status from l where next is null or next > b + 1) as s group by b, status",
      }
    `)
  })
})
