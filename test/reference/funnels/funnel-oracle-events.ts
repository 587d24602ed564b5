/**
 * Which events take part in a funnel, and what each one means to it
 * (funnels.md §2): in the date range, passing the global properties and the
 * test-account filters, grouped by aggregation target and sorted by time,
 * each with its step flags, exclusion codes and breakdown value.
 */
import type { FunnelRefDataset } from './funnel-oracle-dataset.js'
import { stableUuid } from '../shared/load-dataset.js'
import { matchesFilters, type FilterContext } from './funnel-oracle-filters.js'
import type { EntitySpec, FunnelSpec } from './funnel-oracle-params.js'
import type { RefEvent } from '../shared/ref-dataset.js'

/** A breakdown value as PostHog shows it: a list for event/person breakdowns, text for group ones, null without a breakdown. */
export type BreakdownValue = string | ReadonlyArray<string> | null

export interface FunnelEvent {
  /** As the database holds it (load-dataset.ts replaces uuids that are not UUIDs by stable ones): the tie-break of equal times. */
  readonly uuid: string
  /** Epoch microseconds. */
  readonly micros: number
  /** 1-based step numbers ascending, then `-(gap + 1)` for every exclusion gap it falls in, ascending. */
  readonly flags: ReadonlyArray<number>
  readonly value: BreakdownValue
  /** `value` as a comparable key. */
  readonly valueKey: string
  /** The person's id (the distinct id for a personless event), for cohort breakdowns. */
  readonly personId: string
}

export const valueKey = (value: BreakdownValue): string => JSON.stringify(value)

const firstStep = (e: FunnelEvent): number => e.flags.find((f) => f > 0) ?? Number.MAX_SAFE_INTEGER

/** A property as PostHog's breakdown shows it: text as is, numbers and booleans spelled, missing or null as ''. */
export function breakdownText(value: unknown): string {
  if (value === undefined || value === null) return ''
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/** Parses a stored timestamp (ISO 8601, `Z` or an offset, up to microseconds) to epoch microseconds. */
export function epochMicros(timestamp: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}:?\d{2})?$/.exec(timestamp)
  if (!m) throw new Error(`reference: unreadable timestamp ${timestamp}`)
  const [, y, mo, d, h, mi, s, frac = '', zone = 'Z'] = m
  const offsetMinutes = zone === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2)))
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) - offsetMinutes * 60_000
  return ms * 1000 + Number(frac.padEnd(6, '0'))
}

function entityMatches(entity: EntitySpec, ctx: FilterContext): boolean {
  if (entity.kind === 'actions') {
    if (!ctx.data.actionMatches) throw new Error('reference: action steps need actionMatches in the dataset')
    if (!ctx.data.actionMatches(Number(entity.id), ctx.event)) return false
  } else if (entity.id !== null && entity.id !== ctx.event.event) return false
  return matchesFilters(entity.properties, ctx)
}

function eventValue(spec: FunnelSpec, ctx: FilterContext): BreakdownValue {
  const b = spec.breakdown
  if (!b || b.type === 'cohort') return null
  if (b.type === 'group') {
    const index = b.groupTypeIndex!
    const key = ctx.event.groups?.[index as 0] ?? ''
    return breakdownText(ctx.data.groups?.[index]?.[key]?.[b.keys[0]!])
  }
  const source = b.type === 'person' ? ctx.person?.properties ?? {} : ctx.event.properties
  return b.keys.map((k) => breakdownText(source[k]))
}

/**
 * The events of each aggregation target, sorted by time. PostHog leaves the
 * order of equal times to ClickHouse (arraySort on the time alone); the
 * reference pins it: the lowest step first (so step 0 then step 1 at one
 * instant convert in trends too, as §3 says they do in the steps view),
 * events without a step (exclusions, unrelated events) last, then uuid.
 * Only unordered funnels and trends depend on it; the steps view of ordered
 * and strict funnels has its own same-instant rule. `stepCount`
 * truncates the funnel (funnel trends stop at `funnel_to_step`); exclusion
 * gaps beyond it go with it. Strict funnels keep every event, the others
 * only events with a flag (§2.4).
 */
export function funnelEvents(
  spec: FunnelSpec,
  data: FunnelRefDataset,
  range: { readonly fromMicros: number; readonly toMicros: number },
  stepCount: number,
): Map<string, FunnelEvent[]> {
  const steps = spec.steps.slice(0, stepCount)
  const global = [spec.properties, spec.filterTestAccounts ? data.project.testAccountFilters : null]
  const byTarget = new Map<string, FunnelEvent[]>()
  for (const event of data.events as ReadonlyArray<RefEvent>) {
    const micros = epochMicros(event.timestamp)
    if (micros < range.fromMicros || micros > range.toMicros) continue
    const person = data.persons[event.distinct_id]
    const personId = person ? person.id : event.distinct_id
    let target: string
    if (spec.aggregationGroup === null && spec.aggregateBy !== null) {
      // PostHog's _aggregation_target_filter: events whose value is null or '' take no part.
      const value = breakdownText(event.properties[spec.aggregateBy])
      if (value === '') continue
      target = `value:${value}`
    } else if (spec.aggregationGroup === null) target = person ? `person:${person.id}` : `distinct:${event.distinct_id}`
    else {
      // §2.5: events without the group key do not take part.
      const key = event.groups?.[spec.aggregationGroup as 0] ?? ''
      if (key === '') continue
      target = key
    }
    const ctx: FilterContext = { event, person, personId, data }
    if (!global.every((f) => matchesFilters(f, ctx))) continue
    const flags: number[] = []
    steps.forEach((step, i) => {
      if (entityMatches(step, ctx)) flags.push(i + 1)
    })
    for (let gap = 1; gap < stepCount; gap++) {
      if (spec.exclusions.some((x) => x.from < gap && gap <= x.to && entityMatches(x, ctx))) flags.push(-(gap + 1))
    }
    if (flags.length === 0 && spec.order !== 'strict') continue
    const value = eventValue(spec, ctx)
    const list = byTarget.get(target) ?? []
    list.push({ uuid: stableUuid(event.uuid), micros, flags, value, valueKey: valueKey(value), personId })
    byTarget.set(target, list)
  }
  for (const list of byTarget.values()) list.sort((a, b) => a.micros - b.micros || firstStep(a) - firstStep(b) || (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0))
  return byTarget
}
