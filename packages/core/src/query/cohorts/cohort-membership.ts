import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import { ValidationError } from '../../errors.js'
import { compilePropertyFilters, type PropertyFilterSources } from '../filters/compile-property-filters.js'
import { below, performers, type BehaviorCompiling } from './behavior-sql.js'
import type { CohortNode } from './cohort-criteria.js'
import { hasPendingNegation } from './pending-negation.js'
import type { CohortCatalog } from './load-cohorts.js'
import type { CohortScope } from './cohort-scope.js'

export type { CohortScope } from './cohort-scope.js'

type Bool = Expression<SqlBool>
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

/**
 * A query of one column, `person_uuid`: the cohort's persons. A cohort
 * missing from the catalog has none; so has one whose negations are not
 * paired with a positive criterion (PostHog fails to calculate it).
 */
function members(cohortId: number, c: Compiling): RawBuilder<unknown> {
  const def = c.catalog.cohorts.get(cohortId)
  const n = c.next++
  const { projectId } = c.scope
  if (def?.isStatic) {
    const cp = sql.raw(`cp${n}`)
    return sql`select ${cp}.person_uuid as person_uuid from cohort_people as ${cp} where ${cp}.project_id = ${projectId} and ${cp}.cohort_id = ${cohortId}`
  }
  const p = sql.raw(`p${n}`)
  const where = def?.criteria && !hasPendingNegation(def.criteria) ? criteria(def.criteria, sql.raw(`p${n}`), c) : FALSE
  return sql`select ${p}.uuid as person_uuid from persons as ${p} where ${p}.project_id = ${projectId} and ${where}`
}

const not = (condition: Bool): Bool => sql<SqlBool>`(not ${condition})`

function criteria(node: CohortNode, person: RawBuilder<unknown>, c: Compiling): Bool {
  switch (node.kind) {
    case 'group':
      return join(node.values.map((v) => criteria(v, person, c)), node.type === 'AND' ? 'and' : 'or')
    case 'person': {
      const sources: PropertyFilterSources = { event: sql`null`, person: sql`${person}.properties`, hooks: c.scope.hooks }
      const matches = sql<SqlBool>`coalesce(${below(node.path, 2, () => compilePropertyFilters([node.filter], sources))}, false)`
      return node.negated ? not(matches) : matches
    }
    case 'cohort': {
      const member = inCohort(sql`${person}.uuid`, node.cohortId, c)
      return node.negated ? not(member) : member
    }
    case 'behavioral': {
      const compiling: BehaviorCompiling = { catalog: c.catalog, scope: c.scope, alias: () => c.next++, inCohort: (uuid, id) => inCohort(uuid, id, c) }
      const member = sql<SqlBool>`coalesce((${person}.uuid in (${performers(node, compiling)})), false)`
      return node.negated ? not(member) : member
    }
  }
}
