import { sql, type Expression, type SqlBool } from 'kysely'
import type { SqlHooks } from '../../storage.js'
import type { PropertyFilters } from '../filters/property-filters.js'
import { id, int, type Cte, type Sql } from '../funnels/compile/sql-kit.js'
import type { FunnelEnv } from '../funnels/funnel-env.js'
import { planFunnel } from '../funnels/funnel-plan.js'
import type { FunnelRequest } from '../funnels/funnel-request.js'
import { outcomeCtes } from '../funnels/funnel-sql.js'
import { eventScope, PERSON_ID, PERSON_KEY } from '../scope/event-scope.js'
import { addFilterNeeds, noNeeds } from '../scope/filter-needs.js'
import type { QuerySources } from '../scope/query-sources.js'

/**
 * The funnel's actors as CTEs ending in `ca(tgt, reached, first_ts,
 * final_ts)`: every target that entered the funnel (PostHog's actors of
 * `funnel_step=1`), its furthest 0-based step, and the epoch-µs times of its
 * reported path's first and last step (`final_ts` null unless it converted).
 * The funnel's own CTEs compute them; `request` has no breakdown, so each
 * target is one row.
 */
export function actorCtes(hooks: SqlHooks, request: FunnelRequest, env: FunnelEnv): Array<Cte> {
  const plan = planFunnel(request, request.steps.length)
  return [...outcomeCtes(hooks, request, env, plan), ['ca', sql`select tgt, reached, t1 as first_ts, ${id(`t${plan.n}`)} as final_ts from outcome`]]
}

/** The events of the funnel's actors that correlation reads, with their actor's row `ca` joined. */
export interface ActorEvents {
  /** `events as e`, its joins and `ca`. */
  readonly from: Sql
  readonly where: Expression<SqlBool>
  readonly sources: QuerySources
}

/**
 * Each actor's events while it was in the funnel (PostHog's
 * `_get_events_join_query`): in the funnel's date range, strictly after its
 * first step and strictly before its conversion, or, when it did not
 * convert, before the first step plus the conversion window; events named as
 * steps (an action's step events) left out. Global and test-account filters
 * do not apply here, as in PostHog: they only choose the actors. Aggregating
 * by groups, every event carrying the actor's group counts, whoever sent it.
 * Aggregating by a HogQL expression, PostHog joins `event.person_id =
 * actor_id`: the events counted are those whose `person_id` (as HogQL reads
 * it, `PERSON_ID`) is the actor's value, so an expression whose values are
 * not person ids (sessions) correlates no events.
 * `filters` are joined for (persons or groups they read).
 */
export function actorEvents(
  request: FunnelRequest,
  env: FunnelEnv,
  hooks: SqlHooks,
  stepNames: ReadonlyArray<string>,
  filters: PropertyFilters | null = null,
): ActorEvents {
  const scope = eventScope({ project: env.project, hooks, range: env.range, needs: addFilterNeeds(noNeeds(), filters), extensions: env.extensions.filterSources })
  const g = request.aggregationGroup
  const target: Expression<string> = g !== null ? scope.sources.groupKeys[g]! : request.aggregateByHogql !== null ? PERSON_ID : PERSON_KEY
  const ts = scope.sources.timestampMicros
  const conditions: Sql[] = [
    sql`${scope.where}`,
    sql`${ts} > ca.first_ts`,
    sql`${ts} < coalesce(ca.final_ts, ca.first_ts + ${int(request.windowMicros)})`,
  ]
  if (stepNames.length > 0) conditions.push(sql`not coalesce(${hooks.textInList(scope.sources.eventName, stepNames)}, false)`)
  return {
    from: sql`${scope.from} join ca on ca.tgt = ${target}`,
    where: sql<SqlBool>`(${sql.join(conditions, sql` and `)})`,
    sources: scope.sources,
  }
}
