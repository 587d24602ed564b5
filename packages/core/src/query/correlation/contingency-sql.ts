import { sql, type Expression } from 'kysely'
import type { SqlHooks } from '../../storage.js'
import { int, join, withCtes, type Cte, type Sql } from '../funnels/compile/sql-kit.js'
import { actorCtes, actorEvents, type ActorEvents } from './correlation-actors-sql.js'
import type { CorrelationRequest } from './correlation-request.js'
import type { FunnelEnv } from '../funnels/funnel-env.js'
import type { FunnelRequest } from '../funnels/funnel-request.js'
import { eventPropertyText } from '../filters/compile-property-filters.js'

/** PostHog's `ELEMENTS_DIVIDER`, between an autocapture's `$event_type` and its elements chain. */
export const ELEMENTS_DIVIDER = '__~~__'

/** One row of the contingency query: a correlation row (`tot` 0) or the totals (`tot` 1). */
export interface ContingencyRow {
  readonly tot: number
  /** The event name (events, event_with_properties); null for properties. */
  readonly ev: string | null
  /** The property name (`elements_chain` for autocapture); null for events. */
  readonly k: string | null
  readonly v: string | null
  /** Actors who converted / did not, among those having the row's event or value. */
  readonly s: number
  readonly f: number
}

const notIn = (hooks: SqlHooks, text: Expression<string | null>, values: ReadonlyArray<string>): Sql =>
  values.length === 0 ? sql`true` : sql`not coalesce(${hooks.textInList(text, values)}, false)`

/**
 * Where the actors' own properties live: their person's or, aggregating by
 * groups, their group's. PostHog joins persons with an inner JOIN
 * (`JOIN (person query) person ON person.id = funnel_actors.actor_id`), so an
 * actor without a person row (personless events) has no properties and no
 * row, and only the totals count it; groups with a LEFT JOIN (a group without
 * a row reads as no properties). Aggregating by a HogQL expression, an actor
 * is read as the person whose id its value spells, and a value naming no
 * person (a session) has no row either.
 */
export function actorPropertiesJoin(projectId: number, funnel: Pick<FunnelRequest, 'aggregationGroup' | 'aggregateByHogql'>): { join: Sql; properties: Expression<unknown> } {
  const group = funnel.aggregationGroup
  if (group === null && funnel.aggregateByHogql !== null) {
    return { join: sql`join persons as ap on ap.project_id = ${projectId} and cast(ap.uuid as text) = ca.tgt`, properties: sql.ref('ap.properties') }
  }
  if (group === null) {
    return { join: sql`join persons as ap on ap.project_id = ${projectId} and ap.uuid = ca.tgt`, properties: sql.ref('ap.properties') }
  }
  return {
    join: sql`left join groups as ap on ap.project_id = ${projectId} and ap.group_type_index = ${int(group)} and ap.group_key = ca.tgt`,
    properties: sql.ref('ap.properties'),
  }
}

/** The text a `properties` correlation reads for a named property: missing and JSON null are '' (PostHog's JSONExtractRaw gives ''). */
export const namedPropertyText = (hooks: SqlHooks, properties: Expression<unknown>, key: string): Expression<string> => sql<string>`coalesce(${hooks.jsonText(properties, key)}, '')`

/** The `(k, v)` an event_with_properties correlation reads off one event: each property, or its autocapture elements. */
export function eventPropertyPairs(request: CorrelationRequest, events: ActorEvents, hooks: SqlHooks): { join: Sql; k: Sql; v: Sql; present: Sql } {
  const src = events.sources
  if (request.eventNames.includes('$autocapture')) {
    // PostHog: once $autocapture is among the names, every named event is read by its elements chain.
    const chain = src.elementsChain ?? sql`''`
    return {
      join: sql``,
      k: sql`'elements_chain'`,
      v: sql`(coalesce(${eventPropertyText(src, '$event_type')}, '') || ${ELEMENTS_DIVIDER} || coalesce(${chain}, ''))`,
      present: sql`true`,
    }
  }
  // JSONExtractKeysAndValues(properties, 'String') skips JSON nulls.
  return { join: sql`${hooks.jsonEntries(src.event, 'kv')}`, k: sql`kv.key`, v: sql`kv.value`, present: sql`kv.value is not null` }
}

/**
 * `(tgt, reached, k, v)` for each actor and named property: the actors
 * joined to their properties once, each name's text read into a column of
 * its own (all of them in one read of the document where the dialect has
 * `jsonTexts`), then one row per name (a cross join with the names'
 * indexes). One join per name, as a union, read the properties table once
 * per name: DuckDB, 10M events, three names: 544 -> 431 ms for the whole
 * correlation.
 */
function namedPropertyPairs(hooks: SqlHooks, names: ReadonlyArray<string>, propsJoin: Sql, properties: Expression<unknown>): Sql {
  if (names.length === 1) return sql`select ca.tgt, ca.reached, cast(${names[0]!} as varchar) as k, ${namedPropertyText(hooks, properties, names[0]!)} as v from ca ${propsJoin}`
  const indexes = join(names.map((name, i) => sql`select ${int(i)} as i, cast(${name} as varchar) as k`), '\nunion all\n')
  const texts = hooks.jsonTexts
    ? sql`${hooks.jsonTexts(properties, names)} as jl`
    : sql.join(names.map((name, i) => sql`${namedPropertyText(hooks, properties, name)} as ${sql.raw(`v${i}`)}`))
  // As namedPropertyText: a missing key or JSON null reads ''.
  const text = (i: number): Sql => (hooks.jsonTexts ? sql`coalesce(x.jl[${int(i + 1)}], '')` : sql`x.${sql.raw(`v${i}`)}`)
  const pick = sql`case n.i ${sql.join(names.map((_, i) => sql`when ${int(i)} then ${text(i)}`), sql` `)} end`
  return sql`select x.tgt, x.reached, n.k, ${pick} as v
    from (select ca.tgt, ca.reached, ${texts} from ca ${propsJoin}) as x
    cross join (${indexes}) as n`
}

/**
 * A correlation's statement, pure: the contingency table over the funnel's
 * actors (`actorCtes`) and their events while in it (`actorEvents`, which
 * leave out `stepNames`).
 */
export function correlationSql(hooks: SqlHooks, request: CorrelationRequest, env: FunnelEnv, stepNames: ReadonlyArray<string>): Sql {
  return contingencySql(request, actorCtes(hooks, request.funnel, env), actorEvents(request.funnel, env, hooks, stepNames), hooks, env.project.id)
}

/**
 * The contingency table in one statement (PostHog's `get_contingency_table_query`):
 * per event (`events`), per event, property and value (`event_with_properties`,
 * kept when more than 2 actors have it), or per property and value of the
 * actors (`properties`), the distinct actors that converted (`reached` is the
 * last step) and that did not; plus one totals row over every actor.
 */
export function contingencySql(
  request: CorrelationRequest,
  ctes: ReadonlyArray<Cte>,
  events: ActorEvents,
  hooks: SqlHooks,
  projectId: number,
): Sql {
  const last = int(request.funnel.steps.length - 1)
  const counts = sql`count(distinct case when ca.reached = ${last} then ca.tgt end) as s, count(distinct case when ca.reached <> ${last} then ca.tgt end) as f`
  const nul = sql`cast(null as varchar)`
  let rows: Sql
  if (request.type === 'events') {
    rows = sql`select 0 as tot, e.event as ev, ${nul} as k, ${nul} as v, ${counts}
      from ${events.from} where ${events.where} and ${notIn(hooks, sql.ref('e.event'), request.excludeEventNames)} group by e.event`
  } else if (request.type === 'event_with_properties') {
    const pair = eventPropertyPairs(request, events, hooks)
    rows = sql`select 0 as tot, ev, k, v, ${counts} from (
        select ca.tgt, ca.reached, e.event as ev, ${pair.k} as k, ${pair.v} as v
        from ${events.from} ${pair.join}
        where ${events.where} and coalesce(${hooks.textInList(sql.ref('e.event'), request.eventNames)}, false) and ${pair.present}
      ) as ca where ${notIn(hooks, sql.ref('k'), request.excludeEventPropertyNames)}
      group by ev, k, v having count(distinct ca.tgt) > 2`
  } else {
    const { join: propsJoin, properties } = actorPropertiesJoin(projectId, request.funnel)
    const pairs = request.propertyNames.includes('$all')
      ? sql`select ca.tgt, ca.reached, kv.key as k, kv.value as v from ca ${propsJoin} ${hooks.jsonEntries(properties, 'kv')} where kv.value is not null`
      : namedPropertyPairs(hooks, [...new Set(request.propertyNames)], propsJoin, properties)
    // Each actor is one row of `ca` (as the totals row counts them) and has one row per name here (the names are
    // distinct, an object's keys too): plain counts are its distinct counts, without a distinct set per group.
    const actors = sql`count(case when ca.reached = ${last} then 1 end) as s, count(case when ca.reached <> ${last} then 1 end) as f`
    rows = sql`select 0 as tot, ${nul} as ev, k, v, ${actors} from (${pairs}) as ca
      where ${notIn(hooks, sql.ref('k'), request.excludePropertyNames)} group by k, v`
  }
  const totals = sql`select 1 as tot, ${nul} as ev, ${nul} as k, ${nul} as v,
    count(case when ca.reached = ${last} then 1 end) as s, count(case when ca.reached <> ${last} then 1 end) as f from ca`
  return withCtes(ctes, sql`${rows}\nunion all\n${totals}`)
}
