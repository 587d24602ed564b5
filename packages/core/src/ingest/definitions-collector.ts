import { sql, type Kysely } from 'kysely'
import { randomUUID } from 'node:crypto'
import { PropertyDefinitionType, type PropertyDefinitionKind, type PropertyType } from '../model/definitions.js'
import type { Properties } from '../model/json.js'
import type { SightlineDatabase } from '../storage.js'
import { chunk } from '../util/chunk.js'
import { DefinitionsCache } from './definitions-cache.js'
import { detectPropertyType } from './detect-property-type.js'

/** Keys PostHog never records as event properties (property-defs-rs SKIP_PROPERTIES). */
const SKIP_EVENT_PROPERTIES = new Set(['$set', '$set_once', '$unset', '$group_0', '$group_1', '$group_2', '$group_3', '$group_4', '$groups'])
const MAX_NAME_BYTES = 200

interface PropertySeen {
  readonly name: string
  readonly kind: PropertyDefinitionKind
  readonly groupTypeIndex: number
  type: PropertyType | null
}

const tooLong = (name: string) => Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES

/**
 * Collects the event and property definitions of one write, then upserts them
 * in a few statements. The first non-null inferred type of a property wins, as
 * in PostHog; `last_seen_at` is the ingestion clock, as in PostHog.
 */
export class DefinitionsCollector {
  readonly #events = new Set<string>()
  /** By kind and group type index, then by name: no key strings built per property per event. */
  readonly #properties = new Map<string, Map<string, PropertySeen>>()
  readonly #nowSeconds: number

  constructor(nowSeconds: number) {
    this.#nowSeconds = nowSeconds
  }

  event(name: string): void {
    if (name !== '$$plugin_metrics' && !tooLong(name)) this.#events.add(name)
  }

  eventProperties(properties: Properties): void {
    for (const [name, value] of Object.entries(properties)) {
      if (!SKIP_EVENT_PROPERTIES.has(name)) this.#property(name, 'event', -1, value)
    }
  }

  personProperties(properties: Properties): void {
    for (const [name, value] of Object.entries(properties)) this.#property(name, 'person', -1, value)
  }

  groupProperties(groupTypeIndex: number, properties: Properties): void {
    for (const [name, value] of Object.entries(properties)) this.#property(name, 'group', groupTypeIndex, value)
  }

  #property(name: string, kind: PropertyDefinitionKind, groupTypeIndex: number, value: unknown): void {
    const scope = kind === 'group' ? `group:${groupTypeIndex}` : kind
    let names = this.#properties.get(scope)
    if (!names) this.#properties.set(scope, (names = new Map()))
    let seen = names.get(name)
    if (!seen) {
      if (tooLong(name)) return
      seen = { name, kind, groupTypeIndex, type: null }
      names.set(name, seen)
    }
    if (seen.type === null) seen.type = detectPropertyType(name, value, this.#nowSeconds)
  }

  /**
   * Upserts what this write saw, except what `cache` says was written this
   * hour. Returns the cache keys written: remember them once the transaction commits.
   */
  async flush(db: Kysely<SightlineDatabase>, projectId: number, now: string, cache: DefinitionsCache, nowMs: number): Promise<string[]> {
    const written: string[] = []
    const events = [...this.#events].filter((name) => {
      const key = DefinitionsCache.eventKey(projectId, name)
      if (cache.isFresh(key, nowMs)) return false
      written.push(key)
      return true
    })
    const properties = [...this.#properties.values()]
      .flatMap((names) => [...names.values()])
      .filter((p) => {
        const key = DefinitionsCache.propertyKey(projectId, p.kind, p.groupTypeIndex, p.name)
        if (cache.isFresh(key, nowMs)) return false
        // A property whose type is still unknown is written again, so a later batch can fill the type in.
        if (p.type !== null) written.push(key)
        return true
      })
    for (const names of chunk(events, 500)) {
      await db
        .insertInto('event_definitions')
        .values(
          names.map((name) => ({
            id: randomUUID(),
            project_id: projectId,
            name,
            created_at: now,
            last_seen_at: now,
            last_updated_at: now,
            tags: '[]',
            description: null,
            post_to_slack: false,
          })),
        )
        .onConflict((oc) => oc.columns(['project_id', 'name']).doUpdateSet({ last_seen_at: now }))
        .execute()
    }
    for (const part of chunk(properties, 500)) {
      await db
        .insertInto('property_definitions')
        .values(
          part.map((p) => ({
            id: randomUUID(),
            project_id: projectId,
            name: p.name,
            type: PropertyDefinitionType[p.kind],
            group_type_index: p.groupTypeIndex,
            property_type: p.type,
            is_numerical: p.type === 'Numeric',
            last_seen_at: now,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['project_id', 'type', 'group_type_index', 'name']).doUpdateSet({
            last_seen_at: now,
            // The first known type wins: only a still-unknown type is filled in.
            property_type: sql`coalesce(property_definitions.property_type, excluded.property_type)`,
            // Both types may still be unknown (null): then the comparison is null, and is_numerical is false.
            is_numerical: sql`coalesce(coalesce(property_definitions.property_type, excluded.property_type) = 'Numeric', false)`,
          }),
        )
        .execute()
    }
    return written
  }
}
