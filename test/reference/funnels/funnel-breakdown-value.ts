import type { FilterSubject } from './funnel-filters.js'
import type { FunnelRefDataset } from './funnel-dataset.js'
import type { BreakdownSpec } from './funnel-spec.js'

/** A breakdown value as PostHog returns it: a list for boxed breakdowns, text for group ones, an id for cohorts. */
export type BreakdownValue = string | number | ReadonlyArray<string>

/** Property values as breakdown text: 95 -> "95", true -> "true", missing or null -> "". */
export const breakdownText = (value: unknown): string =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value)

/** The value of one event for an event, person or group breakdown. */
export function eventBreakdownValue(spec: BreakdownSpec, subject: FilterSubject, data: FunnelRefDataset): BreakdownValue {
  const source = (): Readonly<Record<string, unknown>> => {
    if (spec.type === 'event') return subject.event.properties
    if (spec.type === 'person') return subject.personProperties
    const key = subject.event.groups?.[spec.groupTypeIndex as 0]
    return (key ? data.groups?.[spec.groupTypeIndex!]?.[key] : undefined) ?? {}
  }
  const props = source()
  const texts = spec.properties.map((p) => breakdownText(Object.hasOwn(props, p) ? props[p] : undefined))
  return spec.boxed ? texts : texts[0]!
}

/** The value PostHog shows when none is known: "" or one "" per property. */
export const emptyValue = (spec: BreakdownSpec): BreakdownValue => (spec.boxed ? spec.properties.map(() => '') : '')

/** first/last touch only take events whose value has some non-empty part. */
export const isNonEmpty = (value: BreakdownValue): boolean =>
  typeof value === 'number' || (typeof value === 'string' ? value !== '' : value.some((v) => v !== ''))

/** Identity of a value, for grouping and for comparing an event's value with a run's. */
export const valueKey = (value: BreakdownValue | null): string => JSON.stringify(value)

/** Ascending order of values: element-wise text comparison (UTF-16 code units), numbers numerically. */
export function compareValues(a: BreakdownValue, b: BreakdownValue): number {
  const as = Array.isArray(a) ? a : [a]
  const bs = Array.isArray(b) ? b : [b]
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const x = as[i] as string | number
    const y = bs[i] as string | number
    if (x !== y) return typeof x === 'number' && typeof y === 'number' ? x - y : String(x) < String(y) ? -1 : 1
  }
  return as.length - bs.length
}
