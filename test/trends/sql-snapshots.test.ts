/**
 * A trend series' SQL per dialect, compiled with no database from one fixed
 * request (daily active users of page views, by an event property, the
 * last week) through the builders the runner composes: a change of the
 * compiled text shows here before it runs anywhere.
 */
import { describe, expect, it } from 'vitest'
import { seriesCellsScope, seriesCellsSql } from '../../packages/core/src/query/trends/series-cells-sql.js'
import { planSeries } from '../../packages/core/src/query/trends/series-plan.js'
import { breakdownKeysSql } from '../../packages/core/src/query/trends/series-scope.js'
import { decodeTrendRequest } from '../../packages/core/src/query/trends/trend-request.js'
import { SNAPSHOT_DIALECTS, snapshotEnv, snapshotPeriods } from '../query/support/compile-sql.js'

const REQUEST = decodeTrendRequest({
  events: [{ id: '$pageview', type: 'events', math: 'dau' }],
  breakdown: 'plan',
  breakdown_type: 'event',
  interval: 'day',
  date_from: '-7d',
})

async function compiled(name: keyof typeof SNAPSHOT_DIALECTS) {
  const dialect = SNAPSHOT_DIALECTS[name]
  const env = snapshotEnv(dialect.hooks)
  const [period] = await snapshotPeriods(REQUEST)
  const series = REQUEST.series[0]!
  const plan = planSeries(REQUEST, series, period!)
  const scope = seriesCellsScope(env, REQUEST, series, plan)
  // No histogram breakdown: no bins to read first.
  const keys = breakdownKeysSql(env, REQUEST, scope.sources, REQUEST.breakdowns.map(() => null))
  return dialect.compile(seriesCellsSql(series, plan, { scope, keys, env }, false, null))
}

describe('trend series SQL, compiled with no database', () => {
  it('DuckDB', async () => {
    expect(await compiled('duckdb')).toMatchInlineSnapshot(`
      {
        "parameters": [
          "/plan",
          "$$_posthog_breakdown_null_$$",
          7,
          "$pageview",
        ],
        "sql": "select b, k0, cast(count(a) as float8) as v from (select distinct b, k0, a from (select (case when epoch_us("e"."timestamp") >= 1710284400000000 then 0 + (((epoch_us("e"."timestamp") - 1710284400000000)) // (86400000000)) else -1 end) as b, coalesce(nullif(json_extract_string("e"."properties", $1), ''), cast($2 as text)) as k0, coalesce(coalesce("ov"."person_id", "e"."person_id"), case when e.distinct_id <> '' then cast(md5("e"."distinct_id") as uuid) end) as a from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id where ((e.project_id = $3 and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz) and true) and ("e"."event" = $4) and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz))) as r) as t group by b, k0",
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
          "plan",
          "$$_posthog_breakdown_null_$$",
          7,
          "$pageview",
        ],
        "sql": "select b, k0, cast(count(a) as float8) as v from (select distinct b, k0, a from (select cast(width_bucket("e"."timestamp", cast($1 as timestamptz[])) - 1 as bigint) as b, coalesce(nullif(("e"."properties" ->> cast($2 as text)), ''), cast($3 as text)) as k0, coalesce(coalesce("ov"."person_id", "e"."person_id"), case when e.distinct_id <> '' then cast(md5("e"."distinct_id") as uuid) end) as a from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id where ((e.project_id = $4 and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz) and true) and ("e"."event" = $5) and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz))) as r) as t group by b, k0",
      }
    `)
  })
})
