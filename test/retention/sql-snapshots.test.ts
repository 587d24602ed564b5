/**
 * Retention's SQL per dialect, compiled with no database from one fixed
 * request (weekly, first-time, a property filter and a breakdown): a change
 * of the compiled text shows here before it runs anywhere.
 */
import { describe, expect, it } from 'vitest'
import { retentionCells } from '../../packages/core/src/query/retention/run-retention.js'
import { decodeRetentionRequest } from '../../packages/core/src/query/retention/retention-request.js'
import { retentionWindow } from '../../packages/core/src/query/retention/retention-window.js'
import { SNAPSHOT_DIALECTS, SNAPSHOT_NOW, SNAPSHOT_PROJECT, snapshotEnv } from '../query/support/compile-sql.js'

const REQUEST = decodeRetentionRequest({
  target_entity: { id: 'signed_up', type: 'events' },
  returning_entity: { id: '$pageview', type: 'events' },
  retention_type: 'retention_first_time',
  period: 'Week',
  total_intervals: 3,
  date_to: '2024-03-18',
  properties: [{ key: 'plan', value: 'pro' }],
  breakdown: 'country',
  breakdown_type: 'event',
})

async function compiled(name: keyof typeof SNAPSHOT_DIALECTS) {
  const dialect = SNAPSHOT_DIALECTS[name]
  const window = await retentionWindow(REQUEST, { timeZone: SNAPSHOT_PROJECT.timezone, weekStartDay: SNAPSHOT_PROJECT.weekStartDay, now: SNAPSHOT_NOW, earliestEvent: async () => null })
  // The counts' SQL (a result's); actors lists name persons by id ('id', the default).
  return dialect.compile(retentionCells(snapshotEnv(dialect.hooks), REQUEST, window, 'key'))
}

describe('retention SQL, compiled with no database', () => {
  it('DuckDB', async () => {
    expect(await compiled('duckdb')).toMatchInlineSnapshot(`
      {
        "parameters": [
          "/country",
          "signed_up",
          "$pageview",
          7,
          "/plan",
          "pro",
          "signed_up",
          "$pageview",
          "$pageview",
          "signed_up",
          "/country",
          "signed_up",
          "$pageview",
          7,
          "/plan",
          "pro",
          "signed_up",
          "$pageview",
          "$pageview",
          "signed_up",
        ],
        "sql": "with ev as (select coalesce(coalesce("ov"."person_id", "e"."person_id"), cast(md5("e"."distinct_id") as uuid)) as a, coalesce(json_extract_string("e"."properties", $1), '') as v, epoch_us("e"."timestamp") as u, (case when ("e"."event" = $2) then 1 else 0 end) as st, 0 as st0, (case when ("e"."event" = $3) then 1 else 0 end) as rt from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id where (e.project_id = $4 and coalesce((json_extract_string("e"."properties", $5) = cast($6 as text)), false)) and (("e"."event" = $7) or ("e"."event" = $8)) and e.event in ($9, $10)), evw as (select coalesce(coalesce("ov"."person_id", "e"."person_id"), cast(md5("e"."distinct_id") as uuid)) as a, coalesce(json_extract_string("e"."properties", $11), '') as v, epoch_us("e"."timestamp") as u, (case when ("e"."event" = $12) then 1 else 0 end) as st, 0 as st0, (case when ("e"."event" = $13) then 1 else 0 end) as rt from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id where (e.project_id = $14 and e.timestamp >= cast('2024-03-03T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-24T22:59:59.999999Z' as timestamptz) and coalesce((json_extract_string("e"."properties", $15) = cast($16 as text)), false)) and (("e"."event" = $17) or ("e"."event" = $18)) and e.event in ($19, $20)), act as (select a, v, (case when u >= 1709506800000000 then 0 + (((u - 1709506800000000)) // (604800000000)) else -1 end) as b, max(st) as s, sum(rt) as r from evw where u >= 1709506800000000 and u < 1711321200000000 group by a, v, 3), coh as (select a, v, (case when f >= 1709506800000000 then 0 + (((f - 1709506800000000)) // (604800000000)) else -1 end) as i from (select a, v, min(case when st = 1 then u end) as f, min(case when st0 = 1 then u end) as f0 from ev group by a, v) as fs where f >= 1709506800000000 and f < 1711321200000000)
          select a, v, i, cast(0 as bigint) as k from coh
          union all
          select c.a, c.v, c.i, r.b - c.i as k from coh as c join act as r on r.a = c.a and r.v = c.v and r.b > c.i and r.b < c.i + 3 and r.r >= 1",
      }
    `)
  })
  it('Postgres', async () => {
    expect(await compiled('postgres')).toMatchInlineSnapshot(`
      {
        "parameters": [
          "country",
          "signed_up",
          "$pageview",
          7,
          "plan",
          "pro",
          "signed_up",
          "$pageview",
          "$pageview",
          "signed_up",
          "country",
          "signed_up",
          "$pageview",
          7,
          "plan",
          "pro",
          "signed_up",
          "$pageview",
          "$pageview",
          "signed_up",
          7,
          7,
        ],
        "sql": "with ev as (select "e"."distinct_id" as a, coalesce(("e"."properties" ->> cast($1 as text)), '') as v, cast(extract(epoch from "e"."timestamp") * 1000000 as bigint) as u, (case when ("e"."event" = $2) then 1 else 0 end) as st, 0 as st0, (case when ("e"."event" = $3) then 1 else 0 end) as rt from events as e  where (e.project_id = $4 and coalesce((("e"."properties" ->> cast($5 as text)) = cast($6 as text)), false)) and (("e"."event" = $7) or ("e"."event" = $8)) and e.event in ($9, $10)), evw as (select "e"."distinct_id" as a, coalesce(("e"."properties" ->> cast($11 as text)), '') as v, cast(extract(epoch from "e"."timestamp") * 1000000 as bigint) as u, (case when ("e"."event" = $12) then 1 else 0 end) as st, 0 as st0, (case when ("e"."event" = $13) then 1 else 0 end) as rt from events as e  where (e.project_id = $14 and e.timestamp >= cast('2024-03-03T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-24T22:59:59.999999Z' as timestamptz) and coalesce((("e"."properties" ->> cast($15 as text)) = cast($16 as text)), false)) and (("e"."event" = $17) or ("e"."event" = $18)) and e.event in ($19, $20)), act as (select coalesce(cast(pdi.person_uuid as text), x.a) as a, x.v, x.b, max(x.s) as s, sum(x.r) as r from (select a, v, (case when u >= 1709506800000000 then 0 + (cast((u - 1709506800000000) as bigint) / cast(604800000000 as bigint)) else -1 end) as b, max(st) as s, sum(rt) as r from evw where u >= 1709506800000000 and u < 1711321200000000 group by a, v, 3) as x left join person_distinct_ids as pdi on pdi.project_id = $21 and pdi.distinct_id = x.a group by 1, 2, 3), coh as (select a, v, (case when f >= 1709506800000000 then 0 + (cast((f - 1709506800000000) as bigint) / cast(604800000000 as bigint)) else -1 end) as i from (select coalesce(cast(pdi.person_uuid as text), x.a) as a, x.v, min(x.f) as f, min(x.f0) as f0 from (select a, v, min(case when st = 1 then u end) as f, min(case when st0 = 1 then u end) as f0 from ev group by a, v) as x left join person_distinct_ids as pdi on pdi.project_id = $22 and pdi.distinct_id = x.a group by 1, 2) as fs where f >= 1709506800000000 and f < 1711321200000000)
          select a, v, i, cast(0 as bigint) as k from coh
          union all
          select c.a, c.v, c.i, r.b - c.i as k from coh as c join act as r on r.a = c.a and r.v = c.v and r.b > c.i and r.b < c.i + 3 and r.r >= 1",
      }
    `)
  })
})
