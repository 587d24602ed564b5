import type { ChangedDistinctId, ChangedGroup, ChangedOverride, ChangedPerson, ChangedPersonless, PersonRowChanges } from '@sightline/core/storage'

/** Runs a read of the companion (SQL text with no values in it) and resolves to its rows. */
export type ReadCompanion = (query: string) => Promise<ReadonlyArray<Record<string, any>>>

interface ProjectRows {
  persons: ChangedPerson[]
  distinctIds: ChangedDistinctId[]
  overrides: ChangedOverride[]
  personless: ChangedPersonless[]
  groups: ChangedGroup[]
}

/**
 * Every row of the companion's person-side tables, per project, as
 * `PersonRowChanges` at the versions the companion holds: what ClickHouse
 * is told when it starts keeping versioned rows (`clickhouse_0008_person_rows`)
 * or catches up (`PersonRows.catchUp`). An override's version is its
 * distinct id's mapping version (0 without one), which is the version core
 * writes overrides with; a personless distinct id's is 0. Tables the
 * companion does not have yet are skipped: the adapter's migrations sort
 * before core's, so on a new database they run first.
 */
export async function companionPersonRows(read: ReadCompanion): Promise<PersonRowChanges[]> {
  const has = new Set((await read('select table_name as name from information_schema.tables where table_schema = current_schema()')).map((t) => String(t.name)))
  const projects = new Map<number, ProjectRows>()
  const of = (projectId: unknown): ProjectRows => {
    const id = Number(projectId)
    let rows = projects.get(id)
    if (!rows) projects.set(id, (rows = { persons: [], distinctIds: [], overrides: [], personless: [], groups: [] }))
    return rows
  }
  if (has.has('persons')) {
    for (const p of await read('select id, uuid, project_id, properties, is_identified, created_at, version from persons')) {
      of(p.project_id).persons.push({
        id: Number(p.id),
        uuid: String(p.uuid),
        properties: jsonText(p.properties),
        is_identified: Boolean(p.is_identified),
        created_at: isoTime(p.created_at),
        version: Number(p.version),
        deleted: false,
      })
    }
  }
  if (has.has('person_distinct_ids')) {
    for (const d of await read('select project_id, distinct_id, person_uuid, version from person_distinct_ids')) {
      of(d.project_id).distinctIds.push({ distinct_id: String(d.distinct_id), person_uuid: String(d.person_uuid), version: Number(d.version), deleted: false })
    }
  }
  if (has.has('person_distinct_id_overrides')) {
    const overrides = await read(`select o.project_id, o.distinct_id, o.person_id, pdi.version from person_distinct_id_overrides as o
      left join person_distinct_ids as pdi on pdi.project_id = o.project_id and pdi.distinct_id = o.distinct_id`)
    for (const o of overrides) {
      of(o.project_id).overrides.push({ distinct_id: String(o.distinct_id), person_id: String(o.person_id), version: Number(o.version ?? 0), deleted: false })
    }
  }
  if (has.has('personless_distinct_ids')) {
    for (const p of await read('select project_id, distinct_id from personless_distinct_ids')) {
      of(p.project_id).personless.push({ distinct_id: String(p.distinct_id), version: 0, deleted: false })
    }
  }
  if (has.has('groups')) {
    for (const g of await read('select project_id, group_type_index, group_key, properties, created_at, version from groups')) {
      of(g.project_id).groups.push({
        group_type_index: Number(g.group_type_index),
        group_key: String(g.group_key),
        properties: jsonText(g.properties),
        created_at: isoTime(g.created_at),
        version: Number(g.version),
        deleted: false,
      })
    }
  }
  return [...projects].map(([projectId, rows]) => ({ projectId, ...rows }))
}

/** A JSON column as its text: drivers give it parsed or as text. */
const jsonText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value))

/** A timestamp column as ISO 8601 UTC text: drivers give a Date or text. */
const isoTime = (value: unknown): string => (value instanceof Date ? value.toISOString() : String(value))
