/**
 * Person-side rows told to ClickHouse by core's writes (`personRowsChanged`)
 * and kept there as versioned rows, read through views: merges, deletions,
 * a rolled-back write, and the migration of a database that kept copies.
 * Expectations are worked out from PostHog's identity rules by hand.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DuckDBInstance } from '@duckdb/node-api'
import { Kysely } from 'kysely'
import { createSightline, type Sightline } from '@sightline/core'
import type { SightlineDatabase } from '@sightline/core/storage'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { clickhouseStorage } from '@sightline/storage-clickhouse'
import { openChdb } from './open-chdb.js'

const AT = '2026-03-01T10:00:00Z'

describe('person rows written to ClickHouse by ingestion', () => {
  let chdb: ReturnType<typeof openChdb>
  let instance: DuckDBInstance
  let sightline: Sightline | undefined
  let project: number

  /** Rows of a ClickHouse statement, each an object. */
  const ch = async <T = Record<string, unknown>>(query: string): Promise<T[]> => {
    const text = (await chdb.session.queryAsync(query, { format: 'JSONEachRow' })).text().trim()
    return text === '' ? [] : text.split('\n').map((line) => JSON.parse(line) as T)
  }
  /** Rows of a companion (DuckDB) statement. */
  const companion = async <T = Record<string, unknown>>(query: string): Promise<T[]> => {
    const connection = await instance.connect()
    try {
      return (await (await connection.run(query)).getRowObjectsJS()) as T[]
    } finally {
      connection.closeSync()
    }
  }
  const open = async () => {
    sightline = await createSightline({ storage: clickhouseStorage({ session: chdb.session, companion: duckdbStorage({ instance }) }), clock: () => new Date('2026-03-01T12:00:00Z') })
    return sightline
  }
  const uuidOf = async (distinctId: string) => (await companion<{ u: string }>(`select person_uuid::text as u from person_distinct_ids where distinct_id = '${distinctId}'`))[0]!.u
  /** ClickHouse's view of the distinct ids: `id -> person@version`, sorted. */
  const distinctIds = async () =>
    (await ch<{ d: string; p: string; v: number }>(`select distinct_id as d, toString(person_uuid) as p, version as v from person_distinct_ids where project_id = ${project} order by d`)).map(
      (r) => `${r.d} -> ${r.p}@${r.v}`,
    )
  const overrides = async () =>
    (await ch<{ d: string; p: string }>(`select distinct_id as d, toString(person_id) as p from person_distinct_id_overrides where project_id = ${project} order by d`)).map((r) => `${r.d} -> ${r.p}`)
  const persons = () =>
    ch<{ uuid: string; version: number; is_identified: boolean; plan: string }>(
      // One property: core also records the creating event's uuid ($creator_event_uuid).
      `select toString(uuid) as uuid, version, is_identified, JSONExtractString(properties, 'plan') as plan from persons where project_id = ${project} order by uuid`,
    )
  const dau = async () =>
    ((await sightline!.query.trend(project, { events: [{ id: '$pageview', math: 'dau' }], date_from: '2026-03-01', date_to: '2026-03-01' })).result as Array<{ data: number[] }>)[0]!.data

  /**
   * anon and ada seen, then ada identifies as anon: the merge commits on the companion (its events reach
   * ClickHouse before the commit) while ClickHouse refuses its person rows, so the capture rejects.
   */
  const failedMerge = async () => {
    await sightline!.capture(project, [
      { event: '$pageview', distinctId: 'anon', timestamp: AT },
      { event: '$pageview', distinctId: 'ada', timestamp: AT },
    ])
    const [ada, anon] = [await uuidOf('ada'), await uuidOf('anon')]
    await chdb.session.queryAsync('rename table person_rows to person_rows_away')
    await expect(sightline!.capture(project, [{ event: '$identify', distinctId: 'ada', timestamp: AT, properties: { $anon_distinct_id: 'anon' } }])).rejects.toThrow(/write person rows failed/)
    await chdb.session.queryAsync('rename table person_rows_away to person_rows')
    return { ada, anon }
  }

  beforeEach(async () => {
    chdb = openChdb()
    instance = await DuckDBInstance.create(':memory:')
    const s = await open()
    const org = await s.organizations.create({ name: 'Acme' })
    project = (await s.projects.create({ organizationId: org.id, name: 'Web', timezone: 'UTC' })).id
  })
  afterEach(async () => {
    await sightline?.close()
    sightline = undefined
    instance.closeSync()
    await chdb.close()
  })

  it('a merge: the merged-away person is deleted, its distinct id moves at a new version with an override; a squash deletes the override', async () => {
    await sightline!.capture(project, [
      { event: '$pageview', distinctId: 'anon', timestamp: AT },
      { event: '$pageview', distinctId: 'ada', timestamp: AT },
    ])
    const [ada, anon] = [await uuidOf('ada'), await uuidOf('anon')]
    expect(await distinctIds()).toEqual([`ada -> ${ada}@0`, `anon -> ${anon}@0`])
    expect((await persons()).map((p) => p.uuid).sort()).toEqual([ada, anon].sort())
    expect(await dau()).toEqual([2])

    // ada identifies the anonymous device: anon's person is merged into ada's (PostHog: the identified id's person stays).
    await sightline!.capture(project, [{ event: '$identify', distinctId: 'ada', timestamp: AT, properties: { $anon_distinct_id: 'anon', $set: { plan: 'pro' } } }])
    expect(await distinctIds()).toEqual([`ada -> ${ada}@0`, `anon -> ${ada}@1`])
    expect(await overrides()).toEqual([`anon -> ${ada}`])
    // One person left: ada's, identified, at version 1 (its first update), with the property set.
    expect(await persons()).toEqual([{ uuid: ada, version: 1, is_identified: true, plan: 'pro' }])
    // The rows kept: each person inserted at 0, ada's update at 1 (ver 2), anon's deletion at its version 0 (ver 1).
    const kept = await ch<{ key: string; ver: number }>(`select key, ver from person_rows where kind = 'persons' order by key = '${ada}' desc, ver`)
    expect(kept.map((r) => `${r.key === ada ? 'ada' : 'anon'}:${r.ver}`)).toEqual(['ada:0', 'ada:2', 'anon:0', 'anon:1'])
    expect(await dau()).toEqual([1])

    expect(await sightline!.persons.squashOverrides(project)).toBe(1)
    expect(await overrides()).toEqual([])
    // Deleted at the version it was written with (1): ver 3 outranks the live row's 2.
    expect(await ch(`select key, toUInt32(ver) as ver from person_rows where kind = 'person_distinct_id_overrides' order by ver`)).toEqual([
      { key: 'anon', ver: 2 },
      { key: 'anon', ver: 3 },
    ])
    expect(await dau()).toEqual([1])
  })

  it('a personless distinct id that gets a person: its personless row is deleted and an override gives its events the person', async () => {
    await sightline!.capture(project, [{ event: '$pageview', distinctId: 'ghost', timestamp: AT, properties: { $process_person_profile: false } }])
    expect(await ch(`select distinct_id from personless_distinct_ids where project_id = ${project}`)).toEqual([{ distinct_id: 'ghost' }])
    expect(await persons()).toEqual([])
    await sightline!.capture(project, [{ event: '$pageview', distinctId: 'ghost', timestamp: AT }])
    const ghost = await uuidOf('ghost')
    expect(await ch(`select distinct_id from personless_distinct_ids where project_id = ${project}`)).toEqual([])
    expect(await distinctIds()).toEqual([`ghost -> ${ghost}@0`])
    expect(await overrides()).toEqual([`ghost -> ${ghost}`])
    // Both events are the one person's: the personless one through the override.
    expect(await dau()).toEqual([1])
  })

  it('groups: a $groupidentify inserts the group, a second one updates it at the next version', async () => {
    await sightline!.capture(project, [{ event: '$groupidentify', distinctId: 'ada', timestamp: AT, properties: { $group_type: 'company', $group_key: 'acme', $group_set: { size: 5 } } }])
    await sightline!.capture(project, [{ event: '$groupidentify', distinctId: 'ada', timestamp: AT, properties: { $group_type: 'company', $group_key: 'acme', $group_set: { size: 6 } } }])
    expect(await ch(`select group_type_index, group_key, properties, version from groups where project_id = ${project}`)).toEqual([
      { group_type_index: 0, group_key: 'acme', properties: '{"size":6}', version: 1 },
    ])
  })

  it('a write rolled back tells nothing: ClickHouse keeps the rows of the last committed write', async () => {
    await sightline!.capture(project, [{ event: '$pageview', distinctId: 'ada', timestamp: AT }])
    const rowsBefore = await ch(`select * from person_rows order by kind, key, ver`)
    // ClickHouse refuses the events at commit, so the companion rolls the whole capture back, persons included.
    await chdb.session.queryAsync('rename table events to events_away')
    await expect(
      sightline!.capture(project, [
        { event: '$pageview', distinctId: 'bob', timestamp: AT },
        { event: '$identify', distinctId: 'ada', timestamp: AT, properties: { $anon_distinct_id: 'bob', $set: { plan: 'pro' } } },
      ]),
    ).rejects.toThrow()
    await chdb.session.queryAsync('rename table events_away to events')
    expect(await companion(`select count(*)::int as n from persons`)).toEqual([{ n: 1 }])
    expect(await ch(`select * from person_rows order by kind, key, ver`)).toEqual(rowsBefore)
    expect(await distinctIds()).toEqual([`ada -> ${await uuidOf('ada')}@0`])
  })

  it('a write whose person rows ClickHouse refuses after the commit is caught up before the next read', async () => {
    const { ada, anon } = await failedMerge()
    expect(await companion(`select count(*)::int as n from persons`)).toEqual([{ n: 1 }])
    // Read directly, ClickHouse is still behind: two persons, no override.
    expect(await distinctIds()).toEqual([`ada -> ${ada}@0`, `anon -> ${anon}@0`])
    expect(await overrides()).toEqual([])
    // The engine's next read catches up first: anon moved at version 1 with its override, anon's person deleted at its version 0.
    expect(await dau()).toEqual([1])
    expect(await distinctIds()).toEqual([`ada -> ${ada}@0`, `anon -> ${ada}@1`])
    expect(await overrides()).toEqual([`anon -> ${ada}`])
    expect((await persons()).map((p) => `${p.uuid === ada ? 'ada' : 'anon'}@${p.version}`)).toEqual(['ada@1'])
    expect(await ch(`select toUInt32(ver) as ver from person_rows where kind = 'persons' and key = '${anon}' order by ver`)).toEqual([{ ver: 0 }, { ver: 1 }])
  })

  it('a write whose person rows ClickHouse refused is caught up by the next process to open the databases', async () => {
    const { ada } = await failedMerge()
    // The process stops before anything else; the next one opens the same databases and knows of no
    // failure, yet its first read catches up: anon and ada are one person.
    expect(await overrides()).toEqual([])
    await sightline!.close()
    sightline = undefined
    await chdb.reopen()
    await open()
    expect(await dau()).toEqual([1])
    expect(await overrides()).toEqual([`anon -> ${ada}`])
  })

  it('a process that failed to tell a write and then only writes catches up at its next write', async () => {
    const { ada } = await failedMerge()
    expect(await overrides()).toEqual([])
    // A capture of someone else: before its own rows, the write catches ClickHouse up (read directly, no analysis ran).
    await sightline!.capture(project, [{ event: '$pageview', distinctId: 'zed', timestamp: AT }])
    expect(await overrides()).toEqual([`anon -> ${ada}`])
    expect((await distinctIds()).map((d) => d.split(' -> ')[0])).toEqual(['ada', 'anon', 'zed'])
  })

  it("a key's latest version wins whatever order rows arrive in, and a deletion outranks the live row of its version", async () => {
    // The port reached directly, through a driver of its own on the same databases. The rows told below are not
    // the companion's; a read first brings the adapter up to date, so they are written as told, not caught up from it.
    expect(await dau()).toEqual([0])
    const own = await clickhouseStorage({ session: chdb.session, companion: duckdbStorage({ instance }) }).open()
    const ownDb = new Kysely<SightlineDatabase>({ dialect: own.dialect })
    try {
      const p = (version: number, deleted: boolean, plan: string) => ({
        id: 9,
        uuid: '0190f5a0-0000-7000-8000-0000000000c1',
        properties: JSON.stringify({ plan }),
        is_identified: false,
        created_at: '2026-01-01T00:00:00.000000Z',
        version,
        deleted,
      })
      const tell = (...rows: ReturnType<typeof p>[]) => own.personRowsChanged!(ownDb, { projectId: 77, persons: rows, distinctIds: [], overrides: [], personless: [], groups: [] })
      await tell(p(3, false, 'new'))
      await tell(p(2, false, 'old'))
      expect(await ch(`select properties, version from persons where project_id = 77`)).toEqual([{ properties: '{"plan":"new"}', version: 3 }])
      await tell(p(3, true, 'new'))
      expect(await ch(`select count() as n from persons where project_id = 77`)).toEqual([{ n: '0' }])
      // A live row told again at the deleted version stays deleted; only a later version brings the key back.
      await tell(p(3, false, 'new'))
      expect(await ch(`select count() as n from persons where project_id = 77`)).toEqual([{ n: '0' }])
      await tell(p(4, false, 'back'))
      expect(await ch(`select properties from persons where project_id = 77`)).toEqual([{ properties: '{"plan":"back"}' }])
    } finally {
      await ownDb.destroy()
      await own.close()
    }
  })

  it('migrates a database that kept copies: the companion rows become versioned rows, the copies views', async () => {
    await sightline!.capture(project, [
      { event: '$pageview', distinctId: 'anon', timestamp: AT },
      { event: '$pageview', distinctId: 'ada', timestamp: AT },
      { event: '$ghost', distinctId: 'ghost', timestamp: AT, properties: { $process_person_profile: false } },
      { event: '$groupidentify', distinctId: 'ada', timestamp: AT, properties: { $group_type: 'company', $group_key: 'acme', $group_set: { size: 5 } } },
    ])
    const [ada, anon] = [await uuidOf('ada'), await uuidOf('anon')]
    await sightline!.capture(project, [{ event: '$identify', distinctId: 'ada', timestamp: AT, properties: { $anon_distinct_id: 'anon' } }])
    await sightline!.close()
    sightline = undefined

    // The layout before migration 0008: no person_rows, and a plain copy of each table, as stale as a copy can be
    // (the last refresh before the merge: anon still its own person, no override).
    for (const view of ['persons', 'person_distinct_ids', 'person_distinct_id_overrides', 'personless_distinct_ids', 'groups']) await chdb.session.queryAsync(`drop view ${view}`)
    await chdb.session.queryAsync('drop table person_rows')
    await chdb.session.queryAsync(`create table persons (id Int64, uuid UUID, project_id Int32, properties String, is_identified Bool, created_at DateTime64(6, 'UTC'), version Int32) engine = MergeTree order by (project_id, uuid)`)
    await chdb.session.queryAsync(`insert into persons values (1, '${anon}', ${project}, '{}', false, '2026-03-01 10:00:00', 0), (2, '${ada}', ${project}, '{}', false, '2026-03-01 10:00:00', 0)`)
    await chdb.session.queryAsync(`create table person_distinct_ids (project_id Int32, distinct_id String, person_uuid UUID, version Int32) engine = MergeTree order by (project_id, distinct_id)`)
    await chdb.session.queryAsync(`insert into person_distinct_ids values (${project}, 'anon', '${anon}', 0), (${project}, 'ada', '${ada}', 0)`)
    await chdb.session.queryAsync(`create table person_distinct_id_overrides (project_id Int32, distinct_id String, person_id UUID) engine = MergeTree order by (project_id, distinct_id)`)
    await chdb.session.queryAsync(`create table groups (project_id Int32, group_type_index Int32, group_key String, properties String, created_at DateTime64(6, 'UTC'), version Int32) engine = MergeTree order by (project_id, group_type_index, group_key)`)
    await companion(`delete from sightline_migrations where name = 'clickhouse_0008_person_rows'`)

    await open()
    const engines = await ch<{ name: string; engine: string }>(
      `select name, engine from system.tables where database = currentDatabase() and name in ('persons', 'person_distinct_ids', 'person_distinct_id_overrides', 'personless_distinct_ids', 'groups', 'person_rows') order by name`,
    )
    expect(engines).toEqual([
      { name: 'groups', engine: 'View' },
      { name: 'person_distinct_id_overrides', engine: 'View' },
      { name: 'person_distinct_ids', engine: 'View' },
      { name: 'person_rows', engine: 'ReplacingMergeTree' },
      { name: 'personless_distinct_ids', engine: 'View' },
      { name: 'persons', engine: 'View' },
    ])
    // The companion's rows, not the stale copy's: the merge, its override at anon's mapping version (1), the personless id, the group.
    expect(await persons()).toEqual([{ uuid: ada, version: 1, is_identified: true, plan: '' }])
    expect(await distinctIds()).toEqual([`ada -> ${ada}@0`, `anon -> ${ada}@1`])
    expect(await overrides()).toEqual([`anon -> ${ada}`])
    expect(await ch(`select key, toUInt32(ver) as ver from person_rows where kind = 'person_distinct_id_overrides'`)).toEqual([{ key: 'anon', ver: 2 }])
    expect(await ch(`select distinct_id from personless_distinct_ids where project_id = ${project}`)).toEqual([{ distinct_id: 'ghost' }])
    expect(await ch(`select group_key, properties, version from groups where project_id = ${project}`)).toEqual([{ group_key: 'acme', properties: '{"size":5}', version: 0 }])
    expect(await dau()).toEqual([1])
    // Writes after the migration are told as before; the squash's deletion outranks the migrated override.
    expect(await sightline!.persons.squashOverrides(project)).toBe(1)
    expect(await overrides()).toEqual([])
  })
})
