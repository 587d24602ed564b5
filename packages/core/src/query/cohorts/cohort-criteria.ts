import { ValidationError } from '../../errors.js'
import type { CohortCriteriaGroup, CohortCriterion, CohortFilters } from '../../model/cohort.js'
import { MAX_FILTER_DEPTH } from '../filters/compile-property-filters.js'
import { PropertyCondition } from '../filters/property-filters.js'
import { decodeOrThrow } from '../../util/decode.js'
import { parseBehavioral, positive, type BehavioralNode } from './behavioral-criterion.js'
import { cohortIdsIn } from './cohort-ids.js'

type Path = ReadonlyArray<string | number>

/** A dynamic cohort's criteria, checked and normalised: what the SQL compiler reads. */
export type CohortNode =
  | { readonly kind: 'group'; readonly type: 'AND' | 'OR'; readonly values: ReadonlyArray<CohortNode> }
  | { readonly kind: 'person'; readonly negated: boolean; readonly filter: PropertyCondition; readonly path: Path }
  | BehavioralNode
  | { readonly kind: 'cohort'; readonly negated: boolean; readonly cohortId: number; readonly path: Path }

const fail = (path: Path, message: string): never => {
  throw new ValidationError([{ path, message }], { context: 'invalid cohort filters' })
}

/**
 * Checks a cohort's `filters` beyond their structure and returns them as
 * nodes. Throws `ValidationError` at the failing path (from `path`, default
 * `['filters']`): group types other than AND and OR, criterion types other
 * than person, behavioral and cohort, what `parseBehavioral` refuses,
 * malformed person filters.
 */
export function parseCohortCriteria(filters: CohortFilters, path: Path = ['filters']): CohortNode {
  return parseCriteriaGroup(filters.properties, [...path, 'properties'], 0)
}

/** One `{type, values}` group of criteria at `path`, `depth` levels down. */
export function parseCriteriaGroup(g: CohortCriteriaGroup, path: Path, depth: number): CohortNode {
  if (depth >= MAX_FILTER_DEPTH) fail(path, `cohort criteria nest deeper than ${MAX_FILTER_DEPTH} levels`)
  if (g.type !== 'AND' && g.type !== 'OR') fail([...path, 'type'], `a group's type is AND or OR, not ${JSON.stringify(g.type)}`)
  return {
    kind: 'group',
    type: g.type as 'AND' | 'OR',
    values: g.values.map((v, i) => ('values' in v ? parseCriteriaGroup(v, [...path, 'values', i], depth + 1) : parseCriterion(v, [...path, 'values', i]))),
  }
}

/** One criterion at `path`. */
export function parseCriterion(c: CohortCriterion, path: Path): CohortNode {
  const negation = c.negation ?? false
  if (typeof negation !== 'boolean') fail([...path, 'negation'], 'expected a boolean')
  switch (c.type) {
    case 'person': {
      // PostHog's cohort query subtracts the persons the filter matches (EXCEPT): a person it does not match, a missing property included, meets a negated one.
      const filter = decodeOrThrow(PropertyCondition, { key: c.key, value: c.value, operator: c.operator, type: 'person' }, 'invalid cohort filters', path)
      return { kind: 'person', negated: negation as boolean, filter, path }
    }
    case 'cohort': {
      const id = positive(c.value, [...path, 'value'], 'a cohort id')
      const operator = c.operator ?? 'in'
      if (operator !== 'in' && operator !== 'not_in' && operator !== 'exact') fail([...path, 'operator'], `cohort criteria take the operator in or not_in, not ${JSON.stringify(operator)}`)
      return { kind: 'cohort', negated: negation !== (operator === 'not_in'), cohortId: id, path }
    }
    case 'behavioral':
      return parseBehavioral(c, negation as boolean, path)
    default:
      return fail([...path, 'type'], `cohort criteria are of type person, behavioral or cohort, not ${JSON.stringify(c.type)}`)
  }
}

/** The cohorts and actions a cohort's criteria name, event filters included (not those of the cohorts or actions named). */
export function criteriaReferences(node: CohortNode): { cohorts: number[]; actions: number[] } {
  const cohorts: number[] = []
  const actions: number[] = []
  const visit = (n: CohortNode): void => {
    if (n.kind === 'group') n.values.forEach(visit)
    else if (n.kind === 'cohort') cohorts.push(n.cohortId)
    else if (n.kind === 'behavioral') {
      if (n.entity.type === 'actions') actions.push(n.entity.actionId)
      if (n.behavior.type === 'sequence' && n.behavior.then.type === 'actions') actions.push(n.behavior.then.actionId)
      if (n.eventFilters) cohorts.push(...cohortIdsIn(n.eventFilters))
    }
  }
  visit(node)
  return { cohorts, actions }
}
