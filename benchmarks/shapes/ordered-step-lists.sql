-- Hand-written ordered 3-step funnel (performance.md: one sorted list per step per person, nested lambdas):
-- per person, each step-0 time a, the first step-1 time b in (a, a + 14 days], then any step-2 time in (b, a + 14 days];
-- the person's furthest level over all a. Same-instant ties and exclusions are not handled (PostHog's are).
-- Parameters: $1, $2, $3 the steps' event names, $4 the project.
with ev as (
  select coalesce(ov.person_id, e.person_id, cast(md5(e.distinct_id) as uuid)) as p, epoch_us(e.timestamp) as t, e.event as ev
  from events e left join person_distinct_id_overrides ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id
  where e.project_id = $4 and e.timestamp >= '2024-10-03T00:00:00Z'::timestamptz and e.timestamp <= '2024-12-31T23:59:59.999999Z'::timestamptz
    and list_contains([$1, $2, $3], e.event)
),
per as (
  select p,
    list(t order by t) filter (where ev = $1) as s0,
    coalesce(list(t order by t) filter (where ev = $2), []) as s1,
    coalesce(list(t order by t) filter (where ev = $3), []) as s2
  from ev group by p having count(*) filter (where ev = $1) > 0
),
starts as (
  select p, list_transform(s0, a -> struct_pack(a := a, b := list_min(list_filter(s1, x -> x > a and x <= a + 1209600000000)))) as ab, s2 from per
),
lv as (
  select p, list_max(list_transform(ab, r -> case when r.b is null then 1 when len(list_filter(s2, y -> y > r.b and y <= r.a + 1209600000000)) > 0 then 3 else 2 end)) as lvl from starts
)
select count(*) as c0, count(*) filter (where lvl >= 2) as c1, count(*) filter (where lvl >= 3) as c2 from lv

