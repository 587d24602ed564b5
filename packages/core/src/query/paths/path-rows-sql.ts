import { sql, type RawBuilder } from 'kysely'
import type { PathItems } from './path-items.js'
import type { PathsRequest } from './paths-request.js'

/** PostHog's SESSION_TIME_THRESHOLD_DEFAULT_SECONDS, in microseconds: a gap this long or longer starts a new session. */
export const SESSION_GAP_MICROS = 30 * 60 * 1_000_000

/**
 * One row per node of every kept session path (PostHog's
 * `paths_per_person_query`), from `items.events` giving `pid, pd` (the person),
 * `us` (epoch microseconds), `id` (the uuid, for ties) and `item` (node name,
 * as `items` carries it: the statement starts with `items.ctes`):
 *
 * 1. each person's events in time order (ties by uuid), a new session
 *    where the gap to the previous event is 30 minutes or more
 *    (`sessionGapMicros`; funnel paths split at the funnel's window);
 * 2. within a session, a node equal to the next one is dropped (a run
 *    keeps its last event); so is a last node named '' (PostHog compares
 *    the last with a padding '');
 * 3. the start and end points cut the session (reference §14.2), and
 *    `step_limit` keeps its first (last, with only an end point) nodes, or
 *    both ends around a `...` node.
 *
 * Columns: `pid, pd`, `idx` (1-based node index), `item`, `us`, `prev`
 * (the previous node's name, null for the first), `dt` (microseconds since
 * the previous node) and `last` (the node ends its session's path).
 *
 * Three window passes, each one sort (DuckDB sorts once for all the window
 * functions of a SELECT that share partition and order, whatever their
 * frames; a nested SELECT sorts again): the events by person (session ends,
 * kept nodes), the kept nodes by person (session numbers as running counts,
 * and where the points are as running maxima of the first pass's row
 * numbers, so rows outside the cut go before the next sort), then the kept
 * nodes by session (index, previous node, count). Measured at 1M events on
 * DuckDB: 3.0 s before (five nested passes by a text person id), see the
 * commit for after.
 */
export function pathRowsSql(items: PathItems, request: PathsRequest, sessionGapMicros: number = SESSION_GAP_MICROS): RawBuilder<unknown> {
  if (!Number.isSafeInteger(sessionGapMicros)) throw new RangeError(`paths: not a session gap: ${sessionGapMicros}`)
  const gap = sql.lit(sessionGapMicros)
  const { startPoint: start, endPoint: end } = request
  const marked = sql`select pid, pd, us, id, item,
      row_number() over w as rn,
      coalesce(lead(us) over w - us >= ${gap}, true) as ends,
      case when lead(us) over w - us < ${gap} then item <> lead(item) over w else item <> ${items.blank} end as keep
    from (${items.events}) as ev
    window w as (partition by pid, pd order by us, id)`
  if (start === null && end === null && request.stepLimit <= LAGGED_STEP_LIMIT) return laggedSql(marked, request.stepLimit)
  if (start === null && end !== null) {
    // Up to the session's first end point; whether there is one is known in the last pass (a frame
    // running forward, `current row and unbounded following`, is quadratic on Postgres). One running
    // maximum finds both the session and whether an end point came before in it: a session's last event
    // marks 2rn + 1, a kept end point 2rn (an event that is both ends its session). The latest mark
    // before a row is odd, or there is none (the first session: 1), while no end point came since its
    // session began, and it names the session. (It replaces two maxima: DuckDB, 10M events, the paths to
    // an end point over all events 3.26 -> 2.91 s.)
    const mark = sql`coalesce(max(case when ends then 2 * rn + 1 when keep and item = ${items.name(end)} then 2 * rn end) over ${before}, 1)`
    const sessions = sql`select pid, pd, us, id, item, keep, ${mark} as sid from (${marked}) as m where keep or ends`
    return cutSql(sql`select * from (${sessions}) as s where keep and sid % 2 = 1`, request, items)
  }
  // A session's last event stays (kept or not): the row number of the previous session's last
  // event (0 for the first session) names the session, and point matches at or below it are
  // another session's. One running maximum: each frame aggregate costs about a sort.
  const sid = sql`coalesce(max(case when ends then rn end) over ${before}, 0)`
  const columns: RawBuilder<unknown>[] = [sql`${sid} as sid`]
  const filters: RawBuilder<unknown>[] = [sql`keep`]
  if (start !== null) {
    columns.push(sql`coalesce(max(case when keep and item = ${items.name(start)} then rn end) over ${upTo} > ${sid}, false) as started`)
    filters.push(sql`started`)
  }
  if (end !== null && start !== null) columns.push(sql`sum(case when keep then 1 else 0 end) over ${upTo} as kk`)
  const sessions = sql`select pid, pd, us, id, item, keep, ${sql.join(columns)} from (${marked}) as m where keep or ends`
  return cutSql(sql`select * from (${sessions}) as s where ${sql.join(filters, sql` and `)}`, request, items)
}

/** Up to this step limit, paths without points are numbered by lags (each as cheap as the next), in two passes instead of three. */
const LAGGED_STEP_LIMIT = 5

/**
 * The first `limit` nodes of every session, from the events marked by the
 * first pass, in one more: a session's last event stays (kept or not), so a
 * node's index is one more than the kept nodes right before it that do not
 * end a session, found by `limit` lags; the node is its path's last when it
 * ends the session or the next row is a dropped last event.
 */
function laggedSql(marked: RawBuilder<unknown>, limit: number): RawBuilder<unknown> {
  const steps = Array.from({ length: limit }, (_, i) => sql`when coalesce(lag(ends, ${sql.lit(i + 1)}) over w, true) then ${sql.lit(i + 1)}`)
  const numbered = sql`select pid, pd, us, item, keep, ends, case ${sql.join(steps, sql` `)} else ${sql.lit(limit + 1)} end as idx,
      lag(item) over w as prev, us - lag(us) over w as dt, coalesce(not lead(keep) over w, false) as dropped_next
    from (${marked}) as m where keep or ends
    window w as (${PERSON_ORDER})`
  return sql`select pid, pd, idx, item, us, prev, dt, idx = ${sql.lit(limit)} or ends or dropped_next as last
    from (${numbered}) as c where keep and idx <= ${sql.lit(limit)}`
}

// Frames over the person's rows in time order, all one sort.
const PERSON_ORDER = sql`partition by pid, pd order by us, id`
const before = sql`(${PERSON_ORDER} rows between unbounded preceding and 1 preceding)`
const upTo = sql`(${PERSON_ORDER} rows between unbounded preceding and current row)`
const SESSION = sql`partition by pid, pd, sid order by us, id`
const whole = sql`(${SESSION} rows between unbounded preceding and unbounded following)`

/**
 * The columns of `pathRowsSql` from the kept nodes of the sessions the points
 * keep, each session's from its start point on (with a start point) or up to
 * its first end point (with only an end point).
 */
function cutSql(kept: RawBuilder<unknown>, request: PathsRequest, items: PathItems): RawBuilder<unknown> {
  const limit = sql.lit(request.stepLimit)
  const { startPoint: start } = request
  const end = request.endPoint === null ? null : items.name(request.endPoint)
  if (end === null) {
    // The first `limit` nodes (from the start point: the rows begin there).
    const numbered = sql`select pid, pd, row_number() over v as idx, item, us, lag(item) over v as prev, us - lag(us) over v as dt, count(*) over ${whole} as len
      from (${kept}) as k window v as (${SESSION})`
    return sql`select pid, pd, idx, item, us, prev, dt, idx = least(len, ${limit}) as last from (${numbered}) as c where idx <= ${limit}`
  }
  if (start === null) {
    // The last `limit` nodes up to the end point (the rows end there).
    const counted = sql`select pid, pd, sid, item, us, row_number() over v as pos, count(*) over ${whole} as len, lag(item) over v as prev, us - lag(us) over v as dt,
        max(case when item = ${end} then 1 else 0 end) over ${whole} as has_end
      from (${kept}) as k window v as (${SESSION})`
    const shift = sql`greatest(len - ${limit}, 0)`
    return sql`select pid, pd, sid, pos - ${shift} as idx, item, us, case when pos - ${shift} > 1 then prev end as prev, case when pos - ${shift} > 1 then dt end as dt,
        pos = len as last
      from (${counted}) as c where has_end = 1 and pos > ${shift}`
  }
  // From the start point (the rows begin there) to the first end point after it.
  const spans = sql`select *, row_number() over v as rel,
      min(case when item = ${end} then kk end) over ${whole} - min(kk) over ${whole} + 1 as len
    from (${kept}) as k window v as (${SESSION})`
  // Longer than the limit: the first h nodes, '...' (timed as the node it stands on), the last h.
  const h = Math.floor(request.stepLimit / 2)
  const [hl, h1, h2] = [sql.lit(h), sql.lit(h + 1), sql.lit(2 * h + 1)]
  const cut = sql`select pid, pd, sid, us,
      case when len <= ${limit} or rel <= ${h1} then rel else rel - len + ${h2} end as idx,
      case when len > ${limit} and rel = ${h1} then ${items.ellipsis} else item end as item
    from (${spans}) as p
    where rel <= len and (len <= ${limit} or rel <= ${h1} or rel > len - ${hl})`
  return sql`select pid, pd, idx, item, us, lag(item) over v as prev, us - lag(us) over v as dt, idx = count(*) over (partition by pid, pd, sid) as last
    from (${cut}) as c
    window v as (partition by pid, pd, sid order by idx)`
}
