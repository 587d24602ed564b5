/**
 * Loads a reference dataset into a Sightline engine through its public API,
 * so an analysis can be held against the reference evaluator on the same data:
 * a project with the dataset's settings, persons with all their distinct ids,
 * group types (named `type_0`..`type_4`) from 0 up to the highest index it
 * uses, group properties, then the events. Event uuids that are not UUIDs are replaced by stable ones.
 */
import { createHash } from 'node:crypto'
import type { Organization, Sightline } from '@sightline/core'
import type { RefDataset } from './ref-dataset.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A UUID for any text, stable across runs (so failures replay). */
export function stableUuid(text: string): string {
  if (UUID.test(text)) return text.toLowerCase()
  const h = createHash('sha256').update(text).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`
}

export const groupTypeName = (index: number): string => `type_${index}`

/** The highest group type index `data` names, in its groups or its events' `$groups`; -1 when it names none. */
function highestGroupIndex(data: RefDataset): number {
  const indexes = [
    ...Object.entries(data.groups ?? {}).filter(([, keys]) => Object.keys(keys).length > 0).map(([i]) => Number(i)),
    ...data.events.flatMap((e) => Object.keys(e.groups ?? {}).map(Number)),
  ]
  return Math.max(-1, ...indexes)
}

/** Creates a project in `organizationId` holding `data`; resolves to its id. */
export async function loadDataset(sightline: Sightline, organizationId: Organization['id'], data: RefDataset): Promise<number> {
  const project = await sightline.projects.create({
    organizationId,
    name: 'Reference',
    timezone: data.project.timezone,
    weekStartDay: data.project.weekStartDay,
    testAccountFilters: data.project.testAccountFilters as never,
    ...(data.project.pathCleaningFilters ? { pathCleaningFilters: data.project.pathCleaningFilters } : {}),
  })
  const projectId = project.id

  const byPerson = new Map<string, { distinctIds: string[]; properties: Record<string, unknown> }>()
  for (const [distinctId, person] of Object.entries(data.persons)) {
    const entry = byPerson.get(person.id) ?? { distinctIds: [], properties: { ...person.properties } }
    entry.distinctIds.push(distinctId)
    byPerson.set(person.id, entry)
  }
  for (const { distinctIds, properties } of byPerson.values()) {
    await sightline.persons.upsert(projectId, { distinctIds: distinctIds as [string, ...string[]], properties: properties as never })
  }

  // Group types take indexes in the order they are first seen: create them in order, up to the highest
  // index the dataset uses (an index below it without keys gets a placeholder group). Analyses never read
  // the group types, so a dataset without groups needs none (each upsert is a transaction of its own).
  for (let index = 0; index <= highestGroupIndex(data); index++) {
    const keys = Object.entries(data.groups?.[index] ?? {})
    if (keys.length === 0) {
      await sightline.groups.upsert(projectId, { groupTypeIndex: index as never, groupType: groupTypeName(index), groupKey: '__sightline_type_placeholder__' })
    }
    for (const [groupKey, properties] of keys) {
      await sightline.groups.upsert(projectId, { groupTypeIndex: index as never, groupType: groupTypeName(index), groupKey, properties: properties as never })
    }
  }

  const events = data.events.map((e) => {
    if (e.elements_chain) throw new Error(`loadDataset: event ${e.uuid} has an elements_chain; build it from $elements instead`)
    const groups = Object.entries(e.groups ?? {})
    return {
      event: e.event,
      distinctId: e.distinct_id,
      timestamp: e.timestamp,
      uuid: stableUuid(e.uuid),
      properties: {
        ...e.properties,
        ...(groups.length > 0 ? { $groups: Object.fromEntries(groups.map(([i, key]) => [groupTypeName(Number(i)), key])) } : {}),
      },
    }
  })
  for (let i = 0; i < events.length; i += 1000) await sightline.capture(projectId, events.slice(i, i + 1000) as never)
  return projectId
}
