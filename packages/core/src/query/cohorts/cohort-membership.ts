import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import { ValidationError } from '../../errors.js'
import type { SqlHooks } from '../../storage.js'
import { dateToMicros, formatTimestamp } from '../../time/timestamp.js'
import { compileActionCondition } from '../actions/compile-action.js'
import { compilePropertyFilters, type PropertyFilterSources } from '../filters/compile-property-filters.js'
import type { PropertyCondition, PropertyFilters, PropertyGroup } from '../filters/property-filters.js'
import { windowStart } from './behavioral-window.js'
import type { CohortNode } from './cohort-criteria.js'
import type { CohortCatalog } from './load-cohorts.js'

/** Where a cohort's membership is asked from. */
export interface CohortScope {
  /** The person of the row being filtered: a person uuid, or any text that is none (a personless distinct id). */
  readonly personId: Expression<string>
  readonly projectId: number
  /** "Now" of behavioral criteria: the engine clock. */
  readonly now: Date
  readonly hooks: SqlHooks
}

type Bool = Expression<SqlBool>
type Path = ReadonlyArray<string | number>
interface Compiling {
  readonly catalog: CohortCatalog
  readonly scope: CohortScope
  /** Numbers the aliases of nested subqueries, so none shadows another. */
  next: number
}

const TRUE: Bool = sql<SqlBool>`true`
const FALSE: Bool = sql<SqlBool>`false`
const join = (parts: ReadonlyArray<Bool>, op: 'and' | 'or'): Bool =>
  parts.length === 0 ? TRUE : parts.length === 1 ? parts[0]! : sql<SqlBool>`(${sql.join(parts, sql.raw(` ${op} `))})`

/**
 * "The person `scope.personId` is in the cohort": `personId IN (subquery)`,
 * the subquery correlated with nothing, computed at query time (a static
 * cohort's stored persons; a dynamic cohort's persons of the project that
 * meet its criteria, behavioral windows ending at `scope.now`). Never null.
 * Throws `ValidationError` when the cohort is not in the catalog.
 */
export function cohortMembership(cohortId: number, catalog: CohortCatalog, scope: CohortScope): Expression<SqlBool> {
  if (!catalog.cohorts.has(cohortId)) {
    throw new ValidationError([{ path: [], message: `Cohort ${cohortId} does not exist in this project` }], { context: 'invalid cohort' })
  }
  const c: Compiling = { catalog, scope, next: 0 }
  return sql<SqlBool>`coalesce((cast(${scope.personId} as text) in (select cast(m.person_uuid as text) from (${members(cohortId, c)}) as m)), false)`
}

/**
 * The `cohort` member of `PropertyFilterSources` over a catalog: a cohort id
 * that is not in it (no cohort of the project) is refused at the filter's `value`.
 */
export function cohortFilterSource(catalog: CohortCatalog, scope: CohortScope): NonNullable<PropertyFilterSources['cohort']> {
  return (cohortId, path) => {
    if (!catalog.cohorts.has(cohortId)) {
      throw new ValidationError([{ path: [...path, 'value'], message: `Cohort ${cohortId} does not exist in this project` }], { context: 'invalid property filters' })
    }
    return cohortMembership(cohortId, catalog, scope)
  }
}

/** `uuid IN (members)` for a person uuid column, never null. */
const inCohort = (uuid: Expression<unknown>, cohortId: number, c: Compiling): Bool =>
  sql<SqlBool>`coalesce((${uuid} in (${members(cohortId, c)})), false)`

/** A query of one column, `person_uuid`: the cohort's persons. A cohort missing from the catalog has none. */
function members(cohortId: number, c: Compiling): RawBuilder<unknown> {
  const def = c.catalog.cohorts.get(cohortId)
  const n = c.next++
  const { projectId } = c.scope
  if (def?.isStatic) {
    const cp = sql.raw(`cp${n}`)
    return sql`select ${cp}.person_uuid as person_uuid from cohort_people as ${cp} where ${cp}.project_id = ${projectId} and ${cp}.cohort_id = ${cohortId}`
  }
  const p = sql.raw(`p${n}`)
  const where = def?.criteria ? criteria(def.criteria, sql.raw(`p${n}`), c) : FALSE
  return sql`select ${p}.uuid as person_uuid from persons as ${p} where ${p}.project_id = ${projectId} and ${where}`
}

function criteria(node: CohortNode, person: RawBuilder<unknown>, c: Compiling): Bool {
  switch (node.kind) {
    case 'group':
      return join(node.values.map((v) => criteria(v, person, c)), node.type === 'AND' ? 'and' : 'or')
    case 'person': {
      const sources: PropertyFilterSources = { event: sql`null`, person: sql`${person}.properties`, hooks: c.scope.hooks }
      return below(node.path, 2, () => compilePropertyFilters([node.filter], sources))
    }
    case 'cohort': {
      const member = inCohort(sql`${person}.uuid`, node.cohortId, c)
      return node.negated ? sql<SqlBool>`(not ${member})` : member
    }
    case 'behavioral': {
      const member = sql<SqlBool>`coalesce((${person}.uuid in (${performers(node, c)})), false)`
      return node.negated ? sql<SqlBool>`(not ${member})` : member
    }
  }
}

/** The persons who performed the criterion's event a number of times in its window (at least once, as PostHog's). */
function performers(node: Extract<CohortNode, { kind: 'behavioral' }>, c: Compiling): RawBuilder<unknown> {
  const n = c.next++
  const [e, pdi, pp] = [sql.raw(`ce${n}`), sql.raw(`cpdi${n}`), sql.raw(`cpp${n}`)]
  const action = node.entity.type === 'actions' ? c.catalog.actions.get(node.entity.actionId) : undefined
  const filters = [...(action?.steps ?? []).map((s) => s.properties), node.eventFilters]
  const withPerson = filters.some((f) => f !== null && readsPerson(f))
  const sources = {
    event: sql`${e}.properties`,
    eventName: sql<string>`${e}.event`,
    elementsChain: sql<string>`${e}.elements_chain`,
    ...(withPerson ? { person: sql`${pp}.properties` } : {}),
    cohort: (id: number) => inCohort(sql`${pdi}.person_uuid`, id, c),
    hooks: c.scope.hooks,
  }
  const parts: Bool[] = []
  if (node.entity.type === 'events') parts.push(sql<SqlBool>`${e}.event = ${node.entity.event}`)
  else parts.push(action ? below([...node.path, 'key'], 0, () => compileActionCondition(action, sources)) : FALSE)
  const eventFilters = node.eventFilters
  if (eventFilters) parts.push(below([...node.path, 'event_filters'], 1, () => compilePropertyFilters(eventFilters, sources)))
  const from = formatTimestamp(dateToMicros(windowStart(c.scope.now, node.window.value, node.window.unit)))
  const to = formatTimestamp(dateToMicros(c.scope.now))
  const personJoin = withPerson ? sql`left join persons as ${pp} on ${pp}.project_id = ${e}.project_id and ${pp}.uuid = ${pdi}.person_uuid` : sql``
  return sql`select ${pdi}.person_uuid from events as ${e}
    inner join person_distinct_ids as ${pdi} on ${pdi}.project_id = ${e}.project_id and ${pdi}.distinct_id = ${e}.distinct_id ${personJoin}
    where ${e}.project_id = ${c.scope.projectId} and ${e}.timestamp > cast(${from} as timestamptz) and ${e}.timestamp < cast(${to} as timestamptz) and ${join(parts, 'and')}
    group by ${pdi}.person_uuid having count(*) ${sql.raw(node.comparison)} ${node.count}`
}

/** Runs `compile`, reporting a `ValidationError`'s paths below `prefix`, without their first `drop` segments. */
function below<T>(prefix: Path, drop: number, compile: () => T): T {
  try {
    return compile()
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error
    throw new ValidationError(
      error.issues.map((i) => ({ path: [...prefix, ...i.path.slice(drop)], message: i.message })),
      { cause: error, context: 'invalid cohort filters' },
    )
  }
}

function readsPerson(filters: PropertyFilters): boolean {
  const visit = (f: PropertyGroup | PropertyCondition): boolean => ('values' in f ? f.values.some(visit) : f.type === 'person')
  return Array.isArray(filters) ? filters.some(visit) : visit(filters as PropertyGroup)
}
