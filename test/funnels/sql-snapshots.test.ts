/**
 * Funnels' SQL per dialect, compiled with no database from fixed requests
 * (ordered, strict with an exclusion, unordered, ordered trends, a
 * step-attribution breakdown) through the builders the runner calls
 * (funnel-sql.ts): a change of the compiled text shows here before it runs
 * anywhere.
 */
import { describe, expect, it } from 'vitest'
import { bucketLimitOf, DEFAULT_QUERY_LIMITS } from '../../packages/core/src/query/execution/query-limits.js'
import { funnelStepsSql, funnelTrendsSql } from '../../packages/core/src/query/funnels/funnel-sql.js'
import { decodeFunnelRequest } from '../../packages/core/src/query/funnels/params/decode-funnel-params.js'
import { SNAPSHOT_DIALECTS, snapshotFunnelEnv } from '../query/support/compile-sql.js'

const STEPS = {
  events: [
    { id: '$pageview', type: 'events', order: 0 },
    { id: 'signed_up', type: 'events', order: 1 },
    { id: 'purchased', type: 'events', order: 2 },
  ],
  date_from: '-7d',
  funnel_window_days: 14,
}

const REQUESTS = {
  ordered: decodeFunnelRequest(STEPS),
  strictExcluding: decodeFunnelRequest({ ...STEPS, funnel_order_type: 'strict', exclusions: [{ id: 'logged_out', type: 'events', funnel_from_step: 0, funnel_to_step: 1 }] }),
  // With an exclusion (over the whole funnel, as unordered funnels require): the window passes (an unordered funnel of distinct
  // events alone takes one window pass, unordered-window.test.ts).
  unorderedExcluding: decodeFunnelRequest({ ...STEPS, funnel_order_type: 'unordered', exclusions: [{ id: 'logged_out', type: 'events', funnel_from_step: 0, funnel_to_step: 2 }] }),
  orderedTrends: decodeFunnelRequest({ ...STEPS, funnel_viz_type: 'trends', interval: 'day' }),
  stepAttribution: decodeFunnelRequest({ ...STEPS, breakdown: '$browser', breakdown_type: 'event', breakdown_attribution_type: 'step', breakdown_attribution_value: 1 }),
  strictLastTouch: decodeFunnelRequest({ ...STEPS, funnel_order_type: 'strict', breakdown: '$browser', breakdown_type: 'event', breakdown_attribution_type: 'last_touch' }),
}

async function compiled(name: keyof typeof SNAPSHOT_DIALECTS, which: keyof typeof REQUESTS) {
  const dialect = SNAPSHOT_DIALECTS[name]
  const request = REQUESTS[which]
  const env = await snapshotFunnelEnv(dialect.hooks, request)
  const { query } = request.viz === 'trends' ? funnelTrendsSql(dialect.hooks, request, env, bucketLimitOf(DEFAULT_QUERY_LIMITS)) : funnelStepsSql(dialect.hooks, request, env)
  return dialect.compile(query)
}

describe('funnel SQL, compiled with no database', () => {
  describe('ordered, 3 steps', () => {
    it('DuckDB', async () => {
      expect(await compiled('duckdb', 'ordered')).toMatchInlineSnapshot(`
        {
          "parameters": [
            "$pageview",
            "signed_up",
            "purchased",
            7,
            [
              "$pageview",
              "signed_up",
              "purchased",
            ],
          ],
          "sql": "with fe as not materialized (select fe0.*, (case when ((sm % 2) >= 1) then 1 when ((sm % 4) >= 2) then 2 when ((sm % 8) >= 4) then 3 else 4 end) as fs from (select coalesce(coalesce("ov"."person_id", "e"."person_id"), cast(md5("e"."distinct_id") as uuid)) as tgt, epoch_us("e"."timestamp") as ts, "e"."uuid" as uuid,
            cast((case when ("e"."event" = $1) then 1 else 0 end) + (case when ("e"."event" = $2) then 2 else 0 end) + (case when ("e"."event" = $3) then 4 else 0 end) as bigint) as sm,
            cast(0 as bigint) as xm,
            '' as b0
            
            
            from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id where (e.project_id = $4 and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz) and true) and list_contains($5, "e"."event")) as fe0),
        runs as not materialized (select tgt, '' as p0, ts, uuid, sm, xm, fs, b0 from fe),
        sl as (select tgt, p0, list_transform(list_filter(tl, lambda x: (((x % 8) % 2) >= 1)), lambda x: x // 8 + 1710284400000000) as l0, list_transform(list_filter(tl, lambda x: (((x % 8) % 4) >= 2)), lambda x: x // 8 + 1710284400000000) as l1, list_transform(list_filter(tl, lambda x: (((x % 8) % 8) >= 4)), lambda x: x // 8 + 1710284400000000) as l2, lo, hi from (
              select tgt, p0, list((ts - 1710284400000000) * 8 + sm) as tl, min(case when ((sm % 2) >= 1) then ts end) as lo, max(case when ((sm % 2) >= 1) then ts end) + 1209600000000 as hi from runs group by tgt, p0) as g),
        sc0 as (select tgt, p0, easy, lo, hi, unnest((case when easy = 1 then l0 else list_value(lo) end)) as c0, l0, l1, l2
                from (select s.*, (case when len(l0) * (len(l1) + len(l2)) <= 64 * (len(l0) + (len(l1) + len(l2))) then 1 else 0 end) as easy from sl as s where lo is not null) as s),
        sc1 as (select tgt, p0, easy, lo, hi, c0, (case when g1 = c0 then list_min(list_filter(l1, lambda x: x > c0 and x <= c0 + 1209600000000)) else g1 end) as c1, (case when g1 = c0 then 1 else 0 end) as x1, l0, l1, l2
                from (select s.*, list_min(list_filter(l1, lambda x: x > c0 - 1 and x <= c0 + 1209600000000)) as g1 from sc0 as s) as s),
        sc2 as (select tgt, p0, easy, lo, hi, c0, c1, x1, (case when g2 = c1 then list_min(list_filter(l2, lambda x: x > c1 and x <= c0 + 1209600000000)) else g2 end) as c2, (case when g2 = c1 then 1 else 0 end) as x2, l0, l1, l2
                from (select s.*, list_min(list_filter(l2, lambda x: x > c1 - 1 and x <= c0 + 1209600000000)) as g2 from sc1 as s) as s),
        slo as (select tgt, p0, sure, lo, hi, reached, struct_extract(best, 't1') as t1, struct_extract(best, 't2') as t2, struct_extract(best, 't3') as t3 from (
              select tgt, p0, (case when min(easy) = 1 and max(x1 + x2) = 0 then 1 else 0 end) as sure, min(lo) as lo, max(hi) as hi, max(lvl) - 1 as reached, arg_max(struct_pack(t1 := c0, t2 := c1, t3 := c2), struct_pack(k0 := lvl, k1 := -coalesce(c2, c1, c0), k2 := c0)) as best
              from (select s.*, (case when c1 is null then 1 when c2 is null then 2 else 3 end) as lvl from sc2 as s) as s group by tgt, p0) as b),
        inr as (select r.* from runs as r join (select tgt, p0, lo, hi from slo where sure = 0) as sb on (sb.tgt = r.tgt and sb.p0 = r.p0) where r.ts >= sb.lo and r.ts <= sb.hi),
        grp as (select r.*, (case when m.ts is null then 0 else 1 end) as multi from inr as r left join (select tgt, p0, ts from inr as s group by tgt, p0, ts having count(*) > 1 and (min(sm) <> max(sm) or min(xm) <> max(xm))) as m on (m.tgt = r.tgt and m.p0 = r.p0) and m.ts = r.ts),
        occ as (select o.*, row_number() over (partition by o.tgt order by o.ts, o.k1, o.k2, o.uuid, o.k3) as seq
            from (select g.tgt, g.p0, g.ts, g.uuid, g.fs, g.multi, g.sm as mask, g.b0, 1 as kind, lv.l as lvl, (case when g.multi = 1 then lv.l else g.fs end) as k1, (case when g.multi = 1 then g.fs else 0 end) as k2, (case when g.multi = 1 then 0 else 6 - lv.l end) as k3
              from grp as g cross join (values (1, 1), (2, 2), (3, 4)) as lv(l, bv) where ((g.sm % (2 * cast(lv.bv as bigint))) >= lv.bv)) as o),
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
        i3 as (select tgt, p0, seq, 0 as k, st, t1, t2, cast(null as bigint) as ts, cast(null as varchar) as u, 0 as multi from t2
        union all
        select tgt, p0, seq, 1, cast(null as bigint), cast(null as bigint), cast(null as bigint), ts, cast(uuid as varchar), multi from occ where kind = 1 and lvl = 3),
        w3 as (select r.tgt, r.p0, r.seq, r.k, r.ts, r.u, r.multi, r.st,
              r.tb, lt.st as cst, lt.t1 as c1, lt.t2 as c2
              
              from (select tgt, p0, seq, k, ts, u, multi, st,
              max(case when k = 0 then seq end) over (partition by tgt order by seq rows between unbounded preceding and current row) as tb from i3) as r left join t2 as lt on (lt.tgt = r.tgt and lt.p0 = r.p0) and lt.seq = r.tb),
        v3 as (select w.tgt, w.p0, w.seq, w.ts, w.u, w.multi, w.tb, w.tb as seg, w.cst, w.c1, w.c2, ms.sts as psts, (w.k = 1 and (w.tb is not null) and w.ts - w.cst <= 1209600000000 and not coalesce((w.multi = 1 and w.c2 = w.ts and strpos(ms.sts, ',' || w.u || ',') > 0), false)) as vp, (w.k = 2 and (w.tb is not null) and w.ts - w.cst <= 1209600000000) as vx
            from w3 as w left join (select tgt, p0, seq, sts from t2 where sts <> ',') as ms on (ms.tgt = w.tgt and ms.p0 = w.p0) and ms.seq = w.tb
            where w.k in (1, 2) and (w.tb is not null)),
        g3 as (select tgt, p0, tb, seg, max(cst) as st, max(c1) as c1, max(c2) as c2, max(psts) as psts,
            min(case when vp then seq end) as q, min(case when vp then ts end) as qts, min(case when vp then lpad(cast(seq as varchar), 20, '0') || (case when multi = 1 then u else '' end) end) as qu
            
            from v3 group by tgt, p0, tb, seg),
        t3 as (select g.tgt, g.p0, g.q as seq, g.st, g.c1 as t1, g.c2 as t2, g.qts as t3,
            (case when substr(g.qu, 21) = '' then ',' else (case when g.c2 = g.qts then coalesce(g.psts, ',') else ',' end) || substr(g.qu, 21) || ',' end) as sts
            from g3 as g where g.q is not null),
        alld as (select t.tgt, t.p0, 1 as lvl, t.seq, 1 as clean, 0 as marked, t.t1, cast(null as bigint) as t2, cast(null as bigint) as t3 from t1 as t
        union all
        select t.tgt, t.p0, 2 as lvl, t.seq, 1 as clean, 0 as marked, t.t1, t.t2, cast(null as bigint) as t3 from t2 as t
        union all
        select t.tgt, t.p0, 3 as lvl, t.seq, 1 as clean, 0 as marked, t.t1, t.t2, t.t3 from t3 as t),
        outp as (select tgt, p0, lvl - 1 as reached, t1, t2, t3 from (
                select a.*, row_number() over (partition by tgt order by lvl desc, seq) as rn from alld as a) as r where rn = 1),
        outcome as (select tgt, p0, reached, t1, t2, t3 from slo where sure = 1
        union all
        select * from outp),
        fin as (select o.tgt, o.p0, o.p0 as v0, cast(null as bigint) as rn, o.reached, o.t1, o.t2, o.t3 from outcome as o)
        select count(case when reached >= 0 then 1 end) as c0, count(case when reached >= 1 then 1 end) as c1, count(case when reached >= 2 then 1 end) as c2, cast(avg((case when reached >= 1 and t2 - t1 > 0 then t2 - t1 end)) as double precision) / 1000000.0 as a1, cast(quantile_cont((case when reached >= 1 and t2 - t1 > 0 then t2 - t1 end), 0.5) as double precision) / 1000000.0 as m1, cast(avg((case when reached >= 2 and t3 - t2 > 0 then t3 - t2 end)) as double precision) / 1000000.0 as a2, cast(quantile_cont((case when reached >= 2 and t3 - t2 > 0 then t3 - t2 end), 0.5) as double precision) / 1000000.0 as m2 from fin",
        }
      `)
    })
    it('Postgres', async () => {
      expect(await compiled('postgres', 'ordered')).toMatchInlineSnapshot(`
        {
          "parameters": [
            "$pageview",
            "signed_up",
            "purchased",
            7,
            [
              "$pageview",
              "signed_up",
              "purchased",
            ],
          ],
          "sql": "with fe as (select fe0.*, (case when ((sm % 2) >= 1) then 1 when ((sm % 4) >= 2) then 2 when ((sm % 8) >= 4) then 3 else 4 end) as fs from (select coalesce(coalesce("ov"."person_id", "e"."person_id"), cast(md5("e"."distinct_id") as uuid)) as tgt, cast(extract(epoch from "e"."timestamp") * 1000000 as bigint) as ts, "e"."uuid" as uuid,
            cast((case when ("e"."event" = $1) then 1 else 0 end) + (case when ("e"."event" = $2) then 2 else 0 end) + (case when ("e"."event" = $3) then 4 else 0 end) as bigint) as sm,
            cast(0 as bigint) as xm,
            '' as b0
            
            
            from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id where (e.project_id = $4 and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz) and true) and ("e"."event" = any(cast($5 as text[])))) as fe0),
        runs as (select tgt, '' as p0, ts, uuid, sm, xm, fs, b0 from fe),
        inr as (select r.* from runs as r join (select tgt, p0, min(ts) as lo, max(ts) + 1209600000000 as hi from runs where ((sm % 2) >= 1) group by tgt, p0) as sb on (sb.tgt = r.tgt and sb.p0 = r.p0) where r.ts >= sb.lo and r.ts <= sb.hi),
        grp as (select r.*, (case when m.ts is null then 0 else 1 end) as multi from inr as r left join (select tgt, p0, ts from inr as s group by tgt, p0, ts having count(*) > 1 and (min(sm) <> max(sm) or min(xm) <> max(xm))) as m on (m.tgt = r.tgt and m.p0 = r.p0) and m.ts = r.ts),
        occ as (select o.*, row_number() over (partition by o.tgt order by o.ts, o.k1, o.k2, o.uuid, o.k3) as seq
            from (select g.tgt, g.p0, g.ts, g.uuid, g.fs, g.multi, g.sm as mask, g.b0, 1 as kind, lv.l as lvl, (case when g.multi = 1 then lv.l else g.fs end) as k1, (case when g.multi = 1 then g.fs else 0 end) as k2, (case when g.multi = 1 then 0 else 6 - lv.l end) as k3
              from grp as g cross join (values (1, 1), (2, 2), (3, 4)) as lv(l, bv) where ((g.sm % (2 * cast(lv.bv as bigint))) >= lv.bv)) as o),
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
        i3 as (select tgt, p0, seq, 0 as k, st, t1, t2, cast(null as bigint) as ts, cast(null as varchar) as u, 0 as multi from t2
        union all
        select tgt, p0, seq, 1, cast(null as bigint), cast(null as bigint), cast(null as bigint), ts, cast(uuid as varchar), multi from occ where kind = 1 and lvl = 3),
        w3 as (select tgt, p0, seq, k, ts, u, multi, st,
              max(case when k = 0 then seq end) over (partition by tgt order by seq rows between unbounded preceding and current row) as tb, max(case when k = 0 then st end) over (partition by tgt order by seq rows between unbounded preceding and current row) as cst, max(case when k = 0 then t1 end) over (partition by tgt order by seq rows between unbounded preceding and current row) as c1, max(case when k = 0 then t2 end) over (partition by tgt order by seq rows between unbounded preceding and current row) as c2
              
              from i3),
        v3 as (select w.tgt, w.p0, w.seq, w.ts, w.u, w.multi, w.tb, w.tb as seg, w.cst, w.c1, w.c2, ms.sts as psts, (w.k = 1 and (w.tb is not null) and w.ts - w.cst <= 1209600000000 and not coalesce((w.multi = 1 and w.c2 = w.ts and strpos(ms.sts, ',' || w.u || ',') > 0), false)) as vp, (w.k = 2 and (w.tb is not null) and w.ts - w.cst <= 1209600000000) as vx
            from w3 as w left join (select tgt, p0, seq, sts from t2 where sts <> ',') as ms on (ms.tgt = w.tgt and ms.p0 = w.p0) and ms.seq = w.tb
            where w.k in (1, 2) and (w.tb is not null)),
        g3 as (select tgt, p0, tb, seg, max(cst) as st, max(c1) as c1, max(c2) as c2, max(psts) as psts,
            min(case when vp then seq end) as q, min(case when vp then ts end) as qts, min(case when vp then lpad(cast(seq as varchar), 20, '0') || (case when multi = 1 then u else '' end) end) as qu
            
            from v3 group by tgt, p0, tb, seg),
        t3 as (select g.tgt, g.p0, g.q as seq, g.st, g.c1 as t1, g.c2 as t2, g.qts as t3,
            (case when substr(g.qu, 21) = '' then ',' else (case when g.c2 = g.qts then coalesce(g.psts, ',') else ',' end) || substr(g.qu, 21) || ',' end) as sts
            from g3 as g where g.q is not null),
        alld as (select t.tgt, t.p0, 1 as lvl, t.seq, 1 as clean, 0 as marked, t.t1, cast(null as bigint) as t2, cast(null as bigint) as t3 from t1 as t
        union all
        select t.tgt, t.p0, 2 as lvl, t.seq, 1 as clean, 0 as marked, t.t1, t.t2, cast(null as bigint) as t3 from t2 as t
        union all
        select t.tgt, t.p0, 3 as lvl, t.seq, 1 as clean, 0 as marked, t.t1, t.t2, t.t3 from t3 as t),
        outcome as (select tgt, p0, lvl - 1 as reached, t1, t2, t3 from (
                select a.*, row_number() over (partition by tgt order by lvl desc, seq) as rn from alld as a) as r where rn = 1),
        fin as (select o.tgt, o.p0, o.p0 as v0, cast(null as bigint) as rn, o.reached, o.t1, o.t2, o.t3 from outcome as o)
        select count(case when reached >= 0 then 1 end) as c0, count(case when reached >= 1 then 1 end) as c1, count(case when reached >= 2 then 1 end) as c2, cast(avg((case when reached >= 1 and t2 - t1 > 0 then t2 - t1 end)) as double precision) / 1000000.0 as a1, cast(percentile_cont(0.5) within group (order by (case when reached >= 1 and t2 - t1 > 0 then t2 - t1 end)) as double precision) / 1000000.0 as m1, cast(avg((case when reached >= 2 and t3 - t2 > 0 then t3 - t2 end)) as double precision) / 1000000.0 as a2, cast(percentile_cont(0.5) within group (order by (case when reached >= 2 and t3 - t2 > 0 then t3 - t2 end)) as double precision) / 1000000.0 as m2 from fin",
        }
      `)
    })
  })
  describe('strict, with an exclusion between steps 0 and 1', () => {
    it('DuckDB', async () => {
      expect(await compiled('duckdb', 'strictExcluding')).toMatchInlineSnapshot(`
        {
          "parameters": [
            "$pageview",
            "signed_up",
            "purchased",
            "logged_out",
            "$pageview",
            "$pageview",
            "signed_up",
            "purchased",
            "logged_out",
            7,
            [
              "$pageview",
              "signed_up",
              "purchased",
              "logged_out",
            ],
            7,
          ],
          "sql": "with fe as (select fe0.*, (case when ((sm % 2) >= 1) then 1 when ((sm % 4) >= 2) then 2 when ((sm % 8) >= 4) then 3 else 4 end) as fs from (select coalesce(coalesce("ov"."person_id", "e"."person_id"), cast(md5("e"."distinct_id") as uuid)) as tgt, epoch_us("e"."timestamp") as ts, "e"."uuid" as uuid,
            cast((case when ("e"."event" = $1) then 1 else 0 end) + (case when ("e"."event" = $2) then 2 else 0 end) + (case when ("e"."event" = $3) then 4 else 0 end) as bigint) as sm,
            cast((case when (("e"."event" = $4)) then 1 else 0 end) as bigint) as xm,
            '' as b0
            
            
            from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id join (select * from (select tgt, min(case when is0 then ets end) as lo, max(case when isx then ets end) as hi from (select coalesce(coalesce("ov"."person_id", "e"."person_id"), cast(md5("e"."distinct_id") as uuid)) as tgt, "e"."timestamp" as ets, ("e"."event" = $5) as is0, (("e"."event" = $6) or ("e"."event" = $7) or ("e"."event" = $8) or (("e"."event" = $9))) as isx from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id where (e.project_id = $10 and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz) and true) and list_contains($11, "e"."event")) as nm group by tgt) as sp
            where lo is not null) as fsp on fsp.tgt = coalesce(coalesce("ov"."person_id", "e"."person_id"), cast(md5("e"."distinct_id") as uuid)) where (e.project_id = $12 and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz) and true) and "e"."timestamp" >= fsp.lo and "e"."timestamp" <= fsp.hi) as fe0),
        runs as not materialized (select tgt, '' as p0, ts, uuid, sm, xm, fs, b0 from fe),
        spn as (select * from runs),
        cmp as (select * from (
              select r.*, row_number() over w as er, sum((case when multi = 0 and not ((sm % 2) >= 1) then 1 else 0 end)) over (partition by tgt order by ts, fs, uuid rows between unbounded preceding and current row) - (case when multi = 0 and not ((sm % 2) >= 1) then 1 else 0 end) as r0, sum((case when multi = 0 and not ((sm % 4) >= 2) then 1 else 0 end)) over (partition by tgt order by ts, fs, uuid rows between unbounded preceding and current row) - (case when multi = 0 and not ((sm % 4) >= 2) then 1 else 0 end) as r1, sum((case when multi = 0 and not ((sm % 8) >= 4) then 1 else 0 end)) over (partition by tgt order by ts, fs, uuid rows between unbounded preceding and current row) - (case when multi = 0 and not ((sm % 8) >= 4) then 1 else 0 end) as r2
              from (select r.*, (case when m.ts is null then 0 else 1 end) as multi from spn as r left join (select tgt, p0, ts from spn as s group by tgt, p0, ts having count(*) > 1 and (min(sm) <> max(sm) or min(xm) <> max(xm))) as m on (m.tgt = r.tgt and m.p0 = r.p0) and m.ts = r.ts) as r window w as (partition by tgt order by ts, fs, uuid)
            ) as c where sm <> 0 or xm <> 0 or multi = 1),
        grp as (select c.*, cast(null as bigint) as ifirst, cast(null as bigint) as isize, cast(null as bigint) as pos from cmp as c where c.multi = 0
              union all
              select c.*, min(er) over (partition by tgt, p0, ts), count(*) over (partition by tgt, p0, ts), row_number() over (partition by tgt, p0, ts order by fs, uuid) - 1 from cmp as c where c.multi = 1),
        occ as (select g.tgt, g.p0, g.ts, g.uuid, g.fs, g.multi, g.sm as mask, g.b0, g.r0, g.r1, g.r2, 1 as kind, lv.l as lvl, (case when g.multi = 1 then g.ifirst * 2147483648 + (lv.l - 1) * g.isize + g.pos else g.er * 2147483648 + 6 - lv.l end) as seq
              from grp as g cross join (values (1, 1), (2, 2), (3, 4)) as lv(l, bv) where ((g.sm % (2 * cast(lv.bv as bigint))) >= lv.bv)
        union all
        select g.tgt, g.p0, g.ts, g.uuid, g.fs, g.multi, g.sm as mask, g.b0, g.r0, g.r1, g.r2, 2, gv.j, g.er * 2147483648 + 3 - gv.j as seq
                from grp as g cross join (values (1, 1)) as gv(j, bv) where g.multi = 0 and ((g.xm % (2 * cast(gv.bv as bigint))) >= gv.bv)),
        t1 as (select tgt, p0, min(seq) as seq, min(ts) as st, min(ts) as t1,
            coalesce(',' || substr(min(case when multi = 1 then lpad(cast(seq as varchar), 20, '0') || cast(uuid as varchar) end), 21) || ',', ',') as sts, min(r0) as rc
            from occ where kind = 1 and lvl = 1 group by tgt, p0, ts),
        i2 as (select tgt, p0, seq, 0 as k, st, t1, cast(null as bigint) as ts, cast(null as varchar) as u, 0 as multi, rc, cast(null as bigint) as cc, cast(null as bigint) as nc from t1
        union all
        select tgt, p0, seq, 1, cast(null as bigint), cast(null as bigint), ts, cast(uuid as varchar), multi, cast(null as bigint), r0, r1 from occ where kind = 1 and lvl = 2
        union all
        select tgt, p0, seq, 2, cast(null as bigint), cast(null as bigint), ts, cast(null as varchar), 0, cast(null as bigint), r0, r1 from occ where kind = 2 and lvl = 1),
        w2 as (select r.tgt, r.p0, r.seq, r.k, r.ts, r.u, r.multi, r.st,
              r.tb, lt.st as cst, lt.t1 as c1
              , lt.rc as trc, r.cc, r.nc
              from (select tgt, p0, seq, k, ts, u, multi, st, cc, nc,
              max(case when k = 0 then seq end) over (partition by tgt order by seq rows between unbounded preceding and current row) as tb from i2) as r left join t1 as lt on (lt.tgt = r.tgt and lt.p0 = r.p0) and lt.seq = r.tb),
        v2 as (select w.tgt, w.p0, w.seq, w.ts, w.u, w.multi, w.tb, w.nc as seg, w.cst, w.c1, ms.sts as psts, (w.k = 1 and (w.tb is not null and w.cc = w.trc) and w.ts - w.cst <= 1209600000000 and not coalesce((w.multi = 1 and w.c1 = w.ts and strpos(ms.sts, ',' || w.u || ',') > 0), false)) as vp, (w.k = 2 and (w.tb is not null and w.cc = w.trc) and w.ts - w.cst <= 1209600000000) as vx
            from w2 as w left join (select tgt, p0, seq, sts from t1 where sts <> ',') as ms on (ms.tgt = w.tgt and ms.p0 = w.p0) and ms.seq = w.tb
            where w.k in (1, 2) and (w.tb is not null and w.cc = w.trc)),
        g2 as (select tgt, p0, tb, seg, max(cst) as st, min(seg) as qrc, max(c1) as c1, max(psts) as psts,
            min(case when vp then seq end) as q, min(case when vp then ts end) as qts, min(case when vp then lpad(cast(seq as varchar), 20, '0') || (case when multi = 1 then u else '' end) end) as qu
            , min(case when vx then seq end) as x, min(case when vx then ts end) as xts
            from v2 group by tgt, p0, tb, seg),
        e2 as (select tgt, p0, tb, min(case when x is not null and (q is null or x < q) then x end) as xs from g2 group by tgt, p0, tb),
        t2 as (select g.tgt, g.p0, g.q as seq, g.st, g.c1 as t1, g.qts as t2,
            (case when substr(g.qu, 21) = '' then ',' else (case when g.c1 = g.qts then coalesce(g.psts, ',') else ',' end) || substr(g.qu, 21) || ',' end) as sts, g.qrc as rc
            from g2 as g join e2 as e on (e.tgt = g.tgt and e.p0 = g.p0) and e.tb = g.tb where g.q is not null and (e.xs is null or g.q < e.xs)),
        x2 as (select v.tgt, v.p0, v.seq, v.ts from v2 as v join e2 as e on (e.tgt = v.tgt and e.p0 = v.p0) and e.tb = v.tb
              where v.vp and e.xs is not null and v.seq > e.xs),
        k1 as (select tgt, p0, seq from (
              select tgt, p0, seq, k, st, min(case when k = 2 and tb is not null and cc = trc then ts end) over (partition by tgt order by seq desc rows between unbounded preceding and current row) as nx
              from w2) as m where k = 0 and nx is not null and nx - st <= 1209600000000),
        i3 as (select tgt, p0, seq, 0 as k, st, t1, t2, cast(null as bigint) as ts, cast(null as varchar) as u, 0 as multi, rc, cast(null as bigint) as cc, cast(null as bigint) as nc from t2
        union all
        select tgt, p0, seq, 1, cast(null as bigint), cast(null as bigint), cast(null as bigint), ts, cast(uuid as varchar), multi, cast(null as bigint), r1, r2 from occ where kind = 1 and lvl = 3),
        w3 as (select r.tgt, r.p0, r.seq, r.k, r.ts, r.u, r.multi, r.st,
              r.tb, lt.st as cst, lt.t1 as c1, lt.t2 as c2
              , lt.rc as trc, r.cc, r.nc
              from (select tgt, p0, seq, k, ts, u, multi, st, cc, nc,
              max(case when k = 0 then seq end) over (partition by tgt order by seq rows between unbounded preceding and current row) as tb from i3) as r left join t2 as lt on (lt.tgt = r.tgt and lt.p0 = r.p0) and lt.seq = r.tb),
        v3 as (select w.tgt, w.p0, w.seq, w.ts, w.u, w.multi, w.tb, w.nc as seg, w.cst, w.c1, w.c2, ms.sts as psts, (w.k = 1 and (w.tb is not null and w.cc = w.trc) and w.ts - w.cst <= 1209600000000 and not coalesce((w.multi = 1 and w.c2 = w.ts and strpos(ms.sts, ',' || w.u || ',') > 0), false)) as vp, (w.k = 2 and (w.tb is not null and w.cc = w.trc) and w.ts - w.cst <= 1209600000000) as vx
            from w3 as w left join (select tgt, p0, seq, sts from t2 where sts <> ',') as ms on (ms.tgt = w.tgt and ms.p0 = w.p0) and ms.seq = w.tb
            where w.k in (1, 2) and (w.tb is not null and w.cc = w.trc)),
        g3 as (select tgt, p0, tb, seg, max(cst) as st, min(seg) as qrc, max(c1) as c1, max(c2) as c2, max(psts) as psts,
            min(case when vp then seq end) as q, min(case when vp then ts end) as qts, min(case when vp then lpad(cast(seq as varchar), 20, '0') || (case when multi = 1 then u else '' end) end) as qu
            
            from v3 group by tgt, p0, tb, seg),
        t3 as (select g.tgt, g.p0, g.q as seq, g.st, g.c1 as t1, g.c2 as t2, g.qts as t3,
            (case when substr(g.qu, 21) = '' then ',' else (case when g.c2 = g.qts then coalesce(g.psts, ',') else ',' end) || substr(g.qu, 21) || ',' end) as sts, g.qrc as rc
            from g3 as g where g.q is not null),
        alld as (select t.tgt, t.p0, 1 as lvl, t.seq, 1 as clean, (case when m.seq is null then 0 else 1 end) as marked, t.t1, cast(null as bigint) as t2, cast(null as bigint) as t3 from t1 as t left join k1 as m on (m.tgt = t.tgt and m.p0 = t.p0) and m.seq = t.seq
        union all
        select t.tgt, t.p0, 2 as lvl, t.seq, 1 as clean, 0 as marked, t.t1, t.t2, cast(null as bigint) as t3 from t2 as t
        union all
        select tgt, p0, 2, seq, 0, 0, cast(null as bigint) as t1, cast(null as bigint) as t2, cast(null as bigint) as t3 from x2
        union all
        select t.tgt, t.p0, 3 as lvl, t.seq, 1 as clean, 0 as marked, t.t1, t.t2, t.t3 from t3 as t),
        outcome as (select tgt, p0, lvl - 1 as reached, t1, t2, t3 from (
              select c.*, row_number() over (partition by tgt order by seq) as rn from (
                select a.*, max(lvl) over (partition by tgt) as kmax from alld as a) as c
              where lvl = kmax and clean = 1 and marked = 0) as r where rn = 1),
        fin as (select o.tgt, o.p0, o.p0 as v0, cast(null as bigint) as rn, o.reached, o.t1, o.t2, o.t3 from outcome as o)
        select count(case when reached >= 0 then 1 end) as c0, count(case when reached >= 1 then 1 end) as c1, count(case when reached >= 2 then 1 end) as c2, cast(avg((case when reached >= 1 and t2 - t1 > 0 then t2 - t1 end)) as double precision) / 1000000.0 as a1, cast(quantile_cont((case when reached >= 1 and t2 - t1 > 0 then t2 - t1 end), 0.5) as double precision) / 1000000.0 as m1, cast(avg((case when reached >= 2 and t3 - t2 > 0 then t3 - t2 end)) as double precision) / 1000000.0 as a2, cast(quantile_cont((case when reached >= 2 and t3 - t2 > 0 then t3 - t2 end), 0.5) as double precision) / 1000000.0 as m2 from fin",
        }
      `)
    })
    it('Postgres', async () => {
      expect(await compiled('postgres', 'strictExcluding')).toMatchInlineSnapshot(`
        {
          "parameters": [
            "$pageview",
            "signed_up",
            "purchased",
            "logged_out",
            "$pageview",
            "$pageview",
            "signed_up",
            "purchased",
            "logged_out",
            7,
            [
              "$pageview",
              "signed_up",
              "purchased",
              "logged_out",
            ],
            7,
          ],
          "sql": "with fe as (select fe0.*, (case when ((sm % 2) >= 1) then 1 when ((sm % 4) >= 2) then 2 when ((sm % 8) >= 4) then 3 else 4 end) as fs from (select coalesce(coalesce("ov"."person_id", "e"."person_id"), cast(md5("e"."distinct_id") as uuid)) as tgt, cast(extract(epoch from "e"."timestamp") * 1000000 as bigint) as ts, "e"."uuid" as uuid,
            cast((case when ("e"."event" = $1) then 1 else 0 end) + (case when ("e"."event" = $2) then 2 else 0 end) + (case when ("e"."event" = $3) then 4 else 0 end) as bigint) as sm,
            cast((case when (("e"."event" = $4)) then 1 else 0 end) as bigint) as xm,
            '' as b0
            
            
            from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id join (select * from (select tgt, min(case when is0 then ets end) as lo, max(case when isx then ets end) as hi from (select coalesce(coalesce("ov"."person_id", "e"."person_id"), cast(md5("e"."distinct_id") as uuid)) as tgt, "e"."timestamp" as ets, ("e"."event" = $5) as is0, (("e"."event" = $6) or ("e"."event" = $7) or ("e"."event" = $8) or (("e"."event" = $9))) as isx from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id where (e.project_id = $10 and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz) and true) and ("e"."event" = any(cast($11 as text[])))) as nm group by tgt) as sp
            where lo is not null) as fsp on fsp.tgt = coalesce(coalesce("ov"."person_id", "e"."person_id"), cast(md5("e"."distinct_id") as uuid)) where (e.project_id = $12 and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz) and true) and "e"."timestamp" >= fsp.lo and "e"."timestamp" <= fsp.hi) as fe0),
        runs as (select tgt, '' as p0, ts, uuid, sm, xm, fs, b0 from fe),
        spn as (select * from runs),
        cmp as (select * from (
              select r.*, row_number() over w as er, sum((case when multi = 0 and not ((sm % 2) >= 1) then 1 else 0 end)) over (partition by tgt order by ts, fs, uuid rows between unbounded preceding and current row) - (case when multi = 0 and not ((sm % 2) >= 1) then 1 else 0 end) as r0, sum((case when multi = 0 and not ((sm % 4) >= 2) then 1 else 0 end)) over (partition by tgt order by ts, fs, uuid rows between unbounded preceding and current row) - (case when multi = 0 and not ((sm % 4) >= 2) then 1 else 0 end) as r1, sum((case when multi = 0 and not ((sm % 8) >= 4) then 1 else 0 end)) over (partition by tgt order by ts, fs, uuid rows between unbounded preceding and current row) - (case when multi = 0 and not ((sm % 8) >= 4) then 1 else 0 end) as r2
              from (select r.*, (case when m.ts is null then 0 else 1 end) as multi from spn as r left join (select tgt, p0, ts from spn as s group by tgt, p0, ts having count(*) > 1 and (min(sm) <> max(sm) or min(xm) <> max(xm))) as m on (m.tgt = r.tgt and m.p0 = r.p0) and m.ts = r.ts) as r window w as (partition by tgt order by ts, fs, uuid)
            ) as c where sm <> 0 or xm <> 0 or multi = 1),
        grp as (select c.*, cast(null as bigint) as ifirst, cast(null as bigint) as isize, cast(null as bigint) as pos from cmp as c where c.multi = 0
              union all
              select c.*, min(er) over (partition by tgt, p0, ts), count(*) over (partition by tgt, p0, ts), row_number() over (partition by tgt, p0, ts order by fs, uuid) - 1 from cmp as c where c.multi = 1),
        occ as (select g.tgt, g.p0, g.ts, g.uuid, g.fs, g.multi, g.sm as mask, g.b0, g.r0, g.r1, g.r2, 1 as kind, lv.l as lvl, (case when g.multi = 1 then g.ifirst * 2147483648 + (lv.l - 1) * g.isize + g.pos else g.er * 2147483648 + 6 - lv.l end) as seq
              from grp as g cross join (values (1, 1), (2, 2), (3, 4)) as lv(l, bv) where ((g.sm % (2 * cast(lv.bv as bigint))) >= lv.bv)
        union all
        select g.tgt, g.p0, g.ts, g.uuid, g.fs, g.multi, g.sm as mask, g.b0, g.r0, g.r1, g.r2, 2, gv.j, g.er * 2147483648 + 3 - gv.j as seq
                from grp as g cross join (values (1, 1)) as gv(j, bv) where g.multi = 0 and ((g.xm % (2 * cast(gv.bv as bigint))) >= gv.bv)),
        t1 as (select tgt, p0, min(seq) as seq, min(ts) as st, min(ts) as t1,
            coalesce(',' || substr(min(case when multi = 1 then lpad(cast(seq as varchar), 20, '0') || cast(uuid as varchar) end), 21) || ',', ',') as sts, min(r0) as rc
            from occ where kind = 1 and lvl = 1 group by tgt, p0, ts),
        i2 as (select tgt, p0, seq, 0 as k, st, t1, cast(null as bigint) as ts, cast(null as varchar) as u, 0 as multi, rc, cast(null as bigint) as cc, cast(null as bigint) as nc from t1
        union all
        select tgt, p0, seq, 1, cast(null as bigint), cast(null as bigint), ts, cast(uuid as varchar), multi, cast(null as bigint), r0, r1 from occ where kind = 1 and lvl = 2
        union all
        select tgt, p0, seq, 2, cast(null as bigint), cast(null as bigint), ts, cast(null as varchar), 0, cast(null as bigint), r0, r1 from occ where kind = 2 and lvl = 1),
        w2 as (select tgt, p0, seq, k, ts, u, multi, st,
              max(case when k = 0 then seq end) over (partition by tgt order by seq rows between unbounded preceding and current row) as tb, max(case when k = 0 then st end) over (partition by tgt order by seq rows between unbounded preceding and current row) as cst, max(case when k = 0 then t1 end) over (partition by tgt order by seq rows between unbounded preceding and current row) as c1
              , max(case when k = 0 then rc end) over (partition by tgt order by seq rows between unbounded preceding and current row) as trc, cc, nc
              from i2),
        v2 as (select w.tgt, w.p0, w.seq, w.ts, w.u, w.multi, w.tb, w.nc as seg, w.cst, w.c1, ms.sts as psts, (w.k = 1 and (w.tb is not null and w.cc = w.trc) and w.ts - w.cst <= 1209600000000 and not coalesce((w.multi = 1 and w.c1 = w.ts and strpos(ms.sts, ',' || w.u || ',') > 0), false)) as vp, (w.k = 2 and (w.tb is not null and w.cc = w.trc) and w.ts - w.cst <= 1209600000000) as vx
            from w2 as w left join (select tgt, p0, seq, sts from t1 where sts <> ',') as ms on (ms.tgt = w.tgt and ms.p0 = w.p0) and ms.seq = w.tb
            where w.k in (1, 2) and (w.tb is not null and w.cc = w.trc)),
        g2 as (select tgt, p0, tb, seg, max(cst) as st, min(seg) as qrc, max(c1) as c1, max(psts) as psts,
            min(case when vp then seq end) as q, min(case when vp then ts end) as qts, min(case when vp then lpad(cast(seq as varchar), 20, '0') || (case when multi = 1 then u else '' end) end) as qu
            , min(case when vx then seq end) as x, min(case when vx then ts end) as xts
            from v2 group by tgt, p0, tb, seg),
        e2 as (select tgt, p0, tb, min(case when x is not null and (q is null or x < q) then x end) as xs from g2 group by tgt, p0, tb),
        t2 as (select g.tgt, g.p0, g.q as seq, g.st, g.c1 as t1, g.qts as t2,
            (case when substr(g.qu, 21) = '' then ',' else (case when g.c1 = g.qts then coalesce(g.psts, ',') else ',' end) || substr(g.qu, 21) || ',' end) as sts, g.qrc as rc
            from g2 as g join e2 as e on (e.tgt = g.tgt and e.p0 = g.p0) and e.tb = g.tb where g.q is not null and (e.xs is null or g.q < e.xs)),
        x2 as (select v.tgt, v.p0, v.seq, v.ts from v2 as v join e2 as e on (e.tgt = v.tgt and e.p0 = v.p0) and e.tb = v.tb
              where v.vp and e.xs is not null and v.seq > e.xs),
        k1 as (select tgt, p0, seq from (
              select tgt, p0, seq, k, st, min(case when k = 2 and tb is not null and cc = trc then ts end) over (partition by tgt order by seq desc rows between unbounded preceding and current row) as nx
              from w2) as m where k = 0 and nx is not null and nx - st <= 1209600000000),
        i3 as (select tgt, p0, seq, 0 as k, st, t1, t2, cast(null as bigint) as ts, cast(null as varchar) as u, 0 as multi, rc, cast(null as bigint) as cc, cast(null as bigint) as nc from t2
        union all
        select tgt, p0, seq, 1, cast(null as bigint), cast(null as bigint), cast(null as bigint), ts, cast(uuid as varchar), multi, cast(null as bigint), r1, r2 from occ where kind = 1 and lvl = 3),
        w3 as (select tgt, p0, seq, k, ts, u, multi, st,
              max(case when k = 0 then seq end) over (partition by tgt order by seq rows between unbounded preceding and current row) as tb, max(case when k = 0 then st end) over (partition by tgt order by seq rows between unbounded preceding and current row) as cst, max(case when k = 0 then t1 end) over (partition by tgt order by seq rows between unbounded preceding and current row) as c1, max(case when k = 0 then t2 end) over (partition by tgt order by seq rows between unbounded preceding and current row) as c2
              , max(case when k = 0 then rc end) over (partition by tgt order by seq rows between unbounded preceding and current row) as trc, cc, nc
              from i3),
        v3 as (select w.tgt, w.p0, w.seq, w.ts, w.u, w.multi, w.tb, w.nc as seg, w.cst, w.c1, w.c2, ms.sts as psts, (w.k = 1 and (w.tb is not null and w.cc = w.trc) and w.ts - w.cst <= 1209600000000 and not coalesce((w.multi = 1 and w.c2 = w.ts and strpos(ms.sts, ',' || w.u || ',') > 0), false)) as vp, (w.k = 2 and (w.tb is not null and w.cc = w.trc) and w.ts - w.cst <= 1209600000000) as vx
            from w3 as w left join (select tgt, p0, seq, sts from t2 where sts <> ',') as ms on (ms.tgt = w.tgt and ms.p0 = w.p0) and ms.seq = w.tb
            where w.k in (1, 2) and (w.tb is not null and w.cc = w.trc)),
        g3 as (select tgt, p0, tb, seg, max(cst) as st, min(seg) as qrc, max(c1) as c1, max(c2) as c2, max(psts) as psts,
            min(case when vp then seq end) as q, min(case when vp then ts end) as qts, min(case when vp then lpad(cast(seq as varchar), 20, '0') || (case when multi = 1 then u else '' end) end) as qu
            
            from v3 group by tgt, p0, tb, seg),
        t3 as (select g.tgt, g.p0, g.q as seq, g.st, g.c1 as t1, g.c2 as t2, g.qts as t3,
            (case when substr(g.qu, 21) = '' then ',' else (case when g.c2 = g.qts then coalesce(g.psts, ',') else ',' end) || substr(g.qu, 21) || ',' end) as sts, g.qrc as rc
            from g3 as g where g.q is not null),
        alld as (select t.tgt, t.p0, 1 as lvl, t.seq, 1 as clean, (case when m.seq is null then 0 else 1 end) as marked, t.t1, cast(null as bigint) as t2, cast(null as bigint) as t3 from t1 as t left join k1 as m on (m.tgt = t.tgt and m.p0 = t.p0) and m.seq = t.seq
        union all
        select t.tgt, t.p0, 2 as lvl, t.seq, 1 as clean, 0 as marked, t.t1, t.t2, cast(null as bigint) as t3 from t2 as t
        union all
        select tgt, p0, 2, seq, 0, 0, cast(null as bigint) as t1, cast(null as bigint) as t2, cast(null as bigint) as t3 from x2
        union all
        select t.tgt, t.p0, 3 as lvl, t.seq, 1 as clean, 0 as marked, t.t1, t.t2, t.t3 from t3 as t),
        outcome as (select tgt, p0, lvl - 1 as reached, t1, t2, t3 from (
              select c.*, row_number() over (partition by tgt order by seq) as rn from (
                select a.*, max(lvl) over (partition by tgt) as kmax from alld as a) as c
              where lvl = kmax and clean = 1 and marked = 0) as r where rn = 1),
        fin as (select o.tgt, o.p0, o.p0 as v0, cast(null as bigint) as rn, o.reached, o.t1, o.t2, o.t3 from outcome as o)
        select count(case when reached >= 0 then 1 end) as c0, count(case when reached >= 1 then 1 end) as c1, count(case when reached >= 2 then 1 end) as c2, cast(avg((case when reached >= 1 and t2 - t1 > 0 then t2 - t1 end)) as double precision) / 1000000.0 as a1, cast(percentile_cont(0.5) within group (order by (case when reached >= 1 and t2 - t1 > 0 then t2 - t1 end)) as double precision) / 1000000.0 as m1, cast(avg((case when reached >= 2 and t3 - t2 > 0 then t3 - t2 end)) as double precision) / 1000000.0 as a2, cast(percentile_cont(0.5) within group (order by (case when reached >= 2 and t3 - t2 > 0 then t3 - t2 end)) as double precision) / 1000000.0 as m2 from fin",
        }
      `)
    })
  })
  describe('unordered, with an exclusion', () => {
    it('DuckDB', async () => {
      expect(await compiled('duckdb', 'unorderedExcluding')).toMatchInlineSnapshot(`
        {
          "parameters": [
            "$pageview",
            "signed_up",
            "purchased",
            "logged_out",
            "logged_out",
            7,
            [
              "$pageview",
              "signed_up",
              "purchased",
              "logged_out",
            ],
          ],
          "sql": "with fe as (select fe0.*, (case when ((sm % 2) >= 1) then 1 when ((sm % 4) >= 2) then 2 when ((sm % 8) >= 4) then 3 else 4 end) as fs from (select coalesce(coalesce("ov"."person_id", "e"."person_id"), cast(md5("e"."distinct_id") as uuid)) as tgt, epoch_us("e"."timestamp") as ts, "e"."uuid" as uuid,
            cast((case when ("e"."event" = $1) then 1 else 0 end) + (case when ("e"."event" = $2) then 2 else 0 end) + (case when ("e"."event" = $3) then 4 else 0 end) as bigint) as sm,
            cast((case when (("e"."event" = $4)) then 1 else 0 end) + (case when (("e"."event" = $5)) then 2 else 0 end) as bigint) as xm,
            '' as b0
            
            
            from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id where (e.project_id = $6 and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz) and true) and list_contains($7, "e"."event")) as fe0),
        runs as (select tgt, '' as p0, ts, uuid, sm, xm, fs, b0 from fe),
        u0 as (select r.*, row_number() over (partition by r.tgt order by r.ts, r.fs, r.uuid) as seq, (case when r.sm = 0 then 1 else 0 end) as ex, (case fs when 1 then 0 when 2 then 1 when 3 then 2 else -1 end) as cls from runs as r),
        u1 as (select u0.*, sum(ex) over (partition by tgt order by seq rows between unbounded preceding and current row) as seg, lag(ts) over (partition by tgt order by seq) as pts, lag(ex) over (partition by tgt order by seq) as pex from u0),
        u2 as (select u1.*, sum(case when pts is null or ex = 1 or ts - pts > 1209600000000 then 1 else 0 end) over (partition by tgt order by seq rows between unbounded preceding and current row) as island from u1),
        u3 as (select u2.*, (case when (ex = 0) then 1 else 0 end) as pushed, seg - ex as dseg from u2),
        u4 as (select u3.*, sum((case when pushed = 1 and cls = 0 then 1 else 0 end)) over (partition by tgt, dseg order by seq rows between unbounded preceding and current row) as cr0,
              coalesce(sum((case when pushed = 1 and cls = 0 then 1 else 0 end)) over (partition by tgt, dseg order by ts range between unbounded preceding and 1209600000001 preceding), 0) as co0, sum((case when pushed = 1 and cls = 1 then 1 else 0 end)) over (partition by tgt, dseg order by seq rows between unbounded preceding and current row) as cr1,
              coalesce(sum((case when pushed = 1 and cls = 1 then 1 else 0 end)) over (partition by tgt, dseg order by ts range between unbounded preceding and 1209600000001 preceding), 0) as co1, sum((case when pushed = 1 and cls = 2 then 1 else 0 end)) over (partition by tgt, dseg order by seq rows between unbounded preceding and current row) as cr2,
              coalesce(sum((case when pushed = 1 and cls = 2 then 1 else 0 end)) over (partition by tgt, dseg order by ts range between unbounded preceding and 1209600000001 preceding), 0) as co2 from u3),
        u5 as (select u4.*, (case when ex = 1 then 0 else least(1, cr0 - co0) + least(1, cr1 - co1) + least(1, cr2 - co2) end) as done,
                (case cls when 0 then cr0 when 1 then cr1 when 2 then cr2 else 0 end) as rk,
              co0 + co1 + co2 as cot
                from u4),
        ur1 as (select u5.*, lag(done) over (partition by tgt order by seq) as pdone, lag(cot) over (partition by tgt order by seq) as pcot, lag(dseg) over (partition by tgt order by seq) as pdseg, max(seq) over (partition by tgt) as last from u5),
        ur2 as (select ur1.*, (case when pdone > 0 and ((pdseg = dseg and cot > pcot) or pdone >= 3) then pdone end) as rv1,
                (case when seq = last and done > 0 then done end) as rv2 from ur1),
        ur3 as (select ur2.*, max(greatest(coalesce(rv1, 0), coalesce(rv2, 0))) over (partition by tgt) as vmax from ur2),
        ur4 as (select ur3.*, min(case when rv1 = vmax then 2 * seq when rv2 = vmax then 2 * seq + 1 end) over (partition by tgt) as bpos from ur3 where vmax > 0),
        ur5 as (select ur4.*, (case when bpos % 2 = 0 then bpos / 2 - 1 else (bpos - 1) / 2 end) as bsrc from ur4),
        ur6 as (select ur5.*, s.seg as sseg, s.co0 as sco0, s.cr0 as scr0, s.co1 as sco1, s.cr1 as scr1, s.co2 as sco2, s.cr2 as scr2
            from ur5 join (select tgt, p0, seg, co0, cr0, co1, cr1, co2, cr2 from ur5 where seq = bsrc) as s on (s.tgt = ur5.tgt and s.p0 = ur5.p0)),
        uheads as (select tgt, p0, vmax, ts, row_number() over (partition by tgt order by ts) as hn from ur6
                where pushed = 1 and seg = sseg and seq <= bsrc and rk > (case cls when 0 then sco0 when 1 then sco1 when 2 then sco2 end) and rk <= (case cls when 0 then sco0 when 1 then sco1 when 2 then sco2 end) + least((case cls when 0 then 1 when 1 then 1 when 2 then 1 end), (case cls when 0 then scr0 when 1 then scr1 when 2 then scr2 end) - (case cls when 0 then sco0 when 1 then sco1 when 2 then sco2 end))),
        outcome as (select tgt, p0, max(vmax) - 1 as reached, max(case when hn = 1 then ts end) as t1, max(case when hn = 2 then ts end) as t2, max(case when hn = 3 then ts end) as t3
                from uheads group by tgt, p0),
        fin as (select o.tgt, o.p0, o.p0 as v0, cast(null as bigint) as rn, o.reached, o.t1, o.t2, o.t3 from outcome as o)
        select count(case when reached >= 0 then 1 end) as c0, count(case when reached >= 1 then 1 end) as c1, count(case when reached >= 2 then 1 end) as c2, cast(avg((case when reached >= 1 and t2 - t1 > 0 then t2 - t1 end)) as double precision) / 1000000.0 as a1, cast(quantile_cont((case when reached >= 1 and t2 - t1 > 0 then t2 - t1 end), 0.5) as double precision) / 1000000.0 as m1, cast(avg((case when reached >= 2 and t3 - t2 > 0 then t3 - t2 end)) as double precision) / 1000000.0 as a2, cast(quantile_cont((case when reached >= 2 and t3 - t2 > 0 then t3 - t2 end), 0.5) as double precision) / 1000000.0 as m2 from fin",
        }
      `)
    })
    it('Postgres', async () => {
      expect(await compiled('postgres', 'unorderedExcluding')).toMatchInlineSnapshot(`
        {
          "parameters": [
            "$pageview",
            "signed_up",
            "purchased",
            "logged_out",
            "logged_out",
            7,
            [
              "$pageview",
              "signed_up",
              "purchased",
              "logged_out",
            ],
          ],
          "sql": "with fe as (select fe0.*, (case when ((sm % 2) >= 1) then 1 when ((sm % 4) >= 2) then 2 when ((sm % 8) >= 4) then 3 else 4 end) as fs from (select coalesce(coalesce("ov"."person_id", "e"."person_id"), cast(md5("e"."distinct_id") as uuid)) as tgt, cast(extract(epoch from "e"."timestamp") * 1000000 as bigint) as ts, "e"."uuid" as uuid,
            cast((case when ("e"."event" = $1) then 1 else 0 end) + (case when ("e"."event" = $2) then 2 else 0 end) + (case when ("e"."event" = $3) then 4 else 0 end) as bigint) as sm,
            cast((case when (("e"."event" = $4)) then 1 else 0 end) + (case when (("e"."event" = $5)) then 2 else 0 end) as bigint) as xm,
            '' as b0
            
            
            from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id where (e.project_id = $6 and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz) and true) and ("e"."event" = any(cast($7 as text[])))) as fe0),
        runs as (select tgt, '' as p0, ts, uuid, sm, xm, fs, b0 from fe),
        u0 as (select r.*, row_number() over (partition by r.tgt order by r.ts, r.fs, r.uuid) as seq, (case when r.sm = 0 then 1 else 0 end) as ex, (case fs when 1 then 0 when 2 then 1 when 3 then 2 else -1 end) as cls from runs as r),
        u1 as (select u0.*, sum(ex) over (partition by tgt order by seq rows between unbounded preceding and current row) as seg, lag(ts) over (partition by tgt order by seq) as pts, lag(ex) over (partition by tgt order by seq) as pex from u0),
        u2 as (select u1.*, sum(case when pts is null or ex = 1 or ts - pts > 1209600000000 then 1 else 0 end) over (partition by tgt order by seq rows between unbounded preceding and current row) as island from u1),
        u3 as (select u2.*, (case when (ex = 0) then 1 else 0 end) as pushed, seg - ex as dseg from u2),
        u4 as (select u3.*, sum((case when pushed = 1 and cls = 0 then 1 else 0 end)) over (partition by tgt, dseg order by seq rows between unbounded preceding and current row) as cr0,
              coalesce(sum((case when pushed = 1 and cls = 0 then 1 else 0 end)) over (partition by tgt, dseg order by ts range between unbounded preceding and 1209600000001 preceding), 0) as co0, sum((case when pushed = 1 and cls = 1 then 1 else 0 end)) over (partition by tgt, dseg order by seq rows between unbounded preceding and current row) as cr1,
              coalesce(sum((case when pushed = 1 and cls = 1 then 1 else 0 end)) over (partition by tgt, dseg order by ts range between unbounded preceding and 1209600000001 preceding), 0) as co1, sum((case when pushed = 1 and cls = 2 then 1 else 0 end)) over (partition by tgt, dseg order by seq rows between unbounded preceding and current row) as cr2,
              coalesce(sum((case when pushed = 1 and cls = 2 then 1 else 0 end)) over (partition by tgt, dseg order by ts range between unbounded preceding and 1209600000001 preceding), 0) as co2 from u3),
        u5 as (select u4.*, (case when ex = 1 then 0 else least(1, cr0 - co0) + least(1, cr1 - co1) + least(1, cr2 - co2) end) as done,
                (case cls when 0 then cr0 when 1 then cr1 when 2 then cr2 else 0 end) as rk,
              co0 + co1 + co2 as cot
                from u4),
        ur1 as (select u5.*, lag(done) over (partition by tgt order by seq) as pdone, lag(cot) over (partition by tgt order by seq) as pcot, lag(dseg) over (partition by tgt order by seq) as pdseg, max(seq) over (partition by tgt) as last from u5),
        ur2 as (select ur1.*, (case when pdone > 0 and ((pdseg = dseg and cot > pcot) or pdone >= 3) then pdone end) as rv1,
                (case when seq = last and done > 0 then done end) as rv2 from ur1),
        ur3 as (select ur2.*, max(greatest(coalesce(rv1, 0), coalesce(rv2, 0))) over (partition by tgt) as vmax from ur2),
        ur4 as (select ur3.*, min(case when rv1 = vmax then 2 * seq when rv2 = vmax then 2 * seq + 1 end) over (partition by tgt) as bpos from ur3 where vmax > 0),
        ur5 as (select ur4.*, (case when bpos % 2 = 0 then bpos / 2 - 1 else (bpos - 1) / 2 end) as bsrc from ur4),
        ur6 as (select ur5.*, max(case when seq = bsrc then seg end) over (partition by tgt) as sseg, max(case when seq = bsrc then co0 end) over (partition by tgt) as sco0, max(case when seq = bsrc then cr0 end) over (partition by tgt) as scr0, max(case when seq = bsrc then co1 end) over (partition by tgt) as sco1, max(case when seq = bsrc then cr1 end) over (partition by tgt) as scr1, max(case when seq = bsrc then co2 end) over (partition by tgt) as sco2, max(case when seq = bsrc then cr2 end) over (partition by tgt) as scr2 from ur5),
        uheads as (select tgt, p0, vmax, ts, row_number() over (partition by tgt order by ts) as hn from ur6
                where pushed = 1 and seg = sseg and seq <= bsrc and rk > (case cls when 0 then sco0 when 1 then sco1 when 2 then sco2 end) and rk <= (case cls when 0 then sco0 when 1 then sco1 when 2 then sco2 end) + least((case cls when 0 then 1 when 1 then 1 when 2 then 1 end), (case cls when 0 then scr0 when 1 then scr1 when 2 then scr2 end) - (case cls when 0 then sco0 when 1 then sco1 when 2 then sco2 end))),
        outcome as (select tgt, p0, max(vmax) - 1 as reached, max(case when hn = 1 then ts end) as t1, max(case when hn = 2 then ts end) as t2, max(case when hn = 3 then ts end) as t3
                from uheads group by tgt, p0),
        fin as (select o.tgt, o.p0, o.p0 as v0, cast(null as bigint) as rn, o.reached, o.t1, o.t2, o.t3 from outcome as o)
        select count(case when reached >= 0 then 1 end) as c0, count(case when reached >= 1 then 1 end) as c1, count(case when reached >= 2 then 1 end) as c2, cast(avg((case when reached >= 1 and t2 - t1 > 0 then t2 - t1 end)) as double precision) / 1000000.0 as a1, cast(percentile_cont(0.5) within group (order by (case when reached >= 1 and t2 - t1 > 0 then t2 - t1 end)) as double precision) / 1000000.0 as m1, cast(avg((case when reached >= 2 and t3 - t2 > 0 then t3 - t2 end)) as double precision) / 1000000.0 as a2, cast(percentile_cont(0.5) within group (order by (case when reached >= 2 and t3 - t2 > 0 then t3 - t2 end)) as double precision) / 1000000.0 as m2 from fin",
        }
      `)
    })
  })
  describe('ordered trends, daily', () => {
    it('DuckDB', async () => {
      expect(await compiled('duckdb', 'orderedTrends')).toMatchInlineSnapshot(`
        {
          "parameters": [
            "$pageview",
            "signed_up",
            "purchased",
            7,
            [
              "$pageview",
              "signed_up",
              "purchased",
            ],
          ],
          "sql": "with fe as (select fe0.*, (case when ((sm % 2) >= 1) then 1 when ((sm % 4) >= 2) then 2 when ((sm % 8) >= 4) then 3 else 4 end) as fs from (select coalesce(coalesce("ov"."person_id", "e"."person_id"), cast(md5("e"."distinct_id") as uuid)) as tgt, epoch_us("e"."timestamp") as ts, "e"."uuid" as uuid,
            cast((case when ("e"."event" = $1) then 1 else 0 end) + (case when ("e"."event" = $2) then 2 else 0 end) + (case when ("e"."event" = $3) then 4 else 0 end) as bigint) as sm,
            cast(0 as bigint) as xm,
            '' as b0
            
            
            from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id where (e.project_id = $4 and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz) and true) and list_contains($5, "e"."event")) as fe0),
        runs as (select tgt, '' as p0, ts, uuid, sm, xm, fs, b0 from fe),
        inr as (select r.* from runs as r join (select tgt, p0, min(ts) as lo, max(ts) + 1209600000000 as hi from runs where ((sm % 2) >= 1) group by tgt, p0) as sb on (sb.tgt = r.tgt and sb.p0 = r.p0) where r.ts >= sb.lo and r.ts <= sb.hi),
        grp as (select r.*, 0 as multi from inr as r),
        occ0 as (select o.*, (case when "o"."ts" >= 1710284400000000 then 0 + ((("o"."ts" - 1710284400000000)) // (86400000000)) else -1 end) as eper from (select o.*, row_number() over (partition by o.tgt order by o.ts, o.k1, o.k2, o.uuid, o.k3) as seq
            from (select g.tgt, g.p0, g.ts, g.uuid, g.fs, g.multi, g.sm as mask, g.b0, 1 as kind, lv.l as lvl, (case when g.multi = 1 then lv.l else g.fs end) as k1, (case when g.multi = 1 then g.fs else 0 end) as k2, (case when g.multi = 1 then 0 else 6 - lv.l end) as k3
              from grp as g cross join (values (1, 1), (2, 2), (3, 4)) as lv(l, bv) where ((g.sm % (2 * cast(lv.bv as bigint))) >= lv.bv)) as o) as o),
        t1 as (select tgt, p0, eper as per, min(seq) as seq, min(ts) as st, min(ts) as t1, ',' as sts
              from (select o.*, 0 as cx from occ0 as o) as o where kind = 1 and lvl = 1 group by tgt, p0, eper, ts, cx),
        occ as (select o.tgt, o.p0, pp.per, o.ts, o.uuid, o.fs, o.multi, o.mask, o.b0, o.kind, o.lvl, o.seq
                from occ0 as o join (select tgt, p0, per, min(seq) as fseq from t1 group by tgt, p0, per) as pp on (pp.tgt = o.tgt and pp.p0 = o.p0)
                where o.seq > pp.fseq and not (o.kind = 1 and o.lvl = 1)),
        i2 as (select tgt, p0, per, seq, 0 as k, st, t1, cast(null as bigint) as ts, cast(null as varchar) as u, 0 as multi from t1
        union all
        select tgt, p0, per, seq, 1, cast(null as bigint), cast(null as bigint), ts, cast(uuid as varchar), multi from occ where kind = 1 and lvl = 2),
        w2 as (select r.tgt, r.p0, r.per, r.seq, r.k, r.ts, r.u, r.multi, r.st,
              r.tb, lt.st as cst, lt.t1 as c1
              
              from (select tgt, p0, per, seq, k, ts, u, multi, st,
              max(case when k = 0 then seq end) over (partition by tgt, per order by seq rows between unbounded preceding and current row) as tb from i2) as r left join t1 as lt on (lt.tgt = r.tgt and lt.p0 = r.p0 and lt.per = r.per) and lt.seq = r.tb),
        v2 as (select w.tgt, w.p0, w.per, w.seq, w.ts, w.u, w.multi, w.tb, w.tb as seg, w.cst, w.c1, ms.sts as psts, (w.k = 1 and (w.tb is not null) and w.ts - w.cst <= 1209600000000 and not coalesce((w.multi = 1 and w.c1 = w.ts and strpos(ms.sts, ',' || w.u || ',') > 0), false)) as vp, (w.k = 2 and (w.tb is not null) and w.ts - w.cst <= 1209600000000) as vx
            from w2 as w left join (select tgt, p0, per, seq, sts from t1 where sts <> ',') as ms on (ms.tgt = w.tgt and ms.p0 = w.p0 and ms.per = w.per) and ms.seq = w.tb
            where w.k in (1, 2) and (w.tb is not null)),
        g2 as (select tgt, p0, per, tb, seg, max(cst) as st, max(c1) as c1, max(psts) as psts,
            min(case when vp then seq end) as q, min(case when vp then ts end) as qts, min(case when vp then lpad(cast(seq as varchar), 20, '0') || (case when multi = 1 then u else '' end) end) as qu
            
            from v2 group by tgt, p0, per, tb, seg),
        t2 as (select g.tgt, g.p0, g.per, g.q as seq, g.st, g.c1 as t1, g.qts as t2,
            (case when substr(g.qu, 21) = '' then ',' else (case when g.c1 = g.qts then coalesce(g.psts, ',') else ',' end) || substr(g.qu, 21) || ',' end) as sts
            from g2 as g where g.q is not null),
        i3 as (select tgt, p0, per, seq, 0 as k, st, t1, t2, cast(null as bigint) as ts, cast(null as varchar) as u, 0 as multi from t2
        union all
        select tgt, p0, per, seq, 1, cast(null as bigint), cast(null as bigint), cast(null as bigint), ts, cast(uuid as varchar), multi from occ where kind = 1 and lvl = 3),
        w3 as (select r.tgt, r.p0, r.per, r.seq, r.k, r.ts, r.u, r.multi, r.st,
              r.tb, lt.st as cst, lt.t1 as c1, lt.t2 as c2
              
              from (select tgt, p0, per, seq, k, ts, u, multi, st,
              max(case when k = 0 then seq end) over (partition by tgt, per order by seq rows between unbounded preceding and current row) as tb from i3) as r left join t2 as lt on (lt.tgt = r.tgt and lt.p0 = r.p0 and lt.per = r.per) and lt.seq = r.tb),
        v3 as (select w.tgt, w.p0, w.per, w.seq, w.ts, w.u, w.multi, w.tb, w.tb as seg, w.cst, w.c1, w.c2, ms.sts as psts, (w.k = 1 and (w.tb is not null) and w.ts - w.cst <= 1209600000000 and not coalesce((w.multi = 1 and w.c2 = w.ts and strpos(ms.sts, ',' || w.u || ',') > 0), false)) as vp, (w.k = 2 and (w.tb is not null) and w.ts - w.cst <= 1209600000000) as vx
            from w3 as w left join (select tgt, p0, per, seq, sts from t2 where sts <> ',') as ms on (ms.tgt = w.tgt and ms.p0 = w.p0 and ms.per = w.per) and ms.seq = w.tb
            where w.k in (1, 2) and (w.tb is not null)),
        g3 as (select tgt, p0, per, tb, seg, max(cst) as st, max(c1) as c1, max(c2) as c2, max(psts) as psts,
            min(case when vp then seq end) as q, min(case when vp then ts end) as qts, min(case when vp then lpad(cast(seq as varchar), 20, '0') || (case when multi = 1 then u else '' end) end) as qu
            
            from v3 group by tgt, p0, per, tb, seg),
        t3 as (select g.tgt, g.p0, g.per, g.q as seq, g.st, g.c1 as t1, g.c2 as t2, g.qts as t3,
            (case when substr(g.qu, 21) = '' then ',' else (case when g.c2 = g.qts then coalesce(g.psts, ',') else ',' end) || substr(g.qu, 21) || ',' end) as sts
            from g3 as g where g.q is not null),
        tall as (select tgt, p0, per, 1 as lvl, seq, t1 as ets, 0 as fx from t1
        union all
        select tgt, p0, per, 2, seq, t2, 0 from t2
        union all
        select tgt, p0, per, 3, seq, t3, 0 from t3),
        tk as (select tgt, p0, per, max(lvl) as k, max(case when lvl = 3 and fx = 0 then 1 else 0 end) as conv from tall group by tgt, p0, per),
        tm as (select m.*, min(case when hit = 1 then ts end) over (partition by tgt, per order by seq desc, hit desc rows between unbounded preceding and current row) as nh
              from (select a.tgt, a.p0, a.per, a.seq, a.ets as ts, a.fx, 0 as hit from tall as a join tk on (tk.tgt = a.tgt and tk.p0 = a.p0 and tk.per = a.per) and a.lvl = tk.k where tk.conv = 0) as m),
        tstate as (select tk.*, coalesce(f.fx, 2) as state from tk left join (
                select tgt, p0, per, fx, row_number() over (partition by tgt, per order by seq) as rn from tm where hit = 0 and (nh is null or nh - ts > 1209600000000)
              ) as f on (f.tgt = tk.tgt and f.p0 = tk.p0 and f.per = tk.per) and f.rn = 1),
        toutcome as (select * from (
                select tgt, p0, per, (case when conv = 1 then 1
                  when max(case when conv = 0 and state = 1 then 1 else 0 end) over (partition by tgt) = 1 then null
                  when k >= 1 and state = 0 then -1 end) as outcome
                from tstate) as o where outcome is not null)
        select p0 as v0, per, count(*) as entered, count(case when outcome = 1 then 1 end) as converted from toutcome group by p0, per",
        }
      `)
    })
    it('Postgres', async () => {
      expect(await compiled('postgres', 'orderedTrends')).toMatchInlineSnapshot(`
        {
          "parameters": [
            "$pageview",
            "signed_up",
            "purchased",
            7,
            [
              "$pageview",
              "signed_up",
              "purchased",
            ],
          ],
          "sql": "with fe as (select fe0.*, (case when ((sm % 2) >= 1) then 1 when ((sm % 4) >= 2) then 2 when ((sm % 8) >= 4) then 3 else 4 end) as fs from (select coalesce(coalesce("ov"."person_id", "e"."person_id"), cast(md5("e"."distinct_id") as uuid)) as tgt, cast(extract(epoch from "e"."timestamp") * 1000000 as bigint) as ts, "e"."uuid" as uuid,
            cast((case when ("e"."event" = $1) then 1 else 0 end) + (case when ("e"."event" = $2) then 2 else 0 end) + (case when ("e"."event" = $3) then 4 else 0 end) as bigint) as sm,
            cast(0 as bigint) as xm,
            '' as b0
            
            
            from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id where (e.project_id = $4 and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz) and true) and ("e"."event" = any(cast($5 as text[])))) as fe0),
        runs as (select tgt, '' as p0, ts, uuid, sm, xm, fs, b0 from fe),
        inr as (select r.* from runs as r join (select tgt, p0, min(ts) as lo, max(ts) + 1209600000000 as hi from runs where ((sm % 2) >= 1) group by tgt, p0) as sb on (sb.tgt = r.tgt and sb.p0 = r.p0) where r.ts >= sb.lo and r.ts <= sb.hi),
        grp as (select r.*, 0 as multi from inr as r),
        occ0 as (select o.*, (case when "o"."ts" >= 1710284400000000 then 0 + (cast(("o"."ts" - 1710284400000000) as bigint) / cast(86400000000 as bigint)) else -1 end) as eper from (select o.*, row_number() over (partition by o.tgt order by o.ts, o.k1, o.k2, o.uuid, o.k3) as seq
            from (select g.tgt, g.p0, g.ts, g.uuid, g.fs, g.multi, g.sm as mask, g.b0, 1 as kind, lv.l as lvl, (case when g.multi = 1 then lv.l else g.fs end) as k1, (case when g.multi = 1 then g.fs else 0 end) as k2, (case when g.multi = 1 then 0 else 6 - lv.l end) as k3
              from grp as g cross join (values (1, 1), (2, 2), (3, 4)) as lv(l, bv) where ((g.sm % (2 * cast(lv.bv as bigint))) >= lv.bv)) as o) as o),
        t1 as (select tgt, p0, eper as per, min(seq) as seq, min(ts) as st, min(ts) as t1, ',' as sts
              from (select o.*, 0 as cx from occ0 as o) as o where kind = 1 and lvl = 1 group by tgt, p0, eper, ts, cx),
        occ as (select o.tgt, o.p0, pp.per, o.ts, o.uuid, o.fs, o.multi, o.mask, o.b0, o.kind, o.lvl, o.seq
                from occ0 as o join (select tgt, p0, per, min(seq) as fseq from t1 group by tgt, p0, per) as pp on (pp.tgt = o.tgt and pp.p0 = o.p0)
                where o.seq > pp.fseq and not (o.kind = 1 and o.lvl = 1)),
        i2 as (select tgt, p0, per, seq, 0 as k, st, t1, cast(null as bigint) as ts, cast(null as varchar) as u, 0 as multi from t1
        union all
        select tgt, p0, per, seq, 1, cast(null as bigint), cast(null as bigint), ts, cast(uuid as varchar), multi from occ where kind = 1 and lvl = 2),
        w2 as (select tgt, p0, per, seq, k, ts, u, multi, st,
              max(case when k = 0 then seq end) over (partition by tgt, per order by seq rows between unbounded preceding and current row) as tb, max(case when k = 0 then st end) over (partition by tgt, per order by seq rows between unbounded preceding and current row) as cst, max(case when k = 0 then t1 end) over (partition by tgt, per order by seq rows between unbounded preceding and current row) as c1
              
              from i2),
        v2 as (select w.tgt, w.p0, w.per, w.seq, w.ts, w.u, w.multi, w.tb, w.tb as seg, w.cst, w.c1, ms.sts as psts, (w.k = 1 and (w.tb is not null) and w.ts - w.cst <= 1209600000000 and not coalesce((w.multi = 1 and w.c1 = w.ts and strpos(ms.sts, ',' || w.u || ',') > 0), false)) as vp, (w.k = 2 and (w.tb is not null) and w.ts - w.cst <= 1209600000000) as vx
            from w2 as w left join (select tgt, p0, per, seq, sts from t1 where sts <> ',') as ms on (ms.tgt = w.tgt and ms.p0 = w.p0 and ms.per = w.per) and ms.seq = w.tb
            where w.k in (1, 2) and (w.tb is not null)),
        g2 as (select tgt, p0, per, tb, seg, max(cst) as st, max(c1) as c1, max(psts) as psts,
            min(case when vp then seq end) as q, min(case when vp then ts end) as qts, min(case when vp then lpad(cast(seq as varchar), 20, '0') || (case when multi = 1 then u else '' end) end) as qu
            
            from v2 group by tgt, p0, per, tb, seg),
        t2 as (select g.tgt, g.p0, g.per, g.q as seq, g.st, g.c1 as t1, g.qts as t2,
            (case when substr(g.qu, 21) = '' then ',' else (case when g.c1 = g.qts then coalesce(g.psts, ',') else ',' end) || substr(g.qu, 21) || ',' end) as sts
            from g2 as g where g.q is not null),
        i3 as (select tgt, p0, per, seq, 0 as k, st, t1, t2, cast(null as bigint) as ts, cast(null as varchar) as u, 0 as multi from t2
        union all
        select tgt, p0, per, seq, 1, cast(null as bigint), cast(null as bigint), cast(null as bigint), ts, cast(uuid as varchar), multi from occ where kind = 1 and lvl = 3),
        w3 as (select tgt, p0, per, seq, k, ts, u, multi, st,
              max(case when k = 0 then seq end) over (partition by tgt, per order by seq rows between unbounded preceding and current row) as tb, max(case when k = 0 then st end) over (partition by tgt, per order by seq rows between unbounded preceding and current row) as cst, max(case when k = 0 then t1 end) over (partition by tgt, per order by seq rows between unbounded preceding and current row) as c1, max(case when k = 0 then t2 end) over (partition by tgt, per order by seq rows between unbounded preceding and current row) as c2
              
              from i3),
        v3 as (select w.tgt, w.p0, w.per, w.seq, w.ts, w.u, w.multi, w.tb, w.tb as seg, w.cst, w.c1, w.c2, ms.sts as psts, (w.k = 1 and (w.tb is not null) and w.ts - w.cst <= 1209600000000 and not coalesce((w.multi = 1 and w.c2 = w.ts and strpos(ms.sts, ',' || w.u || ',') > 0), false)) as vp, (w.k = 2 and (w.tb is not null) and w.ts - w.cst <= 1209600000000) as vx
            from w3 as w left join (select tgt, p0, per, seq, sts from t2 where sts <> ',') as ms on (ms.tgt = w.tgt and ms.p0 = w.p0 and ms.per = w.per) and ms.seq = w.tb
            where w.k in (1, 2) and (w.tb is not null)),
        g3 as (select tgt, p0, per, tb, seg, max(cst) as st, max(c1) as c1, max(c2) as c2, max(psts) as psts,
            min(case when vp then seq end) as q, min(case when vp then ts end) as qts, min(case when vp then lpad(cast(seq as varchar), 20, '0') || (case when multi = 1 then u else '' end) end) as qu
            
            from v3 group by tgt, p0, per, tb, seg),
        t3 as (select g.tgt, g.p0, g.per, g.q as seq, g.st, g.c1 as t1, g.c2 as t2, g.qts as t3,
            (case when substr(g.qu, 21) = '' then ',' else (case when g.c2 = g.qts then coalesce(g.psts, ',') else ',' end) || substr(g.qu, 21) || ',' end) as sts
            from g3 as g where g.q is not null),
        tall as (select tgt, p0, per, 1 as lvl, seq, t1 as ets, 0 as fx from t1
        union all
        select tgt, p0, per, 2, seq, t2, 0 from t2
        union all
        select tgt, p0, per, 3, seq, t3, 0 from t3),
        tk as (select tgt, p0, per, max(lvl) as k, max(case when lvl = 3 and fx = 0 then 1 else 0 end) as conv from tall group by tgt, p0, per),
        tm as (select m.*, min(case when hit = 1 then ts end) over (partition by tgt, per order by seq desc, hit desc rows between unbounded preceding and current row) as nh
              from (select a.tgt, a.p0, a.per, a.seq, a.ets as ts, a.fx, 0 as hit from tall as a join tk on (tk.tgt = a.tgt and tk.p0 = a.p0 and tk.per = a.per) and a.lvl = tk.k where tk.conv = 0) as m),
        tstate as (select tk.*, coalesce(f.fx, 2) as state from tk left join (
                select tgt, p0, per, fx, row_number() over (partition by tgt, per order by seq) as rn from tm where hit = 0 and (nh is null or nh - ts > 1209600000000)
              ) as f on (f.tgt = tk.tgt and f.p0 = tk.p0 and f.per = tk.per) and f.rn = 1),
        toutcome as (select * from (
                select tgt, p0, per, (case when conv = 1 then 1
                  when max(case when conv = 0 and state = 1 then 1 else 0 end) over (partition by tgt) = 1 then null
                  when k >= 1 and state = 0 then -1 end) as outcome
                from tstate) as o where outcome is not null)
        select p0 as v0, per, count(*) as entered, count(case when outcome = 1 then 1 end) as converted from toutcome group by p0, per",
        }
      `)
    })
  })
  describe('breakdown by an event property, attributed to step 1', () => {
    it('DuckDB', async () => {
      expect(await compiled('duckdb', 'stepAttribution')).toMatchInlineSnapshot(`
        {
          "parameters": [
            "$pageview",
            "signed_up",
            "purchased",
            7,
            [
              "$pageview",
              "signed_up",
              "purchased",
            ],
          ],
          "sql": "with fe as (select fe0.*, (case when ((sm % 2) >= 1) then 1 when ((sm % 4) >= 2) then 2 when ((sm % 8) >= 4) then 3 else 4 end) as fs from (select coalesce(coalesce("ov"."person_id", "e"."person_id"), cast(md5("e"."distinct_id") as uuid)) as tgt, epoch_us("e"."timestamp") as ts, "e"."uuid" as uuid,
            cast((case when ("e"."event" = $1) then 1 else 0 end) + (case when ("e"."event" = $2) then 2 else 0 end) + (case when ("e"."event" = $3) then 4 else 0 end) as bigint) as sm,
            cast(0 as bigint) as xm,
            coalesce("e"."mp_browser", '') as b0
            
            
            from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id where (e.project_id = $4 and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz) and true) and list_contains($5, "e"."event")) as fe0),
        runs as (select fe.tgt, cv.b0 as p0, fe.ts, fe.uuid, fe.sm, fe.xm, fe.fs, fe.b0
                from fe join (select distinct tgt, b0 from fe where ((sm % 4) >= 2)) as cv on cv.tgt = fe.tgt),
        inr as (select r.* from runs as r join (select tgt, p0, min(ts) as lo, max(ts) + 1209600000000 as hi from runs where ((sm % 2) >= 1) group by tgt, p0) as sb on (sb.tgt = r.tgt and sb.p0 = r.p0) where r.ts >= sb.lo and r.ts <= sb.hi),
        grp as (select r.*, (case when m.ts is null then 0 else 1 end) as multi from inr as r left join (select tgt, p0, ts from inr as s group by tgt, p0, ts having count(*) > 1 and (min(sm) <> max(sm) or min(xm) <> max(xm))) as m on (m.tgt = r.tgt and m.p0 = r.p0) and m.ts = r.ts),
        occ as (select o.*, row_number() over (partition by o.tgt, o.p0 order by o.ts, o.k1, o.k2, o.uuid, o.k3) as seq
            from (select g.tgt, g.p0, g.ts, g.uuid, g.fs, g.multi, g.sm as mask, g.b0, 1 as kind, lv.l as lvl, (case when g.multi = 1 then lv.l else g.fs end) as k1, (case when g.multi = 1 then g.fs else 0 end) as k2, (case when g.multi = 1 then 0 else 6 - lv.l end) as k3
              from grp as g cross join (values (1, 1), (2, 2), (3, 4)) as lv(l, bv) where ((g.sm % (2 * cast(lv.bv as bigint))) >= lv.bv)) as o),
        t1 as (select tgt, p0, min(seq) as seq, min(ts) as st, min(ts) as t1,
            coalesce(',' || substr(min(case when multi = 1 then lpad(cast(seq as varchar), 20, '0') || cast(uuid as varchar) end), 21) || ',', ',') as sts
            from occ where kind = 1 and lvl = 1 group by tgt, p0, ts),
        i2 as (select tgt, p0, seq, 0 as k, st, t1, cast(null as bigint) as ts, cast(null as varchar) as u, 0 as multi, cast(null as varchar) as b0 from t1
        union all
        select tgt, p0, seq, 1, cast(null as bigint), cast(null as bigint), ts, cast(uuid as varchar), multi, b0 from occ where kind = 1 and lvl = 2),
        w2 as (select r.tgt, r.p0, r.seq, r.k, r.ts, r.u, r.multi, r.b0, r.st,
              r.tb, lt.st as cst, lt.t1 as c1
              
              from (select tgt, p0, seq, k, ts, u, multi, b0, st,
              max(case when k = 0 then seq end) over (partition by tgt, p0 order by seq rows between unbounded preceding and current row) as tb from i2) as r left join t1 as lt on (lt.tgt = r.tgt and lt.p0 = r.p0) and lt.seq = r.tb),
        v2 as (select w.tgt, w.p0, w.seq, w.ts, w.u, w.multi, w.tb, w.tb as seg, w.cst, w.c1, ms.sts as psts, (w.k = 1 and (w.tb is not null) and w.ts - w.cst <= 1209600000000 and w.b0 = w.p0 and not coalesce((w.multi = 1 and w.c1 = w.ts and strpos(ms.sts, ',' || w.u || ',') > 0), false)) as vp, (w.k = 2 and (w.tb is not null) and w.ts - w.cst <= 1209600000000) as vx
            from w2 as w left join (select tgt, p0, seq, sts from t1 where sts <> ',') as ms on (ms.tgt = w.tgt and ms.p0 = w.p0) and ms.seq = w.tb
            where w.k in (1, 2) and (w.tb is not null)),
        g2 as (select tgt, p0, tb, seg, max(cst) as st, max(c1) as c1, max(psts) as psts,
            min(case when vp then seq end) as q, min(case when vp then ts end) as qts, min(case when vp then lpad(cast(seq as varchar), 20, '0') || (case when multi = 1 then u else '' end) end) as qu
            
            from v2 group by tgt, p0, tb, seg),
        t2 as (select g.tgt, g.p0, g.q as seq, g.st, g.c1 as t1, g.qts as t2,
            (case when substr(g.qu, 21) = '' then ',' else (case when g.c1 = g.qts then coalesce(g.psts, ',') else ',' end) || substr(g.qu, 21) || ',' end) as sts
            from g2 as g where g.q is not null),
        i3 as (select tgt, p0, seq, 0 as k, st, t1, t2, cast(null as bigint) as ts, cast(null as varchar) as u, 0 as multi from t2
        union all
        select tgt, p0, seq, 1, cast(null as bigint), cast(null as bigint), cast(null as bigint), ts, cast(uuid as varchar), multi from occ where kind = 1 and lvl = 3),
        w3 as (select r.tgt, r.p0, r.seq, r.k, r.ts, r.u, r.multi, r.st,
              r.tb, lt.st as cst, lt.t1 as c1, lt.t2 as c2
              
              from (select tgt, p0, seq, k, ts, u, multi, st,
              max(case when k = 0 then seq end) over (partition by tgt, p0 order by seq rows between unbounded preceding and current row) as tb from i3) as r left join t2 as lt on (lt.tgt = r.tgt and lt.p0 = r.p0) and lt.seq = r.tb),
        v3 as (select w.tgt, w.p0, w.seq, w.ts, w.u, w.multi, w.tb, w.tb as seg, w.cst, w.c1, w.c2, ms.sts as psts, (w.k = 1 and (w.tb is not null) and w.ts - w.cst <= 1209600000000 and not coalesce((w.multi = 1 and w.c2 = w.ts and strpos(ms.sts, ',' || w.u || ',') > 0), false)) as vp, (w.k = 2 and (w.tb is not null) and w.ts - w.cst <= 1209600000000) as vx
            from w3 as w left join (select tgt, p0, seq, sts from t2 where sts <> ',') as ms on (ms.tgt = w.tgt and ms.p0 = w.p0) and ms.seq = w.tb
            where w.k in (1, 2) and (w.tb is not null)),
        g3 as (select tgt, p0, tb, seg, max(cst) as st, max(c1) as c1, max(c2) as c2, max(psts) as psts,
            min(case when vp then seq end) as q, min(case when vp then ts end) as qts, min(case when vp then lpad(cast(seq as varchar), 20, '0') || (case when multi = 1 then u else '' end) end) as qu
            
            from v3 group by tgt, p0, tb, seg),
        t3 as (select g.tgt, g.p0, g.q as seq, g.st, g.c1 as t1, g.c2 as t2, g.qts as t3,
            (case when substr(g.qu, 21) = '' then ',' else (case when g.c2 = g.qts then coalesce(g.psts, ',') else ',' end) || substr(g.qu, 21) || ',' end) as sts
            from g3 as g where g.q is not null),
        alld as (select t.tgt, t.p0, 1 as lvl, t.seq, 1 as clean, 0 as marked, t.t1, cast(null as bigint) as t2, cast(null as bigint) as t3 from t1 as t
        union all
        select t.tgt, t.p0, 2 as lvl, t.seq, 1 as clean, 0 as marked, t.t1, t.t2, cast(null as bigint) as t3 from t2 as t
        union all
        select t.tgt, t.p0, 3 as lvl, t.seq, 1 as clean, 0 as marked, t.t1, t.t2, t.t3 from t3 as t),
        outcome as (select tgt, p0, lvl - 1 as reached, t1, t2, t3 from (
                select a.*, row_number() over (partition by tgt, p0 order by lvl desc, seq) as rn from alld as a) as r where rn = 1),
        fin as (select o.tgt, o.p0, (case when rk.rn <= 10 then o.p0 else 'Other' end) as v0, rk.rn, o.reached, o.t1, o.t2, o.t3
            from outcome as o join (
              select p0, row_number() over (order by c2 desc, c1 desc, c0 desc, p0) as rn from (select p0, count(case when reached >= 0 then 1 end) as c0, count(case when reached >= 1 then 1 end) as c1, count(case when reached >= 2 then 1 end) as c2 from outcome group by p0) as vc
            ) as rk on rk.p0 = o.p0)
        select v0, min(rn) as rn, count(case when reached >= 0 then 1 end) as c0, count(case when reached >= 1 then 1 end) as c1, count(case when reached >= 2 then 1 end) as c2, cast(avg((case when reached >= 1 and t2 - t1 > 0 then t2 - t1 end)) as double precision) / 1000000.0 as a1, cast(quantile_cont((case when reached >= 1 and t2 - t1 > 0 then t2 - t1 end), 0.5) as double precision) / 1000000.0 as m1, cast(avg((case when reached >= 2 and t3 - t2 > 0 then t3 - t2 end)) as double precision) / 1000000.0 as a2, cast(quantile_cont((case when reached >= 2 and t3 - t2 > 0 then t3 - t2 end), 0.5) as double precision) / 1000000.0 as m2 from fin group by v0",
        }
      `)
    })
    it('Postgres', async () => {
      expect(await compiled('postgres', 'stepAttribution')).toMatchInlineSnapshot(`
        {
          "parameters": [
            "$pageview",
            "signed_up",
            "purchased",
            7,
            [
              "$pageview",
              "signed_up",
              "purchased",
            ],
          ],
          "sql": "with fe as (select fe0.*, (case when ((sm % 2) >= 1) then 1 when ((sm % 4) >= 2) then 2 when ((sm % 8) >= 4) then 3 else 4 end) as fs from (select coalesce(coalesce("ov"."person_id", "e"."person_id"), cast(md5("e"."distinct_id") as uuid)) as tgt, cast(extract(epoch from "e"."timestamp") * 1000000 as bigint) as ts, "e"."uuid" as uuid,
            cast((case when ("e"."event" = $1) then 1 else 0 end) + (case when ("e"."event" = $2) then 2 else 0 end) + (case when ("e"."event" = $3) then 4 else 0 end) as bigint) as sm,
            cast(0 as bigint) as xm,
            coalesce("e"."mp_browser", '') as b0
            
            
            from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id where (e.project_id = $4 and e.timestamp >= cast('2024-03-12T23:00:00.000000Z' as timestamptz) and e.timestamp <= cast('2024-03-20T22:59:59.999999Z' as timestamptz) and true) and ("e"."event" = any(cast($5 as text[])))) as fe0),
        runs as (select fe.tgt, cv.b0 as p0, fe.ts, fe.uuid, fe.sm, fe.xm, fe.fs, fe.b0
                from fe join (select distinct tgt, b0 from fe where ((sm % 4) >= 2)) as cv on cv.tgt = fe.tgt),
        inr as (select r.* from runs as r join (select tgt, p0, min(ts) as lo, max(ts) + 1209600000000 as hi from runs where ((sm % 2) >= 1) group by tgt, p0) as sb on (sb.tgt = r.tgt and sb.p0 = r.p0) where r.ts >= sb.lo and r.ts <= sb.hi),
        grp as (select r.*, (case when m.ts is null then 0 else 1 end) as multi from inr as r left join (select tgt, p0, ts from inr as s group by tgt, p0, ts having count(*) > 1 and (min(sm) <> max(sm) or min(xm) <> max(xm))) as m on (m.tgt = r.tgt and m.p0 = r.p0) and m.ts = r.ts),
        occ as (select o.*, row_number() over (partition by o.tgt, o.p0 order by o.ts, o.k1, o.k2, o.uuid, o.k3) as seq
            from (select g.tgt, g.p0, g.ts, g.uuid, g.fs, g.multi, g.sm as mask, g.b0, 1 as kind, lv.l as lvl, (case when g.multi = 1 then lv.l else g.fs end) as k1, (case when g.multi = 1 then g.fs else 0 end) as k2, (case when g.multi = 1 then 0 else 6 - lv.l end) as k3
              from grp as g cross join (values (1, 1), (2, 2), (3, 4)) as lv(l, bv) where ((g.sm % (2 * cast(lv.bv as bigint))) >= lv.bv)) as o),
        t1 as (select tgt, p0, min(seq) as seq, min(ts) as st, min(ts) as t1,
            coalesce(',' || substr(min(case when multi = 1 then lpad(cast(seq as varchar), 20, '0') || cast(uuid as varchar) end), 21) || ',', ',') as sts
            from occ where kind = 1 and lvl = 1 group by tgt, p0, ts),
        i2 as (select tgt, p0, seq, 0 as k, st, t1, cast(null as bigint) as ts, cast(null as varchar) as u, 0 as multi, cast(null as varchar) as b0 from t1
        union all
        select tgt, p0, seq, 1, cast(null as bigint), cast(null as bigint), ts, cast(uuid as varchar), multi, b0 from occ where kind = 1 and lvl = 2),
        w2 as (select tgt, p0, seq, k, ts, u, multi, b0, st,
              max(case when k = 0 then seq end) over (partition by tgt, p0 order by seq rows between unbounded preceding and current row) as tb, max(case when k = 0 then st end) over (partition by tgt, p0 order by seq rows between unbounded preceding and current row) as cst, max(case when k = 0 then t1 end) over (partition by tgt, p0 order by seq rows between unbounded preceding and current row) as c1
              
              from i2),
        v2 as (select w.tgt, w.p0, w.seq, w.ts, w.u, w.multi, w.tb, w.tb as seg, w.cst, w.c1, ms.sts as psts, (w.k = 1 and (w.tb is not null) and w.ts - w.cst <= 1209600000000 and w.b0 = w.p0 and not coalesce((w.multi = 1 and w.c1 = w.ts and strpos(ms.sts, ',' || w.u || ',') > 0), false)) as vp, (w.k = 2 and (w.tb is not null) and w.ts - w.cst <= 1209600000000) as vx
            from w2 as w left join (select tgt, p0, seq, sts from t1 where sts <> ',') as ms on (ms.tgt = w.tgt and ms.p0 = w.p0) and ms.seq = w.tb
            where w.k in (1, 2) and (w.tb is not null)),
        g2 as (select tgt, p0, tb, seg, max(cst) as st, max(c1) as c1, max(psts) as psts,
            min(case when vp then seq end) as q, min(case when vp then ts end) as qts, min(case when vp then lpad(cast(seq as varchar), 20, '0') || (case when multi = 1 then u else '' end) end) as qu
            
            from v2 group by tgt, p0, tb, seg),
        t2 as (select g.tgt, g.p0, g.q as seq, g.st, g.c1 as t1, g.qts as t2,
            (case when substr(g.qu, 21) = '' then ',' else (case when g.c1 = g.qts then coalesce(g.psts, ',') else ',' end) || substr(g.qu, 21) || ',' end) as sts
            from g2 as g where g.q is not null),
        i3 as (select tgt, p0, seq, 0 as k, st, t1, t2, cast(null as bigint) as ts, cast(null as varchar) as u, 0 as multi from t2
        union all
        select tgt, p0, seq, 1, cast(null as bigint), cast(null as bigint), cast(null as bigint), ts, cast(uuid as varchar), multi from occ where kind = 1 and lvl = 3),
        w3 as (select tgt, p0, seq, k, ts, u, multi, st,
              max(case when k = 0 then seq end) over (partition by tgt, p0 order by seq rows between unbounded preceding and current row) as tb, max(case when k = 0 then st end) over (partition by tgt, p0 order by seq rows between unbounded preceding and current row) as cst, max(case when k = 0 then t1 end) over (partition by tgt, p0 order by seq rows between unbounded preceding and current row) as c1, max(case when k = 0 then t2 end) over (partition by tgt, p0 order by seq rows between unbounded preceding and current row) as c2
              
              from i3),
        v3 as (select w.tgt, w.p0, w.seq, w.ts, w.u, w.multi, w.tb, w.tb as seg, w.cst, w.c1, w.c2, ms.sts as psts, (w.k = 1 and (w.tb is not null) and w.ts - w.cst <= 1209600000000 and not coalesce((w.multi = 1 and w.c2 = w.ts and strpos(ms.sts, ',' || w.u || ',') > 0), false)) as vp, (w.k = 2 and (w.tb is not null) and w.ts - w.cst <= 1209600000000) as vx
            from w3 as w left join (select tgt, p0, seq, sts from t2 where sts <> ',') as ms on (ms.tgt = w.tgt and ms.p0 = w.p0) and ms.seq = w.tb
            where w.k in (1, 2) and (w.tb is not null)),
        g3 as (select tgt, p0, tb, seg, max(cst) as st, max(c1) as c1, max(c2) as c2, max(psts) as psts,
            min(case when vp then seq end) as q, min(case when vp then ts end) as qts, min(case when vp then lpad(cast(seq as varchar), 20, '0') || (case when multi = 1 then u else '' end) end) as qu
            
            from v3 group by tgt, p0, tb, seg),
        t3 as (select g.tgt, g.p0, g.q as seq, g.st, g.c1 as t1, g.c2 as t2, g.qts as t3,
            (case when substr(g.qu, 21) = '' then ',' else (case when g.c2 = g.qts then coalesce(g.psts, ',') else ',' end) || substr(g.qu, 21) || ',' end) as sts
            from g3 as g where g.q is not null),
        alld as (select t.tgt, t.p0, 1 as lvl, t.seq, 1 as clean, 0 as marked, t.t1, cast(null as bigint) as t2, cast(null as bigint) as t3 from t1 as t
        union all
        select t.tgt, t.p0, 2 as lvl, t.seq, 1 as clean, 0 as marked, t.t1, t.t2, cast(null as bigint) as t3 from t2 as t
        union all
        select t.tgt, t.p0, 3 as lvl, t.seq, 1 as clean, 0 as marked, t.t1, t.t2, t.t3 from t3 as t),
        outcome as (select tgt, p0, lvl - 1 as reached, t1, t2, t3 from (
                select a.*, row_number() over (partition by tgt, p0 order by lvl desc, seq) as rn from alld as a) as r where rn = 1),
        fin as (select o.tgt, o.p0, (case when rk.rn <= 10 then o.p0 else 'Other' end) as v0, rk.rn, o.reached, o.t1, o.t2, o.t3
            from outcome as o join (
              select p0, row_number() over (order by c2 desc, c1 desc, c0 desc, (p0 collate "C")) as rn from (select p0, count(case when reached >= 0 then 1 end) as c0, count(case when reached >= 1 then 1 end) as c1, count(case when reached >= 2 then 1 end) as c2 from outcome group by p0) as vc
            ) as rk on rk.p0 = o.p0)
        select v0, min(rn) as rn, count(case when reached >= 0 then 1 end) as c0, count(case when reached >= 1 then 1 end) as c1, count(case when reached >= 2 then 1 end) as c2, cast(avg((case when reached >= 1 and t2 - t1 > 0 then t2 - t1 end)) as double precision) / 1000000.0 as a1, cast(percentile_cont(0.5) within group (order by (case when reached >= 1 and t2 - t1 > 0 then t2 - t1 end)) as double precision) / 1000000.0 as m1, cast(avg((case when reached >= 2 and t3 - t2 > 0 then t3 - t2 end)) as double precision) / 1000000.0 as a2, cast(percentile_cont(0.5) within group (order by (case when reached >= 2 and t3 - t2 > 0 then t3 - t2 end)) as double precision) / 1000000.0 as m2 from fin group by v0",
        }
      `)
    })
  })

  // Postgres computes a frame that starts at the current row again for every row when its aggregate cannot
  // undo a row (min, max): quadratic in a heavy person's codes (a strict funnel with an exclusion, 1M events:
  // 4.9 s, then 4.0 s with the frame running the other way). A suffix is a running frame in descending order.
  it('runs no window frame from the current row to the end, on any dialect', async () => {
    let frames = 0
    for (const name of Object.keys(SNAPSHOT_DIALECTS) as Array<keyof typeof SNAPSHOT_DIALECTS>) {
      for (const which of Object.keys(REQUESTS) as Array<keyof typeof REQUESTS>) {
        const { sql } = await compiled(name, which)
        expect(sql, `${name}, ${which}`).not.toMatch(/rows between current row and unbounded following/i)
        frames += sql.match(/rows between unbounded preceding and current row/gi)?.length ?? 0
      }
    }
    // The suffixes are there, running the other way.
    expect(frames).toBeGreaterThan(0)
  })

  it('asks for CTEs computed at each read only where the dialect accepts it, and only where they are read twice', async () => {
    const inlined = async (name: keyof typeof SNAPSHOT_DIALECTS, which: keyof typeof REQUESTS) =>
      [...(await compiled(name, which)).sql.matchAll(/(\w+) as not materialized \(/g)].map((m) => m[1])
    // DuckDB: the ordered funnel's step lists read `fe` and `runs` twice; the strict funnel reads `runs` twice, its stored `fe` once.
    expect(await inlined('duckdb', 'ordered')).toEqual(['fe', 'runs'])
    expect(await inlined('duckdb', 'strictExcluding')).toEqual(['runs'])
    // Under a first or last touch breakdown a strict funnel's `fe` is every event of the range, read again for each target's value.
    expect(await inlined('duckdb', 'strictLastTouch')).toEqual(['fe', 'runs'])
    // Unordered funnels and trends keep every CTE as the planner chooses (measured slower inlined).
    expect(await inlined('duckdb', 'unorderedExcluding')).toEqual([])
    expect(await inlined('duckdb', 'orderedTrends')).toEqual([])
    // Postgres says nothing of it (SqlHooks.inlinesCtes unset): never asked.
    for (const which of Object.keys(REQUESTS) as Array<keyof typeof REQUESTS>) expect(await inlined('postgres', which), which).toEqual([])
  })
})
