/**
 * Which events a series counts: its event or action, the global and series
 * property filters, and the project's test-account filters (reference §10).
 *
 * Property matching is test/filters/reference-filter.ts. It knows event,
 * person and element conditions; group and cohort conditions are rewritten
 * into person conditions over a context object that also holds the event's
 * group properties and the person's cohorts, so one matcher decides all.
 */
import { referenceMatches, type RefCondition, type RefFilters, type RefGroup } from '../../filters/reference-filter.js'
import type { RefDataset } from '../shared/ref-dataset.js'
import type { TrendQuery, SeriesSpec } from './trend-query.js'
import type { Row } from './trend-rows.js'

const COHORT_TYPES = ['cohort', 'static-cohort', 'precalculated-cohort']

function rewrite(node: unknown): RefGroup | RefCondition {
  if (typeof node !== 'object' || node === null) throw new Error(`reference: unreadable property filter ${JSON.stringify(node)}`)
  const n = node as Record<string, unknown>
  if (Array.isArray(n.values) && (n.type === 'AND' || n.type === 'OR')) return { type: n.type, values: n.values.map(rewrite) }
  const c = n as unknown as RefCondition
  switch (c.type ?? 'event') {
    case 'event':
    case 'element':
      return c
    case 'person':
      return { ...c, type: 'person', key: `person:${c.key}` }
    case 'group':
      return { ...c, type: 'person', key: `group${c.group_type_index}:${c.key}` }
    default:
      if (COHORT_TYPES.includes(c.type!)) {
        return { key: `cohort:${c.value}`, type: 'person', value: 'true', operator: c.operator === 'not_in' ? 'is_not' : 'exact' }
      }
      throw new Error(`reference: property filter type ${JSON.stringify(c.type)} is out of scope`)
  }
}

/** A flat list (AND), a group, or the legacy empty object `{}`. */
function filters(raw: unknown): RefGroup {
  if (Array.isArray(raw)) return { type: 'AND', values: raw.map(rewrite) }
  if (typeof raw === 'object' && raw !== null && Array.isArray((raw as RefGroup).values)) return rewrite(raw) as RefGroup
  return { type: 'AND', values: [] }
}

function context(row: Row, data: RefDataset): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {}
  for (const [k, v] of Object.entries(row.personProperties)) out[`person:${k}`] = v as string
  for (const [index, key] of Object.entries(row.event.groups ?? {})) {
    const props = key === undefined ? undefined : data.groups?.[Number(index)]?.[key]
    for (const [k, v] of Object.entries(props ?? {})) out[`group${index}:${k}`] = v as string
  }
  for (const [id, members] of Object.entries(data.cohortMembers ?? {})) if (members.has(row.personId)) out[`cohort:${id}`] = 'true'
  return out
}

/** The rows of one series, in dataset order, over all time (dates are applied later). */
export function seriesRows(rows: ReadonlyArray<Row>, series: SeriesSpec, query: TrendQuery, data: RefDataset): Row[] {
  const all: RefFilters = {
    type: 'AND',
    values: [
      filters(query.properties),
      filters(series.properties),
      filters(query.filterTestAccounts ? data.project.testAccountFilters : []),
    ],
  }
  return rows.filter((row) => {
    if (series.type === 'actions') {
      if (!data.actionMatches) throw new Error('reference: the dataset has no actionMatches for an action series')
      if (!data.actionMatches(Number(series.id), row.event)) return false
    } else if (series.id !== null && row.event.event !== series.id) return false
    const event = row.event.properties as Record<string, string>
    return referenceMatches(all, { event, person: context(row, data), elementsChain: row.event.elements_chain ?? '' })
  })
}

/**
 * A trends series with math `unique_group` reads only events that carry the
 * group: trends_query_builder.py `_events_filter` adds `$group_N != ''`
 * ("Ignore empty groups", reference §5), so such events give no breakdown
 * value either. Other maths keep every row.
 */
export function withGroupOfMath(series: SeriesSpec, rows: ReadonlyArray<Row>): Row[] {
  if (series.math !== 'unique_group' || series.mathGroupTypeIndex === null) return [...rows]
  const index = series.mathGroupTypeIndex as 0
  return rows.filter((row) => {
    const key = row.event.groups?.[index]
    return key !== undefined && key !== ''
  })
}
