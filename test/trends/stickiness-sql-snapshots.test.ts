/**
 * Stickiness's SQL per dialect, compiled with no database from one fixed
 * request (page views of users on the pro plan, daily, the last week): a change of
 * the compiled text shows here before it runs anywhere.
 */
import { describe, expect, it } from 'vitest'
import { stickinessBucket, stickinessKey, stickinessScope } from '../../packages/core/src/query/stickiness/run-stickiness.js'
import { stickinessSql } from '../../packages/core/src/query/stickiness/stickiness-sql.js'
import { decodeTrendRequest } from '../../packages/core/src/query/trends/trend-request.js'
import { SNAPSHOT_DIALECTS, snapshotEnv, snapshotPeriods } from '../query/support/compile-sql.js'

const REQUEST = decodeTrendRequest({
  insight: 'STICKINESS',
  events: [{ id: '$pageview', type: 'events', properties: [{ key: 'plan', value: 'pro' }] }],
  interval: 'day',
  date_from: '-7d',
})

async function compiled(name: keyof typeof SNAPSHOT_DIALECTS) {
  const dialect = SNAPSHOT_DIALECTS[name]
  const env = snapshotEnv(dialect.hooks)
  const [period] = await snapshotPeriods(REQUEST)
  const series = REQUEST.series[0]!
  const scope = stickinessScope(env, REQUEST, series, period!)
  return dialect.compile(stickinessSql(scope, stickinessBucket(period!, scope), stickinessKey(series, scope)))
}

describe('stickiness SQL, compiled with no database', () => {
  it('DuckDB', async () => {
    expect(await compiled('duckdb')).toMatchInlineSnapshot(`
      {
        "parameters": [
          7,
          "$pageview",
          "/plan",
          "pro",
        ],
        "sql": "select c, cast(count(*) as float8) as v from (select a, count(*) as c from (select distinct coalesce(coalesce("ov"."person_id", "e"."person_id"), case when e.distinct_id <> '' then cast(md5("e"."distinct_id") as uuid) end) as a, (case when epoch_us("e"."timestamp") >= 1710284400000000 then 0 + (((epoch_us("e"."timestamp") - 1710284400000000)) // (86400000000)) else -1 end) as b from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id where ((e.project_id = $1 and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz) and true) and ("e"."event" = $2 and coalesce((json_extract_string("e"."properties", $3) = cast($4 as text)), false)) and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz))) as t where a is not null and b >= 0 group by a) as x group by c",
      }
    `)
  })
  it('Postgres', async () => {
    expect(await compiled('postgres')).toMatchInlineSnapshot(`
      {
        "parameters": [
          [
            "2024-03-12T23:00:00.000Z",
            "2024-03-13T23:00:00.000Z",
            "2024-03-14T23:00:00.000Z",
            "2024-03-15T23:00:00.000Z",
            "2024-03-16T23:00:00.000Z",
            "2024-03-17T23:00:00.000Z",
            "2024-03-18T23:00:00.000Z",
            "2024-03-19T23:00:00.000Z",
            "2024-03-20T23:00:00.000Z",
          ],
          7,
          "$pageview",
          "plan",
          "pro",
        ],
        "sql": "select c, cast(count(*) as float8) as v from (select a, count(*) as c from (select distinct coalesce(coalesce("ov"."person_id", "e"."person_id"), case when e.distinct_id <> '' then cast(md5("e"."distinct_id") as uuid) end) as a, cast(width_bucket("e"."timestamp", cast($1 as timestamptz[])) - 1 as bigint) as b from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id where ((e.project_id = $2 and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz) and true) and ("e"."event" = $3 and coalesce((("e"."properties" ->> cast($4 as text)) = cast($5 as text)), false)) and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz))) as t where a is not null and b >= 0 group by a) as x group by c",
      }
    `)
  })
})
