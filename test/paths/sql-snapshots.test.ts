/**
 * Paths' SQL per dialect, compiled with no database from one fixed request
 * (page views, a start point, a step limit, a cleaning rule): a change of
 * the compiled text shows here before it runs anywhere.
 */
import { describe, expect, it } from 'vitest'
import { resolveDateRange } from '../../packages/core/src/query/dates/resolve-date-range.js'
import { pathEdgesSql } from '../../packages/core/src/query/paths/path-edges-sql.js'
import { pathEventsSql } from '../../packages/core/src/query/paths/path-events-sql.js'
import { pathItems } from '../../packages/core/src/query/paths/path-items.js'
import { pathRowsSql } from '../../packages/core/src/query/paths/path-rows-sql.js'
import { decodePathsRequest } from '../../packages/core/src/query/paths/paths-request.js'
import { SNAPSHOT_DIALECTS, SNAPSHOT_NOW, SNAPSHOT_PROJECT, snapshotEnv } from '../query/support/compile-sql.js'

const REQUEST = decodePathsRequest({
  include_event_types: ['$pageview'],
  start_point: 'https://shop.test/',
  step_limit: 4,
  date_from: '-7d',
  local_path_cleaning_filters: [{ alias: 'item', regex: '/item/\\d+' }],
})

async function compiled(name: keyof typeof SNAPSHOT_DIALECTS) {
  const dialect = SNAPSHOT_DIALECTS[name]
  const env = snapshotEnv(dialect.hooks)
  const range = await resolveDateRange(
    { dateFrom: REQUEST.dateFrom, dateTo: REQUEST.dateTo, explicitDate: REQUEST.explicitDate, interval: 'day' },
    { timezone: SNAPSHOT_PROJECT.timezone, weekStartDay: SNAPSHOT_PROJECT.weekStartDay, now: SNAPSHOT_NOW },
  )
  const items = pathItems(pathEventsSql(env, REQUEST, range, REQUEST.localCleaningRules), env.hooks)
  return dialect.compile(pathEdgesSql(pathRowsSql(items, REQUEST), items, REQUEST, env.hooks))
}

describe('paths SQL, compiled with no database', () => {
  it('DuckDB', async () => {
    expect(await compiled('duckdb')).toMatchInlineSnapshot(`
      {
        "parameters": [
          "$pageview",
          "$pageview",
          7,
          "$pageview",
          "/item/\\d+",
          "item",
          "https://shop.test",
        ],
        "sql": "with pev as (select pid, pd, us, id, coalesce((case when "ev" = $1 then (case when length(coalesce("url", '')) > 1 and substr(coalesce("url", ''), length(coalesce("url", '')), 1) = '/' and substr(coalesce("url", ''), length(coalesce("url", '')) - 1, 1) <> chr(10) then substr(coalesce("url", ''), 1, length(coalesce("url", '')) - 1) else coalesce("url", '') end) else "ev" end), '') as item from (select coalesce("ov"."person_id", "e"."person_id") as pid, case when coalesce("ov"."person_id", "e"."person_id") is null then e.distinct_id end as pd, epoch_us("e"."timestamp") as us, "e"."uuid" as id, "e"."event" as ev,
            case when "e"."event" = $2 then "e"."mp_current_url" end as url,
            cast(null as text) as screen,
            cast(null as text) as hq
          from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id where (e.project_id = $3 and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz) and true) and ("e"."event" = $4)) as e0),
      pname as (select raw, item, case when item = '' then 0 else dense_rank() over (order by item) end as code
          from (select raw, item from (select "raw", regexp_replace("item", $5, $6, 'g') as item from (select item as raw, item from (select distinct item from pev) as d) as r) as n union all select cast(null as text), '...') as i),
      pcode as (select distinct item, code from pname)
      select source, target, value, t from (select (cast(r.idx - 1 as text) || '_' || "d_prev"."item") as source, (cast(r.idx as text) || '_' || "d_item"."item") as target, r.value, r.t from (select idx, prev, item, count(*) as value, cast(avg(dt) as double precision) as t
          from (select pid, pd, idx, item, us, prev, dt, idx = least(len, 4) as last from (select pid, pd, row_number() over v as idx, item, us, lag(item) over v as prev, us - lag(us) over v as dt, count(*) over (partition by pid, pd, sid order by us, id rows between unbounded preceding and unbounded following) as len
            from (select * from (select pid, pd, us, id, item, keep, coalesce(max(case when ends then rn end) over (partition by pid, pd order by us, id rows between unbounded preceding and 1 preceding), 0) as sid, coalesce(max(case when keep and item = (select code from pcode where item = $7) then rn end) over (partition by pid, pd order by us, id rows between unbounded preceding and current row) > coalesce(max(case when ends then rn end) over (partition by pid, pd order by us, id rows between unbounded preceding and 1 preceding), 0), false) as started from (select pid, pd, us, id, item,
            row_number() over w as rn,
            coalesce(lead(us) over w - us >= 1800000000, true) as ends,
            case when lead(us) over w - us < 1800000000 then item <> lead(item) over w else item <> 0 end as keep
          from (select e.pid, e.pd, e.us, e.id, m.code as item from pev as e join pname as m on m.raw = e.item) as ev
          window w as (partition by pid, pd order by us, id)) as m where keep or ends) as s where keep and started) as k window v as (partition by pid, pd, sid order by us, id)) as c where idx <= 4) as r where idx > 1
          group by idx, prev, item
          ) as r left join pcode as "d_prev" on "d_prev".code = r."prev" left join pcode as "d_item" on "d_item".code = r."item") as k
          order by value desc, "source", "target"
          limit 50",
      }
    `)
  })
  it('Postgres', async () => {
    expect(await compiled('postgres')).toMatchInlineSnapshot(`
      {
        "parameters": [
          "https://shop.test",
          "/item/\\d+",
          "item",
          "$pageview",
          "$pageview",
          7,
          "$pageview",
        ],
        "sql": "select source, target, value, t from (select (cast(r.idx - 1 as text) || '_' || "r"."prev") as source, (cast(r.idx as text) || '_' || "r"."item") as target, r.value, r.t from (select idx, prev, item, count(*) as value, cast(avg(dt) as double precision) as t
          from (select pid, pd, idx, item, us, prev, dt, idx = least(len, 4) as last from (select pid, pd, row_number() over v as idx, item, us, lag(item) over v as prev, us - lag(us) over v as dt, count(*) over (partition by pid, pd, sid order by us, id rows between unbounded preceding and unbounded following) as len
            from (select * from (select pid, pd, us, id, item, keep, coalesce(max(case when ends then rn end) over (partition by pid, pd order by us, id rows between unbounded preceding and 1 preceding), 0) as sid, coalesce(max(case when keep and item = $1 then rn end) over (partition by pid, pd order by us, id rows between unbounded preceding and current row) > coalesce(max(case when ends then rn end) over (partition by pid, pd order by us, id rows between unbounded preceding and 1 preceding), 0), false) as started from (select pid, pd, us, id, item,
            row_number() over w as rn,
            coalesce(lead(us) over w - us >= 1800000000, true) as ends,
            case when lead(us) over w - us < 1800000000 then item <> lead(item) over w else item <> '' end as keep
          from (select "pid", "pd", "us", "id", regexp_replace("item", cast($2 as text), cast($3 as text), 'g') as item from (select pid, pd, us, id, coalesce((case when "ev" = $4 then (case when length(coalesce("url", '')) > 1 and substr(coalesce("url", ''), length(coalesce("url", '')), 1) = '/' and substr(coalesce("url", ''), length(coalesce("url", '')) - 1, 1) <> chr(10) then substr(coalesce("url", ''), 1, length(coalesce("url", '')) - 1) else coalesce("url", '') end) else "ev" end), '') as item from (select coalesce("ov"."person_id", "e"."person_id") as pid, case when coalesce("ov"."person_id", "e"."person_id") is null then e.distinct_id end as pd, cast(extract(epoch from "e"."timestamp") * 1000000 as bigint) as us, "e"."uuid" as id, "e"."event" as ev,
            case when "e"."event" = $5 then "e"."mp_current_url" end as url,
            cast(null as text) as screen,
            cast(null as text) as hq
          from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id where (e.project_id = $6 and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz) and true) and ("e"."event" = $7)) as e0) as r) as ev
          window w as (partition by pid, pd order by us, id)) as m where keep or ends) as s where keep and started) as k window v as (partition by pid, pd, sid order by us, id)) as c where idx <= 4) as r where idx > 1
          group by idx, prev, item
          ) as r) as k
          order by value desc, ("source" collate "C"), ("target" collate "C")
          limit 50",
      }
    `)
  })
})
