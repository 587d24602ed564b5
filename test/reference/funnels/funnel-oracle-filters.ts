/**
 * Property filters over one stored event, in every form a funnel request
 * carries them (funnels.md §1.5): a list (AND), a nested AND/OR group, or
 * the old `{"$browser": "Safari"}` dict. Event, person and element
 * conditions go to the shared reference (test/filters/reference-filter.ts);
 * group and cohort conditions are resolved here, against the dataset.
 */
import { referenceMatches, type RefCondition } from '../../filters/reference-filter.js'
import type { FunnelRefDataset } from './funnel-oracle-dataset.js'
import type { RefEvent, RefPerson } from '../shared/ref-dataset.js'

export interface FilterContext {
  readonly event: RefEvent
  readonly person: RefPerson | undefined
  /** The person's id, or the distinct id of a personless event. */
  readonly personId: string
  readonly data: FunnelRefDataset
}

type Json = string | number | boolean | null | undefined
const props = (o: Readonly<Record<string, unknown>> | undefined) => (o ?? {}) as Record<string, Json>

/** True when `filters` (any accepted form; null/undefined = no filter) holds for the event. */
export function matchesFilters(filters: unknown, ctx: FilterContext): boolean {
  if (filters === undefined || filters === null) return true
  if (Array.isArray(filters)) return filters.every((f) => matchesFilters(f, ctx))
  if (typeof filters !== 'object') throw new Error(`reference: unreadable properties ${JSON.stringify(filters)}`)
  const o = filters as Record<string, unknown>
  if (Array.isArray(o.values) && (o.type === 'AND' || o.type === 'OR')) {
    if (o.values.length === 0) return true
    return o.type === 'AND' ? o.values.every((v) => matchesFilters(v, ctx)) : o.values.some((v) => matchesFilters(v, ctx))
  }
  if (typeof o.key === 'string') return condition(o as unknown as RefCondition, ctx)
  // The old dict form: exact matches on event properties.
  return Object.entries(o).every(([key, value]) => condition({ key, value: value as RefCondition['value'] }, ctx))
}

function condition(c: RefCondition, ctx: FilterContext): boolean {
  switch (c.type ?? 'event') {
    case 'cohort':
    case 'precalculated-cohort':
    case 'static-cohort': {
      const members = ctx.data.cohortMembers?.[Number(c.value)]
      const inCohort = members?.has(ctx.personId) ?? false
      return c.operator === 'not_in' ? !inCohort : inCohort
    }
    case 'group': {
      const index = Number(c.group_type_index)
      const key = ctx.event.groups?.[index as 0] ?? ''
      const groupProps = ctx.data.groups?.[index]?.[key]
      return referenceMatches([{ ...c, type: 'event' }], { event: props(groupProps) })
    }
    case 'event':
    case 'person':
    case 'element':
      return referenceMatches([c], {
        event: props(ctx.event.properties),
        person: props(ctx.person?.properties),
        elementsChain: ctx.event.elements_chain ?? '',
      })
    default:
      throw new Error(`reference: property filters of type ${c.type} are not modelled`)
  }
}
