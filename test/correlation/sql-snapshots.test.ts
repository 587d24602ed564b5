/**
 * Funnel correlation's SQL per dialect, compiled with no database from one
 * fixed request (the events of a 2-step funnel's actors, one event name
 * left out) through the builder the runner calls (correlationSql): a change
 * of the compiled text shows here before it runs anywhere.
 */
import { describe, expect, it } from 'vitest'
import { correlationSql } from '../../packages/core/src/query/correlation/contingency-sql.js'
import { decodeCorrelationRequest } from '../../packages/core/src/query/correlation/decode-correlation-params.js'
import { SNAPSHOT_DIALECTS, snapshotFunnelEnv } from '../query/support/compile-sql.js'

const REQUEST = decodeCorrelationRequest({
  events: [
    { id: '$pageview', type: 'events', order: 0 },
    { id: 'signed_up', type: 'events', order: 1 },
  ],
  date_from: '-7d',
  funnel_window_days: 14,
  funnel_correlation_type: 'events',
  funnel_correlation_exclude_event_names: ['$autocapture'],
})

// The runner reads the steps' event names (an action step adds its steps' events); these steps name two events.
const STEP_NAMES = ['$pageview', 'signed_up']

async function compiled(name: keyof typeof SNAPSHOT_DIALECTS) {
  const dialect = SNAPSHOT_DIALECTS[name]
  const env = await snapshotFunnelEnv(dialect.hooks, REQUEST.funnel)
  return dialect.compile(correlationSql(dialect.hooks, REQUEST, env, STEP_NAMES))
}

describe('funnel correlation SQL, compiled with no database', () => {
  it('DuckDB', async () => {
    expect(await compiled('duckdb')).toMatchInlineSnapshot(`
      {
        "parameters": [
          "$pageview",
          "signed_up",
          7,
          [
            "$pageview",
            "signed_up",
          ],
          7,
          [
            "$pageview",
            "signed_up",
          ],
          [
            "$autocapture",
          ],
        ],
        "sql": "with fe as not materialized (select fe0.*, (case when ((sm % 2) >= 1) then 1 when ((sm % 4) >= 2) then 2 else 3 end) as fs from (select coalesce(coalesce("ov"."person_id", "e"."person_id"), cast(md5("e"."distinct_id") as uuid)) as tgt, epoch_us("e"."timestamp") as ts, "e"."uuid" as uuid,
          cast((case when ("e"."event" = $1) then 1 else 0 end) + (case when ("e"."event" = $2) then 2 else 0 end) as bigint) as sm,
          cast(0 as bigint) as xm,
          '' as b0
          
          
          from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id where (e.project_id = $3 and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz) and true) and list_contains($4, "e"."event")) as fe0),
      runs as not materialized (select tgt, '' as p0, ts, uuid, sm, xm, fs, b0 from fe),
      sl as (select tgt, p0, list_transform(list_filter(tl, lambda x: (((x % 4) % 2) >= 1)), lambda x: x // 4 + 1710284400000000) as l0, list_transform(list_filter(tl, lambda x: (((x % 4) % 4) >= 2)), lambda x: x // 4 + 1710284400000000) as l1, lo, hi from (
            select tgt, p0, list((ts - 1710284400000000) * 4 + sm) as tl, min(case when ((sm % 2) >= 1) then ts end) as lo, max(case when ((sm % 2) >= 1) then ts end) + 1209600000000 as hi from runs group by tgt, p0) as g),
      sc0 as (select tgt, p0, easy, lo, hi, unnest((case when easy = 1 then l0 else list_value(lo) end)) as c0, l0, l1
              from (select s.*, (case when len(l0) * (len(l1)) <= 64 * (len(l0) + (len(l1))) then 1 else 0 end) as easy from sl as s where lo is not null) as s),
      sc1 as (select tgt, p0, easy, lo, hi, c0, (case when g1 = c0 then list_min(list_filter(l1, lambda x: x > c0 and x <= c0 + 1209600000000)) else g1 end) as c1, (case when g1 = c0 then 1 else 0 end) as x1, l0, l1
              from (select s.*, list_min(list_filter(l1, lambda x: x > c0 - 1 and x <= c0 + 1209600000000)) as g1 from sc0 as s) as s),
      slo as (select tgt, p0, sure, lo, hi, reached, struct_extract(best, 't1') as t1, struct_extract(best, 't2') as t2 from (
            select tgt, p0, (case when min(easy) = 1 and max(x1) = 0 then 1 else 0 end) as sure, min(lo) as lo, max(hi) as hi, max(lvl) - 1 as reached, arg_max(struct_pack(t1 := c0, t2 := c1), struct_pack(k0 := lvl, k1 := -coalesce(c1, c0), k2 := c0)) as best
            from (select s.*, (case when c1 is null then 1 else 2 end) as lvl from sc1 as s) as s group by tgt, p0) as b),
      inr as (select r.* from runs as r join (select tgt, p0, lo, hi from slo where sure = 0) as sb on (sb.tgt = r.tgt and sb.p0 = r.p0) where r.ts >= sb.lo and r.ts <= sb.hi),
      grp as (select r.*, (case when m.ts is null then 0 else 1 end) as multi from inr as r left join (select tgt, p0, ts from inr as s group by tgt, p0, ts having count(*) > 1 and (min(sm) <> max(sm) or min(xm) <> max(xm))) as m on (m.tgt = r.tgt and m.p0 = r.p0) and m.ts = r.ts),
      occ as (select o.*, row_number() over (partition by o.tgt order by o.ts, o.k1, o.k2, o.uuid, o.k3) as seq
          from (select g.tgt, g.p0, g.ts, g.uuid, g.fs, g.multi, g.sm as mask, g.b0, 1 as kind, lv.l as lvl, (case when g.multi = 1 then lv.l else g.fs end) as k1, (case when g.multi = 1 then g.fs else 0 end) as k2, (case when g.multi = 1 then 0 else 4 - lv.l end) as k3
            from grp as g cross join (values (1, 1), (2, 2)) as lv(l, bv) where ((g.sm % (2 * cast(lv.bv as bigint))) >= lv.bv)) as o),
      t1 as (select tgt, p0, min(seq) as seq, min(ts) as st, min(ts) as t1,
          coalesce(',' || substr(min(case when multi = 1 then lpad(cast(seq as varchar), 20, '0') || cast(uuid as varchar) end), 21) || ',', ',') as sts
          from occ where kind = 1 and lvl = 1 group by tgt, p0, ts),
      i2 as (select tgt, p0, seq, 0 as k, st, t1, cast(null as bigint) as ts, cast(null as varchar) as u, 0 as multi from t1
      union all
      select tgt, p0, seq, 1, cast(null as bigint), cast(null as bigint), ts, cast(uuid as varchar), multi from occ where kind = 1 and lvl = 2),
      w2 as (select r.tgt, r.p0, r.seq, r.k, r.ts, r.u, r.multi, r.st,
            r.tb, lt.st as cst, lt.t1 as c1
            
            from (select tgt, p0, seq, k, ts, u, multi, st,
            max(case when k = 0 then seq end) over (partition by tgt order by seq rows between unbounded preceding and current row) as tb from i2) as r left join t1 as lt on (lt.tgt = r.tgt and lt.p0 = r.p0) and lt.seq = r.tb),
      v2 as (select w.tgt, w.p0, w.seq, w.ts, w.u, w.multi, w.tb, w.tb as seg, w.cst, w.c1, ms.sts as psts, (w.k = 1 and (w.tb is not null) and w.ts - w.cst <= 1209600000000 and not coalesce((w.multi = 1 and w.c1 = w.ts and strpos(ms.sts, ',' || w.u || ',') > 0), false)) as vp, (w.k = 2 and (w.tb is not null) and w.ts - w.cst <= 1209600000000) as vx
          from w2 as w left join (select tgt, p0, seq, sts from t1 where sts <> ',') as ms on (ms.tgt = w.tgt and ms.p0 = w.p0) and ms.seq = w.tb
          where w.k in (1, 2) and (w.tb is not null)),
      g2 as (select tgt, p0, tb, seg, max(cst) as st, max(c1) as c1, max(psts) as psts,
          min(case when vp then seq end) as q, min(case when vp then ts end) as qts, min(case when vp then lpad(cast(seq as varchar), 20, '0') || (case when multi = 1 then u else '' end) end) as qu
          
          from v2 group by tgt, p0, tb, seg),
      t2 as (select g.tgt, g.p0, g.q as seq, g.st, g.c1 as t1, g.qts as t2,
          (case when substr(g.qu, 21) = '' then ',' else (case when g.c1 = g.qts then coalesce(g.psts, ',') else ',' end) || substr(g.qu, 21) || ',' end) as sts
          from g2 as g where g.q is not null),
      alld as (select t.tgt, t.p0, 1 as lvl, t.seq, 1 as clean, 0 as marked, t.t1, cast(null as bigint) as t2 from t1 as t
      union all
      select t.tgt, t.p0, 2 as lvl, t.seq, 1 as clean, 0 as marked, t.t1, t.t2 from t2 as t),
      outp as (select tgt, p0, lvl - 1 as reached, t1, t2 from (
              select a.*, row_number() over (partition by tgt order by lvl desc, seq) as rn from alld as a) as r where rn = 1),
      outcome as (select tgt, p0, reached, t1, t2 from slo where sure = 1
      union all
      select * from outp),
      ca as (select tgt, reached, t1 as first_ts, t2 as final_ts from outcome)
      select 0 as tot, e.event as ev, cast(null as varchar) as k, cast(null as varchar) as v, count(distinct case when ca.reached = 1 then ca.tgt end) as s, count(distinct case when ca.reached <> 1 then ca.tgt end) as f
            from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id join ca on ca.tgt = coalesce(coalesce("ov"."person_id", "e"."person_id"), cast(md5("e"."distinct_id") as uuid)) where ((e.project_id = $5 and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz)) and epoch_us("e"."timestamp") > ca.first_ts and epoch_us("e"."timestamp") < coalesce(ca.final_ts, ca.first_ts + 1209600000000) and not coalesce(list_contains($6, "e"."event"), false)) and not coalesce(list_contains($7, "e"."event"), false) group by e.event
      union all
      select 1 as tot, cast(null as varchar) as ev, cast(null as varchar) as k, cast(null as varchar) as v,
          count(case when ca.reached = 1 then 1 end) as s, count(case when ca.reached <> 1 then 1 end) as f from ca",
      }
    `)
  })
  it('Postgres', async () => {
    expect(await compiled('postgres')).toMatchInlineSnapshot(`
      {
        "parameters": [
          "$pageview",
          "signed_up",
          7,
          [
            "$pageview",
            "signed_up",
          ],
          7,
          [
            "$pageview",
            "signed_up",
          ],
          [
            "$autocapture",
          ],
        ],
        "sql": "with fe as (select fe0.*, (case when ((sm % 2) >= 1) then 1 when ((sm % 4) >= 2) then 2 else 3 end) as fs from (select coalesce(coalesce("ov"."person_id", "e"."person_id"), cast(md5("e"."distinct_id") as uuid)) as tgt, cast(extract(epoch from "e"."timestamp") * 1000000 as bigint) as ts, "e"."uuid" as uuid,
          cast((case when ("e"."event" = $1) then 1 else 0 end) + (case when ("e"."event" = $2) then 2 else 0 end) as bigint) as sm,
          cast(0 as bigint) as xm,
          '' as b0
          
          
          from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id where (e.project_id = $3 and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz) and true) and ("e"."event" = any(cast($4 as text[])))) as fe0),
      runs as (select tgt, '' as p0, ts, uuid, sm, xm, fs, b0 from fe),
      inr as (select r.* from runs as r join (select tgt, p0, min(ts) as lo, max(ts) + 1209600000000 as hi from runs where ((sm % 2) >= 1) group by tgt, p0) as sb on (sb.tgt = r.tgt and sb.p0 = r.p0) where r.ts >= sb.lo and r.ts <= sb.hi),
      grp as (select r.*, (case when m.ts is null then 0 else 1 end) as multi from inr as r left join (select tgt, p0, ts from inr as s group by tgt, p0, ts having count(*) > 1 and (min(sm) <> max(sm) or min(xm) <> max(xm))) as m on (m.tgt = r.tgt and m.p0 = r.p0) and m.ts = r.ts),
      occ as (select o.*, row_number() over (partition by o.tgt order by o.ts, o.k1, o.k2, o.uuid, o.k3) as seq
          from (select g.tgt, g.p0, g.ts, g.uuid, g.fs, g.multi, g.sm as mask, g.b0, 1 as kind, lv.l as lvl, (case when g.multi = 1 then lv.l else g.fs end) as k1, (case when g.multi = 1 then g.fs else 0 end) as k2, (case when g.multi = 1 then 0 else 4 - lv.l end) as k3
            from grp as g cross join (values (1, 1), (2, 2)) as lv(l, bv) where ((g.sm % (2 * cast(lv.bv as bigint))) >= lv.bv)) as o),
      t1 as (select tgt, p0, min(seq) as seq, min(ts) as st, min(ts) as t1,
          coalesce(',' || substr(min(case when multi = 1 then lpad(cast(seq as varchar), 20, '0') || cast(uuid as varchar) end), 21) || ',', ',') as sts
          from occ where kind = 1 and lvl = 1 group by tgt, p0, ts),
      i2 as (select tgt, p0, seq, 0 as k, st, t1, cast(null as bigint) as ts, cast(null as varchar) as u, 0 as multi from t1
      union all
      select tgt, p0, seq, 1, cast(null as bigint), cast(null as bigint), ts, cast(uuid as varchar), multi from occ where kind = 1 and lvl = 2),
      w2 as (select tgt, p0, seq, k, ts, u, multi, st,
            max(case when k = 0 then seq end) over (partition by tgt order by seq rows between unbounded preceding and current row) as tb, max(case when k = 0 then st end) over (partition by tgt order by seq rows between unbounded preceding and current row) as cst, max(case when k = 0 then t1 end) over (partition by tgt order by seq rows between unbounded preceding and current row) as c1
            
            from i2),
      v2 as (select w.tgt, w.p0, w.seq, w.ts, w.u, w.multi, w.tb, w.tb as seg, w.cst, w.c1, ms.sts as psts, (w.k = 1 and (w.tb is not null) and w.ts - w.cst <= 1209600000000 and not coalesce((w.multi = 1 and w.c1 = w.ts and strpos(ms.sts, ',' || w.u || ',') > 0), false)) as vp, (w.k = 2 and (w.tb is not null) and w.ts - w.cst <= 1209600000000) as vx
          from w2 as w left join (select tgt, p0, seq, sts from t1 where sts <> ',') as ms on (ms.tgt = w.tgt and ms.p0 = w.p0) and ms.seq = w.tb
          where w.k in (1, 2) and (w.tb is not null)),
      g2 as (select tgt, p0, tb, seg, max(cst) as st, max(c1) as c1, max(psts) as psts,
          min(case when vp then seq end) as q, min(case when vp then ts end) as qts, min(case when vp then lpad(cast(seq as varchar), 20, '0') || (case when multi = 1 then u else '' end) end) as qu
          
          from v2 group by tgt, p0, tb, seg),
      t2 as (select g.tgt, g.p0, g.q as seq, g.st, g.c1 as t1, g.qts as t2,
          (case when substr(g.qu, 21) = '' then ',' else (case when g.c1 = g.qts then coalesce(g.psts, ',') else ',' end) || substr(g.qu, 21) || ',' end) as sts
          from g2 as g where g.q is not null),
      alld as (select t.tgt, t.p0, 1 as lvl, t.seq, 1 as clean, 0 as marked, t.t1, cast(null as bigint) as t2 from t1 as t
      union all
      select t.tgt, t.p0, 2 as lvl, t.seq, 1 as clean, 0 as marked, t.t1, t.t2 from t2 as t),
      outcome as (select tgt, p0, lvl - 1 as reached, t1, t2 from (
              select a.*, row_number() over (partition by tgt order by lvl desc, seq) as rn from alld as a) as r where rn = 1),
      ca as (select tgt, reached, t1 as first_ts, t2 as final_ts from outcome)
      select 0 as tot, e.event as ev, cast(null as varchar) as k, cast(null as varchar) as v, count(distinct case when ca.reached = 1 then ca.tgt end) as s, count(distinct case when ca.reached <> 1 then ca.tgt end) as f
            from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id join ca on ca.tgt = coalesce(coalesce("ov"."person_id", "e"."person_id"), cast(md5("e"."distinct_id") as uuid)) where ((e.project_id = $5 and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz)) and cast(extract(epoch from "e"."timestamp") * 1000000 as bigint) > ca.first_ts and cast(extract(epoch from "e"."timestamp") * 1000000 as bigint) < coalesce(ca.final_ts, ca.first_ts + 1209600000000) and not coalesce(("e"."event" = any(cast($6 as text[]))), false)) and not coalesce(("e"."event" = any(cast($7 as text[]))), false) group by e.event
      union all
      select 1 as tot, cast(null as varchar) as ev, cast(null as varchar) as k, cast(null as varchar) as v,
          count(case when ca.reached = 1 then 1 end) as s, count(case when ca.reached <> 1 then 1 end) as f from ca",
      }
    `)
  })
})
