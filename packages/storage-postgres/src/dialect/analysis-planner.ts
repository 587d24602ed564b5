import { CompiledQuery } from 'kysely'

/**
 * The planner settings of an analysis's statements. A connection takes them
 * just before the first statement it runs inside core's query scope (an
 * analysis), reading the value they replace. A pg client puts that value
 * back before it returns to its pool, so the rest of Sightline and a host
 * sharing the pool plan as they did. PGlite's one session keeps them from one
 * analysis to the next (two more statements per analysis statement cost
 * PGlite about a seventh of the funnel examples' CPU) and puts the value back
 * before any statement outside an analysis and when the engine closes; a
 * host querying the same instance directly in between plans with them.
 *
 * `enable_nestloop` off. An analysis is one statement of many CTEs, and
 * Postgres keeps no statistics on a CTE's columns: a filter on one
 * (`kind = 1 and lvl = 1`) is estimated at a fixed 0.5% per equality, so a
 * CTE of thousands of rows is planned as one row, and the joins above it as
 * nested loops that rescan their inner side for each outer row. An ordered
 * funnel with an exclusion over 1M events ran past its 90 s budget that way;
 * without nested loops, 1.2 s (benchmarks/README.md). Postgres still loops
 * where nothing else can join (LATERAL). Not a session setting: capture and
 * the management reads join a few keys to large tables through indexes,
 * which nested loops do best.
 */
export const analysisPlanner: CompiledQuery<{ before: string }> = CompiledQuery.raw(
  // The select list runs left to right: the value before, then the change.
  "select current_setting('enable_nestloop') as before, set_config('enable_nestloop', 'off', false) as now",
)

/** Puts back the value `analysisPlanner` read. */
export function restorePlanner(before: string): CompiledQuery {
  return CompiledQuery.raw("select set_config('enable_nestloop', $1::text, false)", [before])
}
