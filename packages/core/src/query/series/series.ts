import { Schema } from 'effect'
import { ValidationError } from '../../errors.js'
import { decodeOrThrow } from '../../util/decode.js'
import { PropertyFilters } from '../filters/property-filters.js'

/** Property filters as an entity gives them: PostHog's list or group, or the old dict form `{"$browser": "Safari"}`. */
const LegacyPropertyFilters = Schema.Union([PropertyFilters, Schema.Record(Schema.String, Schema.Unknown)])

/** One item of `events` or `actions` as PostHog's legacy filters send it. */
export const EntityInput = Schema.Struct({
  id: Schema.optional(Schema.NullOr(Schema.Union([Schema.String, Schema.Finite]))),
  type: Schema.optional(Schema.NullOr(Schema.String)),
  order: Schema.optional(Schema.NullOr(Schema.Finite)),
  name: Schema.optional(Schema.NullOr(Schema.String)),
  custom_name: Schema.optional(Schema.NullOr(Schema.String)),
  properties: Schema.optional(Schema.NullOr(LegacyPropertyFilters)),
  math: Schema.optional(Schema.NullOr(Schema.String)),
  math_property: Schema.optional(Schema.NullOr(Schema.String)),
  math_group_type_index: Schema.optional(Schema.NullOr(Schema.Int)),
  math_hogql: Schema.optional(Schema.NullOr(Schema.String)),
})
export type EntityInput = typeof EntityInput.Type
/** One step of a funnel or series of a trend, as a library call gives it (`{ id: '$pageview', type: 'events' }`). */
export type EntityParams = typeof EntityInput.Encoded

/** The steps of a funnel or the series of a trend: PostHog orders actions first, then events, by `order`. */
export interface SeriesParams {
  /** Events by name (`id`; null: every event). */
  readonly events?: typeof Entities.Encoded | null
  /** Actions by id. */
  readonly actions?: typeof Entities.Encoded | null
}

/**
 * A request's top-level `properties`: PostHog's list of conditions (AND) or
 * group. Over HTTP the old dict form (`{"$browser": "Safari"}`, exact
 * matches) is read too; library calls use the list.
 */
export type PropertiesParam = PropertyFilters | null

/** A step of a funnel or a series of a trend, in the order the analysis uses. */
export interface SeriesEntity {
  /** Position after PostHog's ordering: the formula letter, the funnel step. */
  readonly index: number
  readonly kind: 'events' | 'actions'
  /** The event name of an `events` entity; null for "all events". */
  readonly event: string | null
  /** The action id of an `actions` entity. */
  readonly actionId: number | null
  readonly order: number | null
  readonly name: string | null
  readonly customName: string | null
  readonly properties: PropertyFilters
  readonly math: string | null
  readonly mathProperty: string | null
  readonly mathGroupTypeIndex: number | null
  readonly mathHogql: string | null
  /** The item as the client sent it, echoed in responses (`action`, `filter`). */
  readonly input: EntityInput
}

/** PostHog's old dict filter form `{"$browser": "Safari"}`: exact matches on event properties. */
export function normalizeProperties(value: unknown): PropertyFilters {
  if (value === undefined || value === null) return []
  if (typeof value === 'object' && !Array.isArray(value) && !('type' in value && 'values' in value)) {
    return Object.entries(value as Record<string, unknown>).map(([key, v]) => ({ key, value: v as never, operator: 'exact' as const, type: 'event' as const }))
  }
  return value as PropertyFilters
}

const Entities = Schema.Array(EntityInput)

/**
 * PostHog's `filter_to_query` series: actions first, then events, stable-sorted
 * by `order` where 0 or missing counts as -1; action entries with a null id
 * are dropped; an event with a null id means every event. Throws
 * ValidationError naming `events[i]...` or `actions[i]...`.
 */
export function decodeSeries(input: { readonly events?: unknown; readonly actions?: unknown }): SeriesEntity[] {
  const actions = decodeOrThrow(Entities, input.actions ?? [], 'invalid actions', ['actions'])
  const events = decodeOrThrow(Entities, input.events ?? [], 'invalid events', ['events'])
  const items: Array<Omit<SeriesEntity, 'index'>> = []
  actions.forEach((a, i) => {
    if (a.id === undefined || a.id === null) return
    const id = typeof a.id === 'number' ? a.id : /^\d+$/.test(a.id) ? Number(a.id) : Number.NaN
    if (!Number.isSafeInteger(id)) {
      throw new ValidationError([{ path: ['actions', i, 'id'], message: `an action id is an integer, got ${JSON.stringify(a.id)}` }], { context: 'invalid actions' })
    }
    items.push(entity(a, 'actions', null, id, ['actions', i]))
  })
  events.forEach((e, i) => {
    const name = e.id === undefined || e.id === null ? null : String(e.id)
    items.push(entity(e, 'events', name, null, ['events', i]))
  })
  const key = (o: number | null) => (o ? o : -1)
  return items
    .map((item, position) => ({ item, position }))
    .sort((a, b) => key(a.item.order) - key(b.item.order) || a.position - b.position)
    .map(({ item }, index) => ({ ...item, index }))
}

function entity(e: EntityInput, kind: 'events' | 'actions', event: string | null, actionId: number | null, path: ReadonlyArray<string | number>): Omit<SeriesEntity, 'index'> {
  return {
    kind,
    event,
    actionId,
    order: e.order ?? null,
    name: e.name ?? null,
    customName: e.custom_name ?? null,
    properties: decodeOrThrow(PropertyFilters, normalizeProperties(e.properties), 'invalid property filters', [...path, 'properties']),
    math: e.math ?? null,
    mathProperty: e.math_property ?? null,
    mathGroupTypeIndex: e.math_group_type_index ?? null,
    mathHogql: e.math_hogql ?? null,
    input: e,
  }
}
