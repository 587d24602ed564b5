import type { FunnelRefDataset } from './funnel-dataset.js'
import { invalid, isRecord, jsonish, optionalInt } from './funnel-param-values.js'
import type { FunnelEntity, FunnelExclusion, OrderType } from './funnel-spec.js'

/**
 * The funnel's steps, as filter_to_query builds them: actions first, then
 * events, stable-sorted by `order` where 0 or missing counts as -1; action
 * entries with a null id are dropped. A step keeps only the first-time
 * maths (`MathAvailability.FunnelsOnly`); any other math is dropped.
 */
export function readSteps(params: Record<string, unknown>, data: FunnelRefDataset): FunnelEntity[] {
  const keyed: Array<{ entity: FunnelEntity; key: number }> = []
  for (const type of ['actions', 'events'] as const) {
    for (const [index, raw] of list(params[type], type).entries()) {
      const field = `${type}__${index}`
      if (!isRecord(raw)) throw invalid(field, 'expected an object')
      const id = entityId(type, raw.id, field)
      if (type === 'actions' && id === null) continue
      if (type === 'actions' && data.actionNames && !Object.hasOwn(data.actionNames, id as number)) {
        throw invalid('actions', `Action ID ${id} does not exist!`)
      }
      const order = optionalInt(raw.order, `${field}__order`)
      keyed.push({
        entity: {
          type,
          id,
          customName: typeof raw.custom_name === 'string' ? raw.custom_name : null,
          properties: raw.properties ?? null,
          ...(raw.math === 'first_time_for_user' || raw.math === 'first_time_for_user_with_filters' ? { math: raw.math } : {}),
        },
        key: order ? order : -1,
      })
    }
  }
  // Array.prototype.sort is stable, as Python's sorted().
  return keyed.sort((a, b) => a.key - b.key).map((k) => k.entity)
}

/**
 * Exclusions with their step range, validated as ValidateFunnelExclusions
 * does. Their properties are dropped (the legacy endpoint converts them with
 * include_properties=False).
 */
export function readExclusions(params: Record<string, unknown>, steps: ReadonlyArray<FunnelEntity>, order: OrderType): FunnelExclusion[] {
  const n = steps.length
  return list(params.exclusions, 'exclusions').map((raw, index) => {
    const field = `exclusions__${index}`
    if (!isRecord(raw)) throw invalid(field, 'expected an object')
    const type = raw.type === 'actions' ? 'actions' : 'events'
    const id = entityId(type, raw.id, field)
    const from = optionalInt(raw.funnel_from_step, `${field}__funnel_from_step`) ?? 0
    const to = optionalInt(raw.funnel_to_step, `${field}__funnel_to_step`) ?? n - 1
    const bad = (message: string) => invalid('exclusions', message)
    if (from >= to) throw bad('Exclusion event range is invalid. End of range should be greater than start.')
    if (from >= n - 1) throw bad('Exclusion event range is invalid. Start of range is greater than number of steps.')
    if (to > n - 1) throw bad('Exclusion event range is invalid. End of range is greater than number of steps.')
    if (from < 0) throw bad('Exclusion event range is invalid. Start of range should be at least 0.')
    for (let step = from; step <= to; step++) {
      const s = steps[step]!
      // The exclusion has no properties, so the same entity is equal or broader; "All events" is broader than anything.
      if ((type === 'events' && id === null) || (s.type === type && s.id === id)) {
        throw bad("Exclusion steps cannot contain an event that's part of funnel steps.")
      }
    }
    if (order === 'unordered' && (from !== 0 || to !== n - 1)) throw bad('Partial Exclusions not allowed in unordered funnels')
    return { type, id, customName: null, properties: null, from, to }
  })
}

function list(value: unknown, field: string): unknown[] {
  const parsed = jsonish(value, field)
  if (parsed === undefined || parsed === null) return []
  if (!Array.isArray(parsed)) throw invalid(field, 'expected a list')
  return parsed
}

/** Event ids are names (null = all events); action ids are integers (numeric text accepted). */
function entityId(type: 'events' | 'actions', id: unknown, field: string): string | number | null {
  if (id === null || id === undefined) return null
  if (type === 'actions') {
    const n = optionalInt(id, `${field}__id`)
    return n ?? null
  }
  if (typeof id !== 'string') throw invalid(`${field}__id`, 'an event id is an event name')
  return id
}
