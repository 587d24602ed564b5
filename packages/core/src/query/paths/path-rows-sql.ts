import { sql, type RawBuilder } from 'kysely'
import type { PathsRequest } from './paths-request.js'

/** PostHog's SESSION_TIME_THRESHOLD_DEFAULT_SECONDS, in microseconds: a gap this long or longer starts a new session. */
export const SESSION_GAP_MICROS = 30 * 60 * 1_000_000

/** The node PostHog puts between the two ends of a path cut short when both points are set. */
export const ELLIPSIS = '...'

/**
 * One row per node of every kept session path (PostHog's
 * `paths_per_person_query`), from `events` giving `pid` (person), `us`
 * (epoch microseconds), `id` (the uuid, for ties) and `item` (node name):
 *
 * 1. each person's events in time order (ties by uuid), a new session
 *    where the gap to the previous event is 30 minutes or more;
 * 2. within a session, a node equal to the next one is dropped (a run
 *    keeps its last event); so is a last node named '' (PostHog compares
 *    the last with a padding '');
 * 3. the start and end points cut the session (reference §14.2), and
 *    `step_limit` keeps its first (last, with only an end point) nodes, or
 *    both ends around a `...` node.
 *
 * Columns: `pid`, `sid` (session number), `idx` (1-based node index),
 * `item`, `prev` (the previous node's name, null for the first), `dt`
 * (microseconds since the previous node) and `n` (the session's node count).
 * All set-at-a-time window functions; nothing is read into memory.
 */
export function pathRowsSql(events: RawBuilder<unknown>, request: PathsRequest): RawBuilder<unknown> {
  const gap = sql.lit(SESSION_GAP_MICROS)
  const marked = sql`select pid, us, id, item,
      case when lag(us) over w is null or us - lag(us) over w >= ${gap} then 1 else 0 end as starts,
      case when lead(us) over w is not null and lead(us) over w - us < ${gap} then item <> lead(item) over w else item <> '' end as keep
    from (${events}) as ev
    window w as (partition by pid order by us, id)`
  const sessions = sql`select pid, us, id, item, keep,
      sum(starts) over (partition by pid order by us, id rows between unbounded preceding and current row) as sid
    from (${marked}) as m`
  const compact = sql`select pid, sid, us, id, item,
      row_number() over (partition by pid, sid order by us, id) as pos
    from (${sessions}) as s where keep`
  const kept = cutSql(compact, request)
  return sql`select pid, sid, idx, item, us,
      lag(item) over v as prev,
      us - lag(us) over v as dt,
      count(*) over (partition by pid, sid) as n
    from (${kept}) as k
    window v as (partition by pid, sid order by idx)`
}

/** `pid, sid, us, idx, item` of the nodes the points and the step limit keep, from the compacted sessions. */
function cutSql(compact: RawBuilder<unknown>, request: PathsRequest): RawBuilder<unknown> {
  const limit = sql.lit(request.stepLimit)
  const { startPoint: start, endPoint: end } = request
  if (start === null && end === null) return sql`select pid, sid, us, pos as idx, item from (${compact}) as c where pos <= ${limit}`
  if (end === null) {
    const found = sql`select *, min(case when item = ${start} then pos end) over (partition by pid, sid) as sidx from (${compact}) as c`
    return sql`select pid, sid, us, pos - sidx + 1 as idx, item from (${found}) as f where sidx is not null and pos >= sidx and pos < sidx + ${limit}`
  }
  if (start === null) {
    const found = sql`select *, min(case when item = ${end} then pos end) over (partition by pid, sid) as eidx from (${compact}) as c`
    // The last `limit` nodes up to the end point.
    return sql`select pid, sid, us, pos - greatest(eidx - ${limit}, 0) as idx, item from (${found}) as f where eidx is not null and pos <= eidx and pos > eidx - ${limit}`
  }
  const starts = sql`select *, min(case when item = ${start} then pos end) over (partition by pid, sid) as sidx from (${compact}) as c`
  // The first end point at or after the start point.
  const ends = sql`select *, min(case when item = ${end} and pos >= sidx then pos end) over (partition by pid, sid) as eidx from (${starts}) as s`
  const spans = sql`select pid, sid, us, item, pos - sidx + 1 as rel, eidx - sidx + 1 as len from (${ends}) as e where sidx is not null and eidx is not null and pos >= sidx and pos <= eidx`
  // Longer than the limit: the first h nodes, '...' (timed as the node it stands on), the last h.
  const h = Math.floor(request.stepLimit / 2)
  const [hl, h1, h2] = [sql.lit(h), sql.lit(h + 1), sql.lit(2 * h + 1)]
  return sql`select pid, sid, us,
      case when len <= ${limit} or rel <= ${h1} then rel else rel - len + ${h2} end as idx,
      case when len > ${limit} and rel = ${h1} then cast(${sql.lit(ELLIPSIS)} as text) else item end as item
    from (${spans}) as p
    where len <= ${limit} or rel <= ${h1} or rel > len - ${hl}`
}
