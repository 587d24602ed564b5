/**
 * `StorageDriver.personRowsChanged`: what core tells a driver that has it,
 * on DuckDB and on PGlite (whose SQL differs where core reads rows back: the
 * merge's UPDATE and the squash's DELETE with RETURNING). The driver is the
 * storage's own, given the member. Expectations from PostHog's identity rules,
 * by hand.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createSightline, type Sightline } from '@sightline/core'
import type { PersonRowChanges, StorageAdapter } from '@sightline/core/storage'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { pgliteTarget } from './targets/postgres.js'

/** `adapter` whose driver records each call of `personRowsChanged`, and fails its event writes while `failing.on`. */
function telling(adapter: StorageAdapter, told: PersonRowChanges[], failing: { on: boolean }): StorageAdapter {
  return {
    ...adapter,
    async open() {
      const driver = await adapter.open()
      return Object.assign(Object.create(driver) as typeof driver, {
        personRowsChanged: async (_db: unknown, changes: PersonRowChanges) => void told.push(changes),
        insertEvents: (...args: Parameters<typeof driver.insertEvents>) => (failing.on ? Promise.reject(new Error('events refused')) : driver.insertEvents(...args)),
      })
    },
  }
}

const AT = '2026-03-01T10:00:00Z'
const targets: Array<[string, () => Promise<StorageAdapter>]> = [
  ['duckdb', async () => duckdbStorage()],
  ['postgres (PGlite)', async () => (await pgliteTarget.fresh()).storage()],
]

describe.each(targets)('personRowsChanged on %s', (_name, storage) => {
  let sightline: Sightline
  let project: number
  let told: PersonRowChanges[]
  const failing = { on: false }

  beforeEach(async () => {
    told = []
    failing.on = false
    sightline = await createSightline({ storage: telling(await storage(), told, failing), clock: () => new Date('2026-03-01T12:00:00Z') })
    const org = await sightline.organizations.create({ name: 'Acme' })
    project = (await sightline.projects.create({ organizationId: org.id, name: 'Web', timezone: 'UTC' })).id
  })
  afterEach(() => sightline.close())

  const personOf = async (distinctId: string) => (await sightline.persons.get(project, distinctId))!
  const brief = (c: PersonRowChanges) => ({
    persons: c.persons.map((p) => `${p.uuid}@${p.version}${p.deleted ? ' deleted' : ''}`).sort(),
    distinctIds: c.distinctIds.map((d) => `${d.distinct_id} -> ${d.person_uuid}@${d.version}`).sort(),
    overrides: c.overrides.map((o) => `${o.distinct_id} -> ${o.person_id}@${o.version}${o.deleted ? ' deleted' : ''}`).sort(),
    personless: c.personless.map((p) => `${p.distinct_id}@${p.version}${p.deleted ? ' deleted' : ''}`).sort(),
    groups: c.groups.map((g) => `${g.group_type_index}/${g.group_key}@${g.version}`),
  })

  it('a capture tells its new persons and distinct ids; a merge the update, the deletion, the move and its override; a squash the deletion', async () => {
    await sightline.capture(project, [
      { event: '$pageview', distinctId: 'anon', timestamp: AT },
      { event: '$pageview', distinctId: 'ada', timestamp: AT },
    ])
    const [ada, anon] = [await personOf('ada'), await personOf('anon')]
    expect(told.map(brief)).toEqual([
      { persons: [`${ada.uuid}@0`, `${anon.uuid}@0`].sort(), distinctIds: [`ada -> ${ada.uuid}@0`, `anon -> ${anon.uuid}@0`], overrides: [], personless: [], groups: [] },
    ])
    // The ids are the companion's own (its sequence), read back from the insert.
    expect(told[0]!.persons.find((p) => p.uuid === ada.uuid)!.id).toBe(ada.id)
    expect(told[0]!.projectId).toBe(project)

    await sightline.capture(project, [{ event: '$identify', distinctId: 'ada', timestamp: AT, properties: { $anon_distinct_id: 'anon', $set: { plan: 'pro' } } }])
    expect(brief(told[1]!)).toEqual({
      persons: [`${ada.uuid}@1`, `${anon.uuid}@0 deleted`].sort(),
      distinctIds: [`anon -> ${ada.uuid}@1`],
      overrides: [`anon -> ${ada.uuid}@1`],
      personless: [],
      groups: [],
    })
    const merged = told[1]!.persons.find((p) => p.uuid === ada.uuid)!
    expect({ identified: merged.is_identified, plan: JSON.parse(merged.properties).plan }).toEqual({ identified: true, plan: 'pro' })

    expect(await sightline.persons.squashOverrides(project)).toBe(1)
    expect(brief(told[2]!)).toEqual({ persons: [], distinctIds: [], overrides: [`anon -> ${ada.uuid}@1 deleted`], personless: [], groups: [] })
    expect(told).toHaveLength(3)
  })

  it('a personless distinct id is told, then deleted with an override when it gets a person; groups are told with their versions', async () => {
    await sightline.capture(project, [{ event: '$pageview', distinctId: 'ghost', timestamp: AT, properties: { $process_person_profile: false } }])
    expect(told.map(brief)).toEqual([{ persons: [], distinctIds: [], overrides: [], personless: ['ghost@0'], groups: [] }])
    await sightline.capture(project, [{ event: '$pageview', distinctId: 'ghost', timestamp: AT }])
    const ghost = await personOf('ghost')
    expect(brief(told[1]!)).toEqual({ persons: [`${ghost.uuid}@0`], distinctIds: [`ghost -> ${ghost.uuid}@0`], overrides: [`ghost -> ${ghost.uuid}@0`], personless: ['ghost@0 deleted'], groups: [] })
    await sightline.groups.upsert(project, { groupType: 'company', groupKey: 'acme', properties: { size: 5 } })
    await sightline.groups.upsert(project, { groupType: 'company', groupKey: 'acme', properties: { size: 6 } })
    expect(told.slice(2).map((c) => c.groups.map((g) => `${g.group_key}@${g.version} ${g.properties}`))).toEqual([['acme@0 {"size":5}'], ['acme@1 {"size":6}']])
  })

  it('a write that rolls back tells nothing, and a write that changes no person-side row tells nothing', async () => {
    await sightline.capture(project, [{ event: '$pageview', distinctId: 'ada', timestamp: AT }])
    expect(told).toHaveLength(1)
    failing.on = true
    await expect(sightline.capture(project, [{ event: '$identify', distinctId: 'ada', timestamp: AT, properties: { $anon_distinct_id: 'bob' } }])).rejects.toThrow(/events refused/)
    failing.on = false
    expect(told).toHaveLength(1)
    expect(await sightline.persons.get(project, 'bob')).toBeNull()
    // ada already has her person: another pageview changes no row.
    await sightline.capture(project, [{ event: '$pageview', distinctId: 'ada', timestamp: AT }])
    expect(told).toHaveLength(1)
  })
})
