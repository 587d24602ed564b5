import { referenceMatches, type RefFilters } from '../../filters/reference-filter.js'
import type { FunnelRefDataset } from './funnel-dataset.js'
import { isRecord, notModelled } from './funnel-param-values.js'
import type { RefEvent } from '../shared/ref-dataset.js'

/** The event a filter is evaluated against, with its person resolved. */
export interface FilterSubject {
  readonly event: RefEvent
  readonly personId: string | null
  readonly personProperties: Readonly<Record<string, unknown>>
}

// Keys no real property can have: group and cohort conditions are rewritten
// into event conditions on these, so the shared reference evaluates them.
const GROUP_KEY = (index: number, key: string) => `\u0000group${index}\u0000${key}`
const COHORT_KEY = (id: unknown) => `\u0000cohort\u0000${String(id)}`

/**
 * Whether `subject` passes PostHog property filters: a list (AND), a
 * `{type, values}` group, or the old dict form `{"$browser": "Safari"}`
 * (exact match). Extends test/filters/reference-filter.ts by wrapping it:
 * `group` conditions read the properties of the event's group of that type,
 * `cohort` conditions (`in`, `not_in`) read `cohortMembers`. hogql and other
 * property types are not modelled.
 */
export function matchesFilters(filters: unknown, subject: FilterSubject, data: FunnelRefDataset): boolean {
  if (filters === null || filters === undefined) return true
  const extra: Record<string, unknown> = {}
  const rewritten = rewrite(normalise(filters), subject, data, extra)
  return referenceMatches(rewritten as RefFilters, {
    event: { ...subject.event.properties, ...extra } as Record<string, never>,
    person: subject.personProperties as Record<string, never>,
    elementsChain: subject.event.elements_chain ?? '',
  })
}

function normalise(filters: unknown): unknown {
  if (Array.isArray(filters)) return filters
  if (isRecord(filters) && Array.isArray(filters.values)) return filters
  if (isRecord(filters)) return Object.entries(filters).map(([key, value]) => ({ key, value, operator: 'exact', type: 'event' }))
  throw new Error('funnel reference: properties must be a list, a group or a dict')
}

function rewrite(node: unknown, subject: FilterSubject, data: FunnelRefDataset, extra: Record<string, unknown>): unknown {
  if (Array.isArray(node)) return node.map((n) => rewrite(n, subject, data, extra))
  if (!isRecord(node)) return node
  if (Array.isArray(node.values)) return { ...node, values: node.values.map((n) => rewrite(n, subject, data, extra)) }
  const type = node.type ?? 'event'
  if (type === 'event' || type === 'person' || type === 'element') return node
  if (type === 'group') {
    const index = Number(node.group_type_index)
    const groupKey = subject.event.groups?.[index as 0]
    const props = groupKey ? data.groups?.[index]?.[groupKey] : undefined
    const key = GROUP_KEY(index, String(node.key))
    if (props && Object.hasOwn(props, String(node.key))) extra[key] = props[String(node.key)]
    return { ...node, key, type: 'event' }
  }
  if (type === 'cohort') {
    const key = COHORT_KEY(node.value)
    const members = data.cohortMembers?.[Number(node.value)]
    if (subject.personId !== null && members?.has(subject.personId)) extra[key] = true
    return { key, type: 'event', operator: node.operator === 'not_in' ? 'is_not_set' : 'is_set' }
  }
  throw notModelled(`property filter type ${String(type)}`)
}
