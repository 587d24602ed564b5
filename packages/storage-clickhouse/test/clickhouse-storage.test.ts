import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Kysely, sql } from 'kysely'
import { DuckDBInstance } from '@duckdb/node-api'
import { createSightline, type Sightline } from '@sightline/core'
import type { EventRow, SightlineDatabase, StorageDriver } from '@sightline/core/storage'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { clickhouseStorage } from '@sightline/storage-clickhouse'
import { eventRow } from './event-row.js'
import { openChdb } from './open-chdb.js'

const row = (uuid: string, properties: object = {}): EventRow => eventRow(uuid, { properties: JSON.stringify(properties) })

describe('clickhouseStorage: events on ClickHouse, the rest on the companion', () => {
  let chdb: ReturnType<typeof openChdb>
  let instance: DuckDBInstance
  const chCount = async (where = 'true') =>
    Number((await chdb.session.queryAsync(`select count() as n from events where ${where}`, { format: 'JSONEachRow' })).json<{ n: string }>().n)
  const companionCount = async (table: string) => {
    const connection = await instance.connect()
    try {
      return Number((await (await connection.run(`select count(*) as n from ${table}`)).getRowObjectsJS())[0]!.n)
    } finally {
      connection.closeSync()
    }
  }
  const storage = () => clickhouseStorage({ session: chdb.session, companion: duckdbStorage({ instance }) })

  beforeEach(async () => {
    chdb = openChdb()
    instance = await DuckDBInstance.create(':memory:')
  })
  afterEach(async () => {
    instance.closeSync()
    await chdb.close()
  })

  it('captured events are in ClickHouse with their hot properties computed there; persons in the companion', async () => {
    let sightline: Sightline | undefined
    try {
      sightline = await createSightline({ storage: storage(), clock: () => new Date('2026-03-01T12:00:00Z') })
      const org = await sightline.organizations.create({ name: 'Acme' })
      const project = await sightline.projects.create({ organizationId: org.id, name: 'Web', timezone: 'UTC' })
      await sightline.capture(project.id, [{ event: '$pageview', distinctId: 'ada', properties: { $browser: 'Firefox', $os: 42 } }])
      const [stored] = (await chdb.session.queryAsync('select event, mp_browser, mp_os, mp_pathname from events', { format: 'JSONEachRow' })).text().trim().split('\n').map((l) => JSON.parse(l))
      // jsonText: a string unquoted, a number as its JSON text, a missing key null.
      expect(stored).toEqual({ event: '$pageview', mp_browser: 'Firefox', mp_os: '42', mp_pathname: null })
      expect(await companionCount('events')).toBe(0)
      expect(await companionCount('persons')).toBe(1)
    } finally {
      await sightline?.close()
    }
  })

  it("a merge's override is folded into ClickHouse's events by a squash, and the merged person is counted once before and after", async () => {
    let sightline: Sightline | undefined
    try {
      sightline = await createSightline({ storage: storage(), clock: () => new Date('2026-03-01T12:00:00Z') })
      const org = await sightline.organizations.create({ name: 'Acme' })
      const { id } = await sightline.projects.create({ organizationId: org.id, name: 'Web', timezone: 'UTC' })
      const at = '2026-03-01T10:00:00Z'
      await sightline.capture(id, [
        { event: '$pageview', distinctId: 'anon', timestamp: at },
        { event: '$pageview', distinctId: 'ada', timestamp: at },
      ])
      // Two persons until ada's device is identified with anon: one person, anon's events now overridden.
      await sightline.capture(id, [{ event: '$identify', distinctId: 'ada', timestamp: at, properties: { $anon_distinct_id: 'anon' } }])
      const dau = async () =>
        ((await sightline!.query.trend(id, { events: [{ id: '$pageview', math: 'dau' }], date_from: '2026-03-01', date_to: '2026-03-01' })).result as Array<{ data: number[] }>)[0]!.data
      const persons = async () => Number((await chdb.session.queryAsync(`select uniqExact(person_id) as n from events where event = '$pageview'`, { format: 'JSONEachRow' })).json<{ n: string }>().n)
      expect(await dau()).toEqual([1])
      // Before the squash ClickHouse's events still carry the two persons they were captured with.
      expect(await persons()).toBe(2)
      expect(await sightline.persons.squashOverrides(id)).toBe(1)
      expect(await companionCount('person_distinct_id_overrides')).toBe(0)
      expect(await persons()).toBe(1)
      expect(await dau()).toEqual([1])
    } finally {
      await sightline?.close()
    }
  })

  describe('insertEvents and transactions', () => {
    let driver: StorageDriver
    let db: Kysely<SightlineDatabase>
    beforeEach(async () => {
      driver = await storage().open()
      db = new Kysely<SightlineDatabase>({ dialect: driver.dialect })
      // The adapter's own ClickHouse migration, run as core runs it.
      await driver.migrations['clickhouse_0001_events']!.up(db)
    })
    afterEach(async () => {
      await db.destroy()
      await driver.close()
    })

    it('adds $screen_name to events stored before it, as a DEFAULT their parts compute when read (migration clickhouse_0010)', async () => {
      // A database from before: 0001 of that time made no mp_screen_name.
      await chdb.session.queryAsync('alter table events drop column mp_screen_name')
      await driver.insertEvents(db, [row('0190f5a0-0000-7000-8000-000000000001', { $screen_name: 'Home' }), row('0190f5a0-0000-7000-8000-000000000002', { $screen_name: 7 }), row('0190f5a0-0000-7000-8000-000000000003')])
      await driver.migrations['clickhouse_0010_screen_name']!.up(db)
      // Idempotent, as every ClickHouse migration: a second run changes nothing.
      await driver.migrations['clickhouse_0010_screen_name']!.up(db)
      const read = (await chdb.session.queryAsync('select mp_screen_name from events order by uuid', { format: 'JSONEachRow' })).text().trim().split('\n').map((l) => JSON.parse(l).mp_screen_name)
      expect(read).toEqual(['Home', '7', null])
    })

    it('writes at once outside a transaction, at commit inside one, and never for a rolled back one', async () => {
      expect(await driver.insertEvents(db, [row('0190f5a0-0000-7000-8000-000000000001')])).toBe(1)
      expect(await chCount()).toBe(1)
      await db.transaction().execute(async (trx) => {
        await driver.insertEvents(trx, [row('0190f5a0-0000-7000-8000-000000000002'), row('0190f5a0-0000-7000-8000-000000000003')])
        expect(await chCount()).toBe(1)
      })
      expect(await chCount()).toBe(3)
      const failed = db.transaction().execute(async (trx) => {
        await driver.insertEvents(trx, [row('0190f5a0-0000-7000-8000-000000000004')])
        throw new Error('abandoned')
      })
      await expect(failed).rejects.toThrow('abandoned')
      expect(await chCount()).toBe(3)
    })

    it("refreshes ClickHouse's copy of cohort people before a read of events names it, after writes commit", async () => {
      await sql`create table cohort_people (project_id integer not null, cohort_id integer not null, person_uuid uuid not null)`.execute(db)
      const person = '0190f5a0-0000-7000-8000-00000000000b'
      await driver.insertEvents(db, [{ ...row('0190f5a0-0000-7000-8000-000000000001'), person_id: person }])
      const joined = () =>
        sql<{ c: number | null }>`select cp.cohort_id as c from events as e left join cohort_people as cp on cp.project_id = e.project_id and cp.person_uuid = e.person_id`
          .execute(db)
          .then((r) => r.rows.map((x) => x.c))
      // The outer join's missing side is null, as in SQL (ClickHouse's default would be 0).
      expect(await joined()).toEqual([null])
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('cohort_people').values({ project_id: 1, cohort_id: 5, person_uuid: person }).execute()
        // Read inside the writing transaction: the copy may hold its rows, and is refreshed again once it ends.
        expect(await sql`select count() as n from events`.execute(trx)).toMatchObject({ rows: [{ n: 1 }] })
      })
      expect(await joined()).toEqual([5])
      const rolledBack = db.transaction().execute(async (trx) => {
        await trx.deleteFrom('cohort_people').execute()
        expect(await sql<{ c: number }>`select cp.cohort_id as c from events as e left join cohort_people as cp on cp.person_uuid = e.person_id`.execute(trx)).toMatchObject({ rows: [{ c: null }] })
        throw new Error('abandoned')
      })
      await expect(rolledBack).rejects.toThrow('abandoned')
      expect(await joined()).toEqual([5])
    })

    it("folds a squash's overrides into ClickHouse's events; the override told deleted then leaves ClickHouse's rows", async () => {
      await driver.migrations['clickhouse_0008_person_rows']!.up(db)
      const p1 = '0190f5a0-0000-7000-8000-0000000000b1'
      await driver.insertEvents(db, [
        { ...row('0190f5a0-0000-7000-8000-000000000001'), person_id: p1 },
        { ...row('0190f5a0-0000-7000-8000-000000000002'), distinct_id: 'other', person_id: p1 },
        { ...row('0190f5a0-0000-7000-8000-000000000003'), project_id: 2, person_id: p1 },
      ])
      // The person an analysis reads, per event in uuid order, and the override it joined.
      const persons = () =>
        sql<{ p: string | null; ov: string | null }>`select toString(coalesce(ov.person_id, e.person_id)) as p, toString(ov.person_id) as ov from events as e
          left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id order by e.uuid`
          .execute(db)
          .then((r) => r.rows)
      // A new adapter's first read catches up with the companion (person-rows.ts), which has no overrides here;
      // the rows told below, without the companion's, stand after it.
      expect(await persons()).toEqual([{ p: p1, ov: null }, { p: p1, ov: null }, { p: p1, ov: null }])
      const p2 = '0190f5a0-0000-7000-8000-0000000000b2'
      const told = (deleted: boolean) =>
        driver.personRowsChanged!(db, { projectId: 1, persons: [], distinctIds: [], overrides: [{ distinct_id: 'd', person_id: p2, version: 1, deleted }], personless: [], groups: [] })
      await told(false)
      expect(await persons()).toEqual([{ p: p2, ov: p2 }, { p: p1, ov: null }, { p: p1, ov: null }])
      // The squash's order: fold, delete the overrides in the companion, and once that committed tell the deletion.
      await driver.foldPersonOverrides!(db, 1, [{ distinct_id: 'd', person_id: p2 }])
      await told(true)
      // Only project 1's events of distinct id d changed; the override is gone from ClickHouse's rows too.
      expect(await persons()).toEqual([{ p: p2, ov: null }, { p: p1, ov: null }, { p: p1, ov: null }])
      expect(await chCount(`person_id = '${p2}'`)).toBe(1)
    })

    it('folds the overrides an older copy kept into the events once, and drops that copy (migration clickhouse_0007)', async () => {
      const [p1, p2, p3] = ['0190f5a0-0000-7000-8000-0000000000b1', '0190f5a0-0000-7000-8000-0000000000b2', '0190f5a0-0000-7000-8000-0000000000b3']
      await driver.insertEvents(db, [
        { ...row('0190f5a0-0000-7000-8000-000000000001'), person_id: p1 },
        { ...row('0190f5a0-0000-7000-8000-000000000002'), distinct_id: 'other', person_id: p1 },
      ])
      // The copy as the adapter kept it before: the companion had squashed and deleted these, ClickHouse's events had not changed.
      // Two rows for d (p2, then p3): a ReplacingMergeTree keeps the later one.
      await chdb.session.queryAsync(
        `create table person_distinct_id_overrides (project_id Int32, distinct_id String, person_id UUID) engine = ReplacingMergeTree order by (project_id, distinct_id)`,
      )
      await chdb.session.queryAsync(`insert into person_distinct_id_overrides values (1, 'd', '${p2}')`)
      await chdb.session.queryAsync(`insert into person_distinct_id_overrides values (1, 'd', '${p3}')`)
      await driver.migrations['clickhouse_0007_fold_kept_overrides']!.up(db)
      expect(await chCount(`distinct_id = 'd' and person_id = '${p3}'`)).toBe(1)
      expect(await chCount(`distinct_id = 'other' and person_id = '${p1}'`)).toBe(1)
      expect(await chCount(`person_id = '${p2}'`)).toBe(0)
      const tables = (await chdb.session.queryAsync(`select count() as n from system.tables where database = currentDatabase() and name = 'person_distinct_id_overrides'`, { format: 'JSONEachRow' })).json<{ n: string }>()
      expect(Number(tables.n)).toBe(0)
      // On a fresh database the migration finds no copy and does nothing.
      await expect(driver.migrations['clickhouse_0007_fold_kept_overrides']!.up(db)).resolves.toBeUndefined()
    })

    it('sends reads of events to ClickHouse and everything else to the companion', async () => {
      await driver.insertEvents(db, [row('0190f5a0-0000-7000-8000-000000000001', { $browser: 'x' })])
      const events = await db.selectFrom('events').select(['uuid', 'timestamp', 'properties']).execute()
      expect(events).toEqual([{ uuid: '0190f5a0-0000-7000-8000-000000000001', timestamp: '2026-01-01T10:00:00.000001Z', properties: { $browser: 'x' } }])
      // ClickHouse's own function: a read of events runs there.
      const { rows } = await sql<{ v: string }>`select toTypeName(timestamp) as v from events`.execute(db)
      expect(rows).toEqual([{ v: "DateTime64(6, 'UTC')" }])
      // A table ClickHouse does not have: the companion answers.
      await sql`create table notes (t text)`.execute(db)
      await db.insertInto('notes' as never).values({ t: 'n' } as never).execute()
      expect(await db.selectFrom('notes' as never).selectAll().execute()).toEqual([{ t: 'n' }])
    })
  })
})
