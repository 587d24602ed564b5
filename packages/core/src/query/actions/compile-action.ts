import { sql, type Expression, type SqlBool } from 'kysely'
import type { ActionDefinition, ActionStep, ActionStepMatching } from '../../model/action.js'
import { compilePropertyFilters, eventPropertyText, type PropertyFilterSources } from '../filters/compile-property-filters.js'
import type { PropertyCondition, PropertyFilters } from '../filters/property-filters.js'
import { atPath } from './at-path.js'
import { containsLikePattern } from './like-pattern.js'

/** Where an event's parts are: the property-filter sources, and the event's name. */
export interface ActionSources extends PropertyFilterSources {
  readonly eventName: Expression<string>
}

type Bool = Expression<SqlBool>
type Path = ReadonlyArray<string | number>

const TRUE: Bool = sql<SqlBool>`true`
const AUTOCAPTURE = '$autocapture'
const CONTEXT = 'invalid action'

const join = (parts: ReadonlyArray<Bool>, op: 'and' | 'or'): Bool =>
  parts.length === 0 ? TRUE : parts.length === 1 ? parts[0]! : sql<SqlBool>`(${sql.join(parts, sql.raw(` ${op} `))})`

/**
 * "The event matches the action", PostHog's `action_to_expr`: any step
 * matches, and a step matches when all its given parts do (see
 * `ActionStepInput` for each part). An action without steps, and a step
 * without parts, match every event. Every value is a bound parameter.
 * Throws `ValidationError` (paths from `steps`) for what cannot be compiled:
 * a bad regex or selector, property filters the sources cannot read.
 */
export function compileActionCondition(action: ActionDefinition, sources: ActionSources): Expression<SqlBool> {
  return action.steps.length === 0 ? TRUE : join(action.steps.map((step, i) => stepCondition(step, sources, ['steps', i])), 'or')
}

function stepCondition(step: ActionStep, sources: ActionSources, path: Path): Bool {
  const parts: Bool[] = []
  if (step.event) parts.push(sql<SqlBool>`(${sources.eventName} = ${step.event})`)
  if (step.event === AUTOCAPTURE) {
    if (step.selector) parts.push(element(sources, [...path, 'selector'], { key: 'selector', value: step.selector }))
    if (step.tag_name !== null) parts.push(element(sources, [...path, 'tag_name'], { key: 'tag_name', value: step.tag_name }))
    if (step.href !== null) parts.push(element(sources, [...path, 'href'], { key: 'href', value: step.href, operator: operatorOf(step.href_matching) }))
    if (step.text !== null) parts.push(element(sources, [...path, 'text'], { key: 'text', value: step.text, operator: operatorOf(step.text_matching) }))
  }
  if (step.url) parts.push(urlCondition(step.url, step.url_matching, sources, [...path, 'url']))
  if (step.properties && !isEmpty(step.properties)) {
    const filters = step.properties
    parts.push(atPath(path, true, CONTEXT, () => compilePropertyFilters(filters, sources)))
  }
  return join(parts, 'and')
}

/** PostHog's `text_matching` / `href_matching`: regex, contains (case-insensitive), else exact. */
const operatorOf = (m: ActionStepMatching | null): PropertyCondition['operator'] => (m === 'regex' ? 'regex' : m === 'contains' ? 'icontains' : 'exact')

const element = (sources: ActionSources, path: Path, f: Omit<PropertyCondition, 'type'>): Bool =>
  atPath(path, false, CONTEXT, () => compilePropertyFilters([{ ...f, type: 'element' }], sources))

function urlCondition(url: string, matching: ActionStepMatching | null, sources: ActionSources, path: Path): Bool {
  if (matching === 'exact' || matching === 'regex') {
    const f: PropertyCondition = { key: '$current_url', value: url, operator: matching, type: 'event' }
    return atPath(path, false, CONTEXT, () => compilePropertyFilters([f], sources))
  }
  const current = eventPropertyText(sources, '$current_url')
  return sql<SqlBool>`coalesce((${current} like ${containsLikePattern(url)} escape ${sql.lit('\\')}), false)`
}

const isEmpty = (f: PropertyFilters): boolean => ('values' in f && !Array.isArray(f) ? f.values.length === 0 : (f as ReadonlyArray<unknown>).length === 0)

/**
 * The property filters of an action's steps, for what a query derives from
 * its filters before compiling: the joins they need (person, groups) and the
 * cohorts they name (`cohortIdsIn`, then `loadCohorts`).
 */
export const actionPropertyFilters = (action: ActionDefinition): PropertyFilters[] => action.steps.flatMap((s) => (s.properties ? [s.properties] : []))
