import { sql } from 'kysely'
import type { EngineContext } from '../../context.js'
import { ValidationError } from '../../errors.js'
import { compilePropertyFilters } from '../filters/compile-property-filters.js'
import { int, join, withCtes, type Sql } from '../funnels/compile/sql-kit.js'
import { funnelEnv } from '../funnels/funnel-env.js'
import { pageActors, type ActorsPage, type ActorsResult } from '../actors/actor-details.js'
import { actorCtes, actorEvents } from './correlation-actors-sql.js'
import { actorPropertiesJoin, namedPropertyText } from './contingency-sql.js'
import { decodeCorrelationActorsRequest } from './decode-correlation-params.js'
import { funnelStepNames } from './run-funnel-correlation.js'

const MAX_LIMIT = 10_000

/**
 * The actors behind a correlation row's `success_people_url` or
 * `failure_people_url` (PostHog's `FunnelCorrelationActors`): the funnel's
 * actors with `funnel_correlation_person_converted` (true: reached the last
 * step; false: entered, did not; absent: both) that did
 * `funnel_correlation_person_entity` (its event, passing its property
 * filters) while in the funnel, the same window the counts read; for
 * `properties` correlations, whose property text (as the counts read it:
 * missing is '') equals each of `funnel_correlation_property_values`. The
 * correlation's exclusion lists do not apply (PostHog's). Ordered by id;
 * `count` is every such actor. ValidationError naming the field.
 */
export async function correlationActors(ctx: EngineContext, projectId: number, params: unknown, page: ActorsPage): Promise<ActorsResult> {
  ctx.assertOpen()
  if (!Number.isSafeInteger(page.limit) || page.limit < 1 || page.limit > MAX_LIMIT) throw new ValidationError([{ path: ['limit'], message: `limit is between 1 and ${MAX_LIMIT}` }])
  if (!Number.isSafeInteger(page.offset) || page.offset < 0) throw new ValidationError([{ path: ['offset'], message: 'offset is a non-negative integer' }])
  const request = decodeCorrelationActorsRequest(params)
  const env = await funnelEnv(ctx, projectId, request.funnel)
  const hooks = ctx.adapter.sql
  const ctes = actorCtes(hooks, request.funnel, env)
  const last = int(request.funnel.steps.length - 1)
  const side: Sql = request.converted === null ? sql`true` : request.converted ? sql`ca.reached = ${last}` : sql`ca.reached <> ${last}`
  let actors: Sql
  if (request.type === 'properties') {
    const { join: propsJoin, properties } = actorPropertiesJoin(env.project.id, request.funnel)
    const matches = request.propertyValues.map((p) => sql`coalesce(${hooks.textInList(namedPropertyText(hooks, properties, p.key), p.values)}, false)`)
    actors = sql`select cast(ca.tgt as varchar) as a, 1 as n from ca ${propsJoin} where ${side} and ${join(matches, ' and ')}`
  } else {
    const entity = request.entity!
    const stepNames = await funnelStepNames(ctx, request, env)
    const events = actorEvents(request.funnel, env, hooks, stepNames, entity.properties)
    const filters = compilePropertyFilters(entity.properties, events.sources)
    actors = sql`select cast(ca.tgt as varchar) as a, 1 as n from ${events.from}
      where ${events.where} and e.event = ${entity.event} and ${side} and ${filters} group by ca.tgt`
  }
  return pageActors(ctx, env.project.id, withCtes(ctes, actors), page, request.funnel.aggregationGroup)
}
