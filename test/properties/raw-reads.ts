import type { FreshDatabase } from '../conformance/target.js'
import { sortPersons, type PersonShape } from './reference-models.js'

/** DuckDB returns JSON columns as text, the Postgres drivers as parsed values. */
const fromJson = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v)

export interface StoredEvent {
  readonly uuid: string
  readonly event: string
  readonly distinctId: string
  readonly micros: number
  readonly properties: Record<string, unknown>
}

/** Every event of a project, read past Sightline. */
export async function readEvents(db: FreshDatabase, projectId: number): Promise<StoredEvent[]> {
  const rows = await db.raw<Record<string, unknown>>(
    `select uuid, event, distinct_id, ${db.epochMicros('timestamp')} as us, properties from events where project_id = $1`,
    [projectId],
  )
  return rows.map((r) => ({
    uuid: String(r.uuid),
    event: String(r.event),
    distinctId: String(r.distinct_id),
    // pg returns a bigint of 16 digits as text.
    micros: Number(r.us),
    properties: fromJson(r.properties) as Record<string, unknown>,
  }))
}

export interface StoredPersons {
  /** Persons by their distinct ids: the partition of distinct ids, with each person's flag. */
  readonly persons: PersonShape[]
  /** Rows of `persons` in the project. */
  readonly personRows: number
  /** Person uuids that distinct ids point at but that have no row in `persons`. */
  readonly dangling: string[]
}

export async function readPersons(db: FreshDatabase, projectId: number): Promise<StoredPersons> {
  const mappings = await db.raw<{ distinct_id: string; person_uuid: unknown }>('select distinct_id, person_uuid from person_distinct_ids where project_id = $1', [projectId])
  const rows = await db.raw<{ uuid: unknown; is_identified: boolean }>('select uuid, is_identified from persons where project_id = $1', [projectId])
  const identified = new Map(rows.map((r) => [String(r.uuid), r.is_identified]))
  const idsByPerson = new Map<string, string[]>()
  for (const m of mappings) {
    const uuid = String(m.person_uuid)
    idsByPerson.set(uuid, [...(idsByPerson.get(uuid) ?? []), String(m.distinct_id)])
  }
  return {
    persons: sortPersons([...idsByPerson].map(([uuid, ids]) => ({ distinctIds: ids, isIdentified: identified.get(uuid) ?? false }))),
    personRows: rows.length,
    dangling: [...idsByPerson.keys()].filter((uuid) => !identified.has(uuid)),
  }
}

export interface StoredDefinitions {
  readonly eventNames: string[]
  /** Property definitions by `type` (1 event, 2 person, 3 group): name -> property_type. */
  readonly properties: Map<number, Map<string, { type: string | null; isNumerical: boolean }>>
}

export async function readDefinitions(db: FreshDatabase, projectId: number): Promise<StoredDefinitions> {
  const events = await db.raw<{ name: string }>('select name from event_definitions where project_id = $1', [projectId])
  const rows = await db.raw<{ name: string; type: unknown; property_type: string | null; is_numerical: boolean }>(
    'select name, type, property_type, is_numerical from property_definitions where project_id = $1',
    [projectId],
  )
  const properties = new Map<number, Map<string, { type: string | null; isNumerical: boolean }>>()
  for (const r of rows) {
    const kind = Number(r.type)
    if (!properties.has(kind)) properties.set(kind, new Map())
    properties.get(kind)!.set(String(r.name), { type: r.property_type, isNumerical: r.is_numerical })
  }
  return { eventNames: events.map((r) => String(r.name)), properties }
}
