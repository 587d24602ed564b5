import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import { breakdownValueSql } from '../breakdowns/breakdown-value.js'
import { analysisScope } from '../analysis/analysis-scope.js'
import { PERSON_ID, PERSON_KEY } from '../scope/event-scope.js'
import { addFilterNeeds, noNeeds } from '../scope/filter-needs.js'
import { seriesCondition } from '../series/series-condition.js'
import type { SeriesEntity } from '../series/series.js'
import { hogqlTextCompiler } from '../scope/hogql-scope.js'
import type { QueryEnv } from '../analysis/query-env.js'
import type { RetentionRequest } from './retention-request.js'
import type { RetentionWindow } from './retention-window.js'

/**
 * One row per relevant event: `{ a, v, u, st, st0, rt }`, the actor (person
 * or group key), the breakdown value ('' without one), the timestamp in
 * epoch microseconds, and 1/0 flags: a start event, a start event ignoring
 * the target's own property filters (first-ever occurrence only), a return event.
 */
export type RetentionEventRow = { a: string; v: string; u: number; st: number; st0: number; rt: number }

const flag = (condition: Expression<SqlBool>) => sql<number>`(case when ${condition} then 1 else 0 end)`

/**
 * The events a retention request reads (reference §13): the project, the
 * global and test-account filters (on start and return events alike), the
 * start or return entity, and for a cohort breakdown that cohort's persons
 * (`cohort`; its id is then the breakdown value, PostHog's 0 for "all").
 * Recurring retention reads only the window; the first-time types read all
 * time, since a cohort is the actor's first start event ever. With group
 * aggregation, events without that group are left out.
 */
export function retentionEventsSql(env: QueryEnv, request: RetentionRequest, window: RetentionWindow, cohort: number | 'all' | null, actor: RetentionActor = 'id'): RetentionEvents {
  const range = { fromMicros: window.starts[0]! * 1000, toMicros: window.end * 1000 - 1 }
  if (request.retentionType === 'retention_recurring') return eventRows(env, request, cohort, range, actor)
  // The first-time types: all time for each actor's first start event, and the window alone for the
  // activity, as two scans. One scan of all time read twice was kept whole by DuckDB for both readers
  // (10M events, daily first-time retention: 4.9M rows materialized; two scans -30%).
  const all = eventRows(env, request, cohort, null, actor)
  return { ...all, windowRows: eventRows(env, request, cohort, range, actor).rows }
}

/**
 * How rows name a person: `id`, its id as text (the uuid's, or a personless
 * distinct id), which an actors list reads; `key`, the fixed-size
 * `PERSON_KEY`, when only counts are read, where the database groups by a
 * computed key well (`SqlHooks.groupsByComputedKeys`; else ids). The key
 * groups and joins as 16 bytes and needs no lookup of distinct ids. Groups
 * are named by their key either way.
 */
export type RetentionActor = 'id' | 'key'

function eventRows(env: QueryEnv, request: RetentionRequest, cohort: number | 'all' | null, range: { fromMicros: number; toMicros: number } | null, by: RetentionActor): RetentionEvents {
  const needs = addFilterNeeds(addFilterNeeds(noNeeds(), request.target.properties), request.returning.properties)
  const b = request.breakdown
  const scope = analysisScope(env, {
    range,
    properties: request.properties,
    filterTestAccounts: request.filterTestAccounts,
    needs,
    breakdowns: b ? [b] : [],
  })
  const s = scope.sources
  const condition = (entity: SeriesEntity) => seriesCondition(entity, s, (id) => env.extensions.actionCondition(id, s))
  const start = condition(request.target)
  const startAnyProperties = condition({ ...request.target, properties: [] })
  const returning = condition(request.returning)

  const where: Expression<SqlBool>[] = [scope.where]
  // The first-ever type must see the target's events that fail its own filters too.
  where.push(request.retentionType === 'retention_first_ever_occurrence' ? sql<SqlBool>`(${startAnyProperties} or ${returning})` : sql<SqlBool>`(${start} or ${returning})`)
  const names = eventNames(request.target, request.returning)
  // An explicit name list lets the scan skip other events (the OR above hides it from the planner).
  if (names) where.push(sql<SqlBool>`e.event in (${sql.join(names.map((n) => sql`${n}`))})`)
  if (request.groupTypeIndex !== null) where.push(sql<SqlBool>`${s.groupKeys[request.groupTypeIndex]!} <> ''`)
  if (cohort !== null && cohort !== 'all') where.push(env.extensions.cohortCondition(cohort, ['breakdown']))

  // Keys where the database groups by them well (SqlHooks.groupsByComputedKeys); else ids, persons resolved
  // after grouping when no per-event condition or value reads them (see RetentionEvents).
  const keyed = by === 'key' && env.hooks.groupsByComputedKeys === true
  const late = !keyed && request.groupTypeIndex === null && cohort === null && !readsPersons(env, request)
  const person = keyed ? PERSON_KEY : late ? s.distinctId : PERSON_ID
  const actor = request.groupTypeIndex !== null ? sql<string>`${s.groupKeys[request.groupTypeIndex]!}` : person
  let value: Expression<string>
  if (!b) value = sql<string>`cast('' as text)`
  else if (b.type === 'cohort') value = sql<string>`cast(${cohort === 'all' ? '0' : String(cohort)} as text)`
  else {
    const hogql = hogqlTextCompiler(s, env.project.timezone, env.now)
    // PostHog's retention breakdown: ifNull(toString(value), ''): a missing value is ''.
    value = sql<string>`coalesce(${breakdownValueSql(b, s, hogql, ['breakdown'])}, '')`
  }
  const columns = [
    sql`${actor} as a`,
    sql`${value} as v`,
    sql`${s.timestampMicros} as u`,
    sql`${flag(start)} as st`,
    sql`${request.retentionType === 'retention_first_ever_occurrence' ? flag(startAnyProperties) : sql`0`} as st0`,
    sql`${flag(returning)} as rt`,
  ]
  const from = late ? scope.fromWithoutPersons : scope.from
  return { rows: sql<RetentionEventRow>`select ${sql.join(columns, sql`, `)} from ${from} where ${sql.join(where, sql` and `)}`, byDistinctId: late }
}

/**
 * The rows, and whether their actor is still the distinct id: the person
 * join then runs on the grouped per-actor, per-period rows instead of on
 * every event (at 1M events the join costs more than the scan).
 */
export interface RetentionEvents {
  /** Recurring retention: the window's events; the first-time types: all time's. */
  readonly rows: RawBuilder<RetentionEventRow>
  /** The first-time types: the window's events, for the activity (`rows` then serves the first start events); absent for recurring retention. */
  readonly windowRows?: RawBuilder<RetentionEventRow>
  readonly byDistinctId: boolean
}

/**
 * Whether a per-event condition or value reads the person join (`ov`, `p`):
 * person, cohort and HogQL filters anywhere, actions (their steps may hold
 * any), person and HogQL breakdowns.
 */
function readsPersons(env: QueryEnv, request: RetentionRequest): boolean {
  if (env.extensions.needs.person || request.target.kind === 'actions' || request.returning.kind === 'actions') return true
  if (request.breakdown && request.breakdown.type !== 'event' && request.breakdown.type !== 'group') return true
  const filters = [request.properties, request.target.properties, request.returning.properties, ...(request.filterTestAccounts ? [env.project.testAccountFilters] : [])]
  const visit = (node: unknown): boolean => {
    if (Array.isArray(node)) return node.some(visit)
    if (typeof node !== 'object' || node === null) return false
    const n = node as { values?: unknown; key?: unknown; type?: unknown }
    if (Array.isArray(n.values) && n.key === undefined) return n.values.some(visit)
    return !['event', 'element', 'group', undefined, null].includes(n.type as string)
  }
  return filters.some(visit)
}


/** The event names both entities are limited to, or null when either is an action or any event. */
function eventNames(...entities: SeriesEntity[]): string[] | null {
  const names = new Set<string>()
  for (const e of entities) {
    if (e.kind !== 'events' || e.event === null) return null
    names.add(e.event)
  }
  return [...names].sort()
}
